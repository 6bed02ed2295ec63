import * as assert from 'node:assert/strict';
import { AWAY_MS, AwaySummary } from '../../../src/notifications/awaySummary';

describe('notifications: what happened while the window was away is said once, as one summary', () => {
  let time = 1_000_000;
  const now = () => time;

  it('with the focus, and in the first 5 minutes without it, news is said as it happens', () => {
    const away = new AwaySummary(now);
    assert.equal(away.offer('finished', 1), true, 'never unfocused');
    away.focus(false);
    time += AWAY_MS;
    assert.equal(away.offer('stuck', 1), true, 'exactly 5 minutes away');
    assert.equal(away.focus(true), undefined, 'nothing was held');
  });

  it('after 5 minutes away it is held, and said as one summary when the focus comes back', () => {
    const away = new AwaySummary(now);
    away.focus(false);
    time += AWAY_MS + 1;
    for (const [kind, count] of [
      ['finished', 3],
      ['finished', 2],
      ['stuck', 1],
      ['errors', 2],
      ['slower', 1],
    ] as const) {
      assert.equal(away.offer(kind, count), false, kind);
    }
    away.focus(false); // another blur changes nothing
    assert.deepEqual(away.focus(true), {
      text: 'While you were away: 5 flow syncs finished, 1 sync became stuck, 2 syncs reported errors, 1 flow ran slower than usual.',
    });
    assert.equal(away.focus(true), undefined, 'said once');
    assert.equal(away.offer('finished', 1), true, 'back: said as it happens again');
  });

  it('names the services news came from (at most three, the rest counted)', () => {
    const away = new AwaySummary(now);
    away.focus(false);
    time += AWAY_MS + 1;
    away.offer('finished', 1, 'Production');
    away.offer('errors', 1, 'Staging');
    assert.equal(
      away.focus(true)?.text,
      'While you were away (Production, Staging): 1 flow sync finished, 1 sync reported errors.',
    );
    away.focus(false);
    time += AWAY_MS + 1;
    for (const name of ['A', 'B', 'C', 'D', 'E']) away.offer('stuck', 1, name);
    assert.equal(away.focus(true)?.text, 'While you were away (A, B, C and 2 more): 5 syncs became stuck.');
  });

  it('the absence is counted from when the focus was lost, not from the last blur', () => {
    const away = new AwaySummary(now);
    away.focus(false);
    time += AWAY_MS - 10;
    away.focus(false);
    time += 20;
    assert.equal(away.offer('finished', 1), false);
  });

  it('bounded: a count that is not a positive integer is one, and counts and names stop growing', () => {
    const away = new AwaySummary(now);
    away.focus(false);
    time += AWAY_MS + 1;
    away.offer('finished', Number.NaN);
    away.offer('finished', -5);
    away.offer('errors', 10 ** 20);
    for (let i = 0; i < 100; i++) away.offer('stuck', 1, `service ${i}`);
    assert.equal(
      away.focus(true)?.text,
      'While you were away (service 0, service 1, service 2 and 17 more): 2 flow syncs finished, 100 syncs became stuck, 1 sync reported errors.',
    );
  });
});
