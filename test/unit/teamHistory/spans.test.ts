import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { unwatched, watchedBy } from '../../../src/teamHistory/spans';

const H = 3_600_000;
const span = (observer: string, team: string, from: number, to: number) => ({ observer, service: 's', team, from, to });

describe('teamHistory spans: when nobody was watching', () => {
  it('the stretches no window of every team covered', () => {
    const spans = [span('anna', '', 1 * H, 3 * H), span('ben', '', 2 * H, 5 * H), span('carl', '', 8 * H, 9 * H)];
    assert.deepEqual(unwatched(spans, 0, 10 * H), [
      { from: 0, to: 1 * H, teams: [] },
      { from: 5 * H, to: 8 * H, teams: [] },
      { from: 9 * H, to: 10 * H, teams: [] },
    ]);
  });

  it('watched in part: only windows with a team filter', () => {
    const spans = [span('anna', '3', 0, 4 * H), span('ben', '5', 2 * H, 6 * H), span('carl', '', 5 * H, 8 * H)];
    assert.deepEqual(unwatched(spans, 0, 8 * H), [
      { from: 0, to: 2 * H, teams: ['3'] },
      { from: 2 * H, to: 4 * H, teams: ['3', '5'] },
      { from: 4 * H, to: 5 * H, teams: ['5'] },
    ]);
  });

  it('nothing when someone watched all along; everything when nobody did; an empty range is empty', () => {
    assert.deepEqual(unwatched([span('a', '', -H, 11 * H)], 0, 10 * H), []);
    assert.deepEqual(unwatched([], 0, H), [{ from: 0, to: H, teams: [] }]);
    assert.deepEqual(unwatched([span('a', '', 0, H)], H, H), []);
  });

  it('touching spans leave no gap, and the same gap is one stretch', () => {
    const spans = [
      span('a', '', 0, H),
      span('b', '', H, 2 * H),
      span('c', '4', 3 * H, 4 * H),
      span('d', '4', 4 * H, 5 * H),
    ];
    assert.deepEqual(unwatched(spans, 0, 6 * H), [
      { from: 2 * H, to: 3 * H, teams: [] },
      { from: 3 * H, to: 5 * H, teams: ['4'] },
      { from: 5 * H, to: 6 * H, teams: [] },
    ]);
  });

  it('(property) is, minute by minute, the minutes no span of every team covered, with the teams that did', () => {
    const spanArb = fc
      .record({
        team: fc.constantFrom('', '', '3', '5'),
        a: fc.integer({ min: -5, max: 65 }),
        b: fc.integer({ min: -5, max: 65 }),
      })
      .map(({ team, a, b }) => span('o', team, Math.min(a, b), Math.max(a, b)));
    fc.assert(
      fc.property(
        fc.array(spanArb, { maxLength: 8 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 30 }),
        (spans, a, len) => {
          const from = a;
          const to = a + len;
          const gaps = unwatched(spans, from, to);
          for (let m = from; m < to; m++) {
            const covering = spans.filter((s) => s.from <= m && m < s.to);
            const gap = gaps.find((g) => g.from <= m && m < g.to);
            if (covering.some((s) => s.team === '')) assert.equal(gap, undefined, `minute ${m} was watched`);
            else assert.deepEqual(gap?.teams, [...new Set(covering.map((s) => s.team))].sort(), `minute ${m}`);
          }
          for (let i = 1; i < gaps.length; i++) {
            assert.ok(gaps[i - 1].to <= gaps[i].from, 'in time order, apart');
            if (gaps[i - 1].to === gaps[i].from) {
              assert.notDeepEqual(gaps[i - 1].teams, gaps[i].teams, 'the same gap is one');
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts the installations that watched some of a day', () => {
    const spans = [
      span('anna', '', 0, H),
      span('anna', '3', 2 * H, 3 * H),
      span('ben', '', 30 * H, 31 * H),
      span('carl', '', -5 * H, 0),
    ];
    assert.equal(watchedBy(spans, 0, 24 * H), 2);
  });
});
