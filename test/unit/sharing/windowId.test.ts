import * as assert from 'node:assert/strict';
import { newWindowId } from '../../../src/sharing/windowId';
import { FakeClock } from '../helpers/fakeClock';

describe('newWindowId (this window among the windows that share polls)', () => {
  it('is the start time in base 36, a dash, then 10 base-36 digits of chance', () => {
    const clock = new FakeClock(1_700_000_000_000);
    const id = newWindowId(clock.now(), () => 0.5);
    assert.match(id, /^[0-9a-z]+-[0-9a-z]{10}$/);
    assert.equal(id.split('-')[0], (1_700_000_000_000).toString(36));
  });

  it('keeps its shape at the edges of chance (0, and just under 1) and of time', () => {
    assert.equal(
      newWindowId(0, () => 0),
      '0-0000000000',
    );
    assert.match(
      newWindowId(1_700_000_000_000, () => 0.999999999999),
      /^[0-9a-z]+-[0-9a-z]{10}$/,
    );
    assert.match(
      newWindowId(1_700_000_000_000, () => 1),
      /^[0-9a-z]+-[0-9a-z]{10}$/,
    );
  });

  it('two windows started in the same millisecond get two ids', () => {
    const clock = new FakeClock(1_700_000_000_000);
    let draws = 0;
    const random = () => (++draws * 0.618033988749895) % 1; // a different chance each draw, as Math.random gives
    const ids = new Set(Array.from({ length: 1000 }, () => newWindowId(clock.now(), random)));
    assert.equal(ids.size, 1000);
  });

  it('windows started at another time get another id, with the same chance', async () => {
    const clock = new FakeClock(1_700_000_000_000);
    const first = newWindowId(clock.now(), () => 0.25);
    await clock.advance(1);
    assert.notEqual(
      newWindowId(clock.now(), () => 0.25),
      first,
    );
  });
});
