import * as assert from 'node:assert/strict';
import { timeTicks } from '../../../../src/base/webview/timeTicks';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T = Date.UTC(2026, 10, 22, 12);
const utc = () => 0;

describe("the webview pages' time axis (timeTicks): the activity chart and the Run Timeline", () => {
  it('chooses time ticks on local boundaries, as far apart as the labels need', () => {
    const min = T + 7 * MIN; // 12:07 UTC
    const max = min + HOUR;
    // 600 px for an hour: 10 px a minute, 60 px apart is 10 minutes
    assert.deepEqual(
      timeTicks(min, max, 600, 60, utc),
      [10, 20, 30, 40, 50, 60].map((m) => T + m * MIN),
    );
    // narrower: 15 minutes
    assert.deepEqual(
      timeTicks(min, max, 300, 60, utc),
      [15, 30, 45, 60].map((m) => T + m * MIN),
    );
    // in a zone 5:45 ahead of UTC (Nepal), the boundaries are local ones: 18:00 local is 12:15 UTC
    const nepal = () => 345 * MIN;
    assert.deepEqual(
      timeTicks(min, max, 600, 60, nepal),
      [15, 25, 35, 45, 55, 65].map((m) => T + m * MIN),
    );
  });

  it('time ticks across a week fall on midnights, and none when nothing fits', () => {
    const monday = Date.UTC(2026, 10, 23);
    const ticks = timeTicks(monday - HOUR, monday + 7 * 24 * HOUR - HOUR, 700, 80, utc);
    assert.ok(ticks.length >= 6 && ticks.length <= 7, String(ticks.length));
    for (const t of ticks) assert.equal(t % (24 * HOUR), 0, new Date(t).toISOString());
    assert.deepEqual(timeTicks(T, T + HOUR, 0, 60, utc), []);
    assert.deepEqual(timeTicks(T, T, 600, 60, utc), []);
    assert.deepEqual(
      timeTicks(T, T + 400 * 24 * HOUR, 100, 90, utc),
      [],
      'no step is 90 px apart: no labels over one another',
    );
  });

  it("the timeline's steps: the one step it chose, each tick on that step's local boundary, at its own instant's offset", () => {
    // A zone that moves its clocks forward by half an hour (as Lord Howe Island does): local = UTC + 1 h before the
    // change, + 1:30 after it. One offset for the whole axis would put the later ticks on half hours.
    const change = Date.UTC(2026, 2, 29, 1);
    const offset = (ms: number) => (ms < change ? HOUR : HOUR + 30 * MIN);
    const ticks = timeTicks(change - 3 * HOUR, change + 3 * HOUR, 600, 0, offset, [HOUR]);
    // every tick is a whole local hour, before and after the change
    assert.ok(ticks.length >= 5, String(ticks.length));
    // (the instant of the change is 02:00 by the clock before it: a whole hour too)
    for (const t of ticks) if (t !== change) assert.equal((t + offset(t)) % HOUR, 0, new Date(t).toISOString());
    assert.ok(ticks.includes(change + 30 * MIN), '03:00 local, the first whole hour after the change');
    assert.deepEqual(timeTicks(T, T + 6 * HOUR, 600, 0, utc, [2 * HOUR]), [
      T,
      T + 2 * HOUR,
      T + 4 * HOUR,
      T + 6 * HOUR,
    ]);
  });
});
