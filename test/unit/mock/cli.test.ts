import * as assert from 'node:assert/strict';
import { parseCli } from '../../../src/mock/cli';

describe('mock CLI options', () => {
  it('reads --speed and --stuck-minutes', () => {
    const before = Date.now();
    const settings = parseCli(['--speed', '2.5', '--stuck-minutes', '30']);
    assert.ok(settings !== 'help');
    assert.equal(settings.options.speed, 2.5);
    const stuckSince = settings.options.stuckSince as number;
    assert.ok(Math.abs(stuckSince - (before - 30 * 60_000)) < 2_000, `stuckSince ${stuckSince}`);
    const plain = parseCli([]);
    assert.ok(plain !== 'help');
    assert.equal(plain.options.speed, undefined);
    assert.equal(plain.options.stuckSince, undefined);
  });

  it('refuses a speed that is not a positive number', () => {
    for (const speed of ['0', '-2', 'fast', '1e3', '2000']) {
      assert.throws(() => parseCli([`--speed=${speed}`]), /--speed must be/);
    }
    assert.throws(() => parseCli(['--stuck-minutes=-5']), /--stuck-minutes must be/);
  });

  it('--etag makes the mock send ETag and Last-Modified; off by default (issue #38)', () => {
    const on = parseCli(['--etag']);
    assert.ok(on !== 'help');
    assert.equal(on.options.etag, true);
    const off = parseCli([]);
    assert.ok(off !== 'help');
    assert.ok(!off.options.etag);
  });
});
