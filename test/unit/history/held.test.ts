import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { HeldRuns } from '../../../src/history/held';
import {
  NO_OLDER_DAYS,
  flowStats,
  makeEntry,
  type DaySummary,
  type FlowStats,
  type HistoryEntry,
  type OlderDays,
} from '../../../src/history/index';
import { mergeSegments, pruneEntries } from '../../../src/history/store';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T0 = Date.UTC(2026, 10, 22, 12);

/** A run as the observer or a read makes it: a few sync ids and flows (so runs meet), some created_at not a time. */
const entryArb = fc
  .record({
    id: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 41, max: 1e9 })), // a run met again, or a new sync
    flowId: fc.integer({ min: 1, max: 5 }),
    name: fc.constantFrom('A', 'B', ''),
    created: fc.option(fc.integer({ min: 0, max: 3 * 60 }), { nil: undefined }),
    firstSeen: fc.integer({ min: -12 * 24, max: 2 * 24 }), // hours: runs often leave at the very edge of the days kept
    seenFor: fc.constantFrom(0, 15_000, 60 * MIN),
    leftAfter: fc.constantFrom(0, 1, 15_000, 60 * MIN - 15_000),
    raw: fc.boolean(),
  })
  .map((r): HistoryEntry => {
    const firstSeen = T0 + r.firstSeen * 60 * MIN;
    const createdAt = r.created === undefined ? 'not a time' : new Date(firstSeen - r.created * MIN).toISOString();
    const lastSeen = firstSeen + r.seenFor;
    return makeEntry({
      id: r.id,
      flowId: r.flowId,
      flowName: r.name,
      createdAt,
      firstSeen,
      lastSeen,
      leftAt: lastSeen + r.leftAfter,
      raw: r.raw ? { id: r.id } : undefined,
    });
  });

/** Summaries of older days: whole counts as summarizeDay writes them, or any finite count a file on disk may hold. */
const olderArb: fc.Arbitrary<OlderDays> = fc.oneof(
  fc.constant(NO_OLDER_DAYS),
  fc
    .record({
      before: fc.integer({ min: -10 * DAY, max: 0 }),
      flows: fc.array(
        fc.record({
          flowId: fc.integer({ min: 1, max: 7 }),
          buckets: fc.uniqueArray(fc.integer({ min: 0, max: 300 }), { maxLength: 4 }),
          count: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.double({ min: 0, max: 9, noNaN: true })),
        }),
        { maxLength: 4 },
      ),
    })
    .map(({ before, flows }) => {
      const days: DaySummary[] = [
        {
          day: '2026-11-10',
          runs: 1,
          flows: flows.map((f) => ({
            flowId: f.flowId,
            label: '',
            labelAt: 0,
            durations: [...f.buckets].sort((a, b) => a - b).flatMap((b) => [b, f.count]),
            hours: [],
          })),
        },
      ];
      return { before: T0 + before, days };
    }),
);

/** A poll: its departures, how far the clock moved, the days shown, and sometimes new summaries (a new `older`). */
const pollArb = fc.record({
  left: fc.array(entryArb, { maxLength: 4 }),
  step: fc.oneof(
    fc.constant(15_000),
    fc.integer({ min: 0, max: 3 * 24 }).map((h) => h * 60 * MIN),
  ),
  days: fc.integer({ min: 1, max: 10 }),
  older: fc.option(olderArb, { nil: undefined }),
  /** Runs held already, seen leaving again (another window's record of the same run read, then this window's). */
  again: fc.array(
    fc.record({
      pick: fc.nat(),
      shift: fc.constantFrom(-15_000, 0, 15_000),
      later: fc.constantFrom(0, 15_000, 60 * MIN),
    }),
    { maxLength: 2 },
  ),
});

const sortedStats = (stats: ReadonlyMap<number, FlowStats>) => [...stats].sort((a, b) => a[0] - b[0]);

describe("HeldRuns: a poll's departures without a pass over every held run", () => {
  it('gives exactly what merge, prune and flowStats of everything give, poll after poll (property)', () => {
    fc.assert(
      fc.property(
        fc.array(entryArb, { maxLength: 40 }),
        olderArb,
        fc.array(pollArb, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 6 }),
        (start, firstOlder, polls, cap, rawKept) => {
          const held = new HeldRuns(cap, rawKept);
          let now = T0;
          let older = firstOlder;
          let entries = pruneEntries(mergeSegments([start]), now, 7, cap, rawKept);
          for (const poll of polls) {
            now += poll.step;
            older = poll.older ?? older;
            const again = entries.length
              ? poll.again.map(({ pick, shift, later }) => {
                  const e = entries[pick % entries.length];
                  return makeEntry({
                    ...e,
                    firstSeen: e.firstSeen + shift,
                    lastSeen: Math.max(e.firstSeen + shift, e.lastSeen + later),
                    leftAt: Math.max(e.firstSeen + shift, e.lastSeen + later) + 15_000,
                  });
                })
              : [];
            const left = [...poll.left, ...again];
            const expected = pruneEntries(mergeSegments([entries, left]), now, poll.days, cap, rawKept);
            const got = held.depart(entries, older, left, now, poll.days);
            assert.deepStrictEqual(got.entries, expected);
            assert.deepStrictEqual(sortedStats(got.stats), sortedStats(flowStats(expected, older)));
            entries = got.entries;
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('leaves the arrays it was given as they were (the views may still show them)', () => {
    const held = new HeldRuns(3, 1);
    const run = (id: number, leftAt: number) =>
      makeEntry({
        id,
        flowId: 1,
        flowName: 'A',
        createdAt: new Date(leftAt - 5 * MIN).toISOString(),
        firstSeen: leftAt - 4 * MIN,
        lastSeen: leftAt,
        leftAt,
        raw: { id },
      });
    const before = pruneEntries([run(1, T0), run(2, T0 - MIN), run(3, T0 - 2 * MIN)], T0, 7, 3, 1);
    const copy = [...before];
    const left = [run(4, T0 + MIN)];
    const after = held.depart(before, NO_OLDER_DAYS, left, T0 + MIN, 7);
    assert.deepStrictEqual(before, copy);
    assert.deepStrictEqual(
      after.entries.map((e) => [e.id, e.raw !== undefined]),
      [
        [4, true],
        [1, false],
        [2, false],
      ],
    );
    assert.equal(after.stats.get(1)?.runs, 3);
  });
});
