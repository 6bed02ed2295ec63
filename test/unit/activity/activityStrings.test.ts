import * as assert from 'node:assert/strict';
import { activityStrings, unwatchedWords } from '../../../src/activity/activityStrings';
import { normalizeSeries } from '../../../src/activity/activityMessages';
import { clockTime } from '../../../src/base/format';

describe('activity panel page (activityStrings)', () => {
  it('gives the page every word it shows, none empty', () => {
    const strings = activityStrings();
    const words = Object.values(strings).flatMap((v) => (typeof v === 'string' ? [v] : Object.values(v)));
    assert.equal(words.length, 15);
    for (const w of words) assert.ok(typeof w === 'string' && w.trim().length > 0);
    assert.deepEqual(Object.keys(strings.ranges), ['hour', 'day', 'week']);
    assert.deepEqual(Object.keys(strings.captions), ['hour', 'day', 'week']);
  });

  it('team History: when nobody watched, in words, the first five named and the rest counted; text only', () => {
    const H = 3_600_000;
    const T = Date.UTC(2026, 10, 22, 0, 0, 0);
    const nobody = (i: number) => ({ from: T + i * H, to: T + i * H + H / 2, teams: [] as string[] });
    assert.equal(unwatchedWords([]), '');
    assert.equal(unwatchedWords([nobody(1)]), `Nobody watched: ${clockTime(T + H)}–${clockTime(T + 1.5 * H)}.`);
    const many = unwatchedWords([0, 1, 2, 3, 4, 5, 6].map(nobody).concat([{ from: T, to: T + H, teams: ['42'] }]));
    assert.match(many, / and 2 more\. 1 stretches were watched only by windows with a team filter\.$/);
    const series = normalizeSeries(
      { range: 'day', times: [], flows: [], unwatched: `\u202e<b>${'x'.repeat(5000)}` },
      'day',
    );
    assert.ok(series.unwatched && series.unwatched.length <= 600 && !/[\u202e<]/.test(series.unwatched));
    const shaded = normalizeSeries(
      {
        range: 'day',
        times: [],
        flows: [],
        gaps: [[T, T + H], [T + H, T], [NaN, T], ...Array.from({ length: 80 }, (_, i): [number, number] => [i, i + 1])],
      },
      'day',
    );
    assert.deepEqual(shaded.gaps?.[0], [T, T + H], 'the stretches the chart shades: finite, from before to');
    assert.equal(shaded.gaps?.length, 50, 'at most 50');
  });
});
