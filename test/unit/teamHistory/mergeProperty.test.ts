import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { makeEntry, type HistoryEntry } from '../../../src/history/entry';
import { TeamRuns, mergeHistory, mergeNewest, mergedNewestFirst } from '../../../src/teamHistory/merge';
import { MergedRuns } from '../../../src/history/mergedRuns';
import { NO_OLDER_DAYS } from '../../../src/history/summary';
import { FakeClock } from '../helpers/fakeClock';
import type { TeamRun } from '../../../src/teamHistory/teamRows';

/*
 * One timeline of runs, split across 1-5 observers, merges to the History one observer of everything would keep.
 *
 * The truth: syncs processing on a grid of polls P[k] = T0 + k·STEP (the polls of one observer of everything: every
 * answer fresh, no team filter). A run is present at polls a..b and gone at poll c = b + 1: that observer keeps it as
 * first seen P[a], last seen P[b], left P[c]. A sync may run again, with the same or another created_at, later.
 *
 * The split: each observer has a team filter (it sees only that team's runs) and saw some part of each run it may
 * see: first and last seen within [a, b], and then
 * - noticed it gone at c or later (it lagged: polled less often), or
 * - its window closed while the run went on (an open row: no leaving), or
 * - a stale answer (older than another window's sighting) lacked it at x < b: the observer wrote it gone at x and,
 *   seeing it again at y > x, wrote a second row (as History's observer does for a sync that came back).
 * Every poll a..b is seen by some observer (someone was watching), someone saw it first at a, someone last at b,
 * someone saw it gone at c. Observer 0 is this window: its runs that left are its History; the rest of its rows (and
 * some of those too, read back) come from the store with the other observers' rows, some twice, in any order, page
 * after page. The merge must give each run once with the single observer's times, errors, name, whether this window
 * saw it and how many observers did; nothing open.
 */

const T0 = Date.UTC(2026, 10, 22, 8, 0, 0);
const STEP = 15_000;
const POLLS = 48;
const MAX_LAG = 3;
const SELF = 'observer-0-self';
const P = (k: number) => T0 + k * STEP;

interface RunSpec {
  slot: number;
  sameCreatedAt: boolean;
  length: number;
  gapBefore: number;
  team: number;
  hadErrors: boolean;
}

interface TruthRun extends RunSpec {
  index: number;
  id: number;
  createdAt: string;
  a: number;
  b: number;
  c: number;
}

const runSpec: fc.Arbitrary<RunSpec> = fc.record({
  slot: fc.integer({ min: 0, max: 4 }),
  sameCreatedAt: fc.boolean(),
  length: fc.integer({ min: 0, max: 6 }),
  gapBefore: fc.integer({ min: 0, max: 4 }),
  team: fc.integer({ min: 1, max: 3 }),
  hadErrors: fc.boolean(),
});

/** Each observer's team filter: undefined for every team. */
const observersArb = fc.array(fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined, freq: 2 }), {
  minLength: 1,
  maxLength: 5,
});

/** mulberry32: the many small choices of one case, from one drawn seed. */
function rng(seed: number): (n: number) => number {
  let t = seed >>> 0;
  return (n: number) => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return Math.floor((((r ^ (r >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** The runs laid out per sync, one after another, far enough apart that a lagging observer's leaving never reaches the next. */
function layOut(specs: RunSpec[]): TruthRun[] {
  const runs: TruthRun[] = [];
  const next = new Map<number, { at: number; createdAt?: string }>();
  specs.forEach((spec, index) => {
    const slot = next.get(spec.slot) ?? { at: 0 };
    const a = slot.at + spec.gapBefore;
    const b = a + spec.length;
    const c = b + 1;
    if (c + MAX_LAG >= POLLS) return;
    const createdAt =
      spec.sameCreatedAt && slot.createdAt ? slot.createdAt : new Date(T0 - (index + 1) * 60_000).toISOString();
    runs.push({ ...spec, index, id: 100 + spec.slot, createdAt, a, b, c });
    next.set(spec.slot, { at: c + MAX_LAG + 1, createdAt });
  });
  return runs;
}

const observerId = (i: number) => (i === 0 ? SELF : `observer-${i}-team`);

/** Every observer's rows of one run (see the top of this file). */
function rowsOf(run: TruthRun, admitting: number[], pick: (n: number) => number): Array<[number, TeamRun]> {
  const rows: Array<[number, TeamRun]> = [];
  const from = (o: number, first: number, last: number, left: number | undefined, hadErrors: boolean) =>
    rows.push([
      o,
      {
        observer: observerId(o),
        service: 'svc',
        team: '',
        id: run.id,
        flowId: 7,
        flowName: `Flow ${run.id}`,
        createdAt: run.createdAt,
        firstSeen: P(first),
        lastSeen: P(last),
        leftAt: left === undefined ? undefined : P(left),
        hadErrors,
      },
    ]);
  const between = (lo: number, hi: number) => lo + pick(hi - lo + 1);
  const firstBy = admitting[pick(admitting.length)];
  const lastBy = admitting[pick(admitting.length)];
  const leftBy = admitting[pick(admitting.length)];
  for (const o of admitting) {
    const forced = o === firstBy || o === lastBy || o === leftBy;
    if (!forced && pick(10) < 4) continue; // did not see it
    const first = o === firstBy ? run.a : between(run.a, run.b);
    const last = o === lastBy ? run.b : between(first, run.b);
    const errors = run.hadErrors && (o === firstBy || pick(2) === 0);
    const ending = o === leftBy ? 'exact' : (['lag', 'open', 'cut'] as const)[pick(3)];
    if (ending === 'exact') from(o, first, last, run.c, errors);
    else if (ending === 'lag') from(o, first, last, run.c + pick(MAX_LAG + 1), errors);
    else if (ending === 'open' || o === lastBy || last - first < 2) from(o, first, last, undefined, errors);
    else {
      // A stale answer lacked it at x; seen again from y.
      const lastBefore = between(first, last - 2);
      const x = between(lastBefore + 1, last - 1);
      const y = between(x + 1, last);
      from(o, first, lastBefore, x, errors);
      from(o, y, last, pick(2) ? undefined : run.c + pick(MAX_LAG + 1), errors);
    }
  }
  // Someone watched at every poll of the run: a window that was open for one poll sees what the others missed.
  for (let k = run.a; k <= run.b; k++) {
    if (rows.some(([, r]) => r.firstSeen <= P(k) && P(k) <= r.lastSeen)) continue;
    from(admitting[pick(admitting.length)], k, k, undefined, false);
  }
  return rows;
}

interface Expected {
  id: number;
  createdAt: string;
  firstSeen: number;
  lastSeen: number;
  leftAt: number;
  hadErrors: boolean;
  flowName: string;
  seenHere: boolean;
  observers: number;
}

const order = (a: Expected, b: Expected) => a.leftAt - b.leftAt || a.id - b.id || a.firstSeen - b.firstSeen;

describe('teamHistory merge (property): a timeline split across 1-5 observers merges to one observer of everything', () => {
  it('each run once, with the times, errors and name the single observer keeps, and who saw it', () => {
    fc.assert(
      fc.property(
        fc.array(runSpec, { minLength: 1, maxLength: 14 }),
        observersArb,
        fc.integer(),
        (specs, filters, seed) => {
          const pick = rng(seed);
          const admits = (o: number, team: number) => filters[o] === undefined || filters[o] === team;
          const local: HistoryEntry[] = [];
          const team: TeamRun[] = [];
          const expected: Expected[] = [];
          for (const run of layOut(specs)) {
            const admitting = filters.map((_, o) => o).filter((o) => admits(o, run.team));
            if (!admitting.length) continue; // a team nobody watches: nobody's History has it
            const rows = rowsOf(run, admitting, pick);
            for (const [o, r] of rows) {
              const row = { ...r, team: filters[o] === undefined ? '' : String(filters[o]) };
              if (o === 0 && row.leftAt !== undefined) {
                local.push(makeEntry({ ...row, leftAt: row.leftAt }));
                if (pick(3) === 0) team.push(row); // written to the store and read back
              } else {
                team.push(row);
                if (pick(4) === 0) team.push({ ...row }); // read twice (a replay, a page read again)
              }
            }
            expected.push({
              id: run.id,
              createdAt: run.createdAt,
              firstSeen: P(run.a),
              lastSeen: P(run.b),
              leftAt: P(run.c),
              hadErrors: run.hadErrors,
              flowName: `Flow ${run.id}`,
              seenHere: rows.some(([o]) => o === 0),
              observers: new Set(rows.map(([o]) => o)).size,
            });
          }
          // Any order, page after page; a merge for the views may happen between pages.
          for (let i = team.length - 1; i > 0; i--) {
            const j = pick(i + 1);
            [team[i], team[j]] = [team[j], team[i]];
          }
          const runs = new TeamRuns(SELF);
          // The product's merge (src/history/mergedRuns.ts over the TeamSlot's port), asked for a page between pages.
          const product = new MergedRuns({
            clock: new FakeClock(),
            source: { version: () => String(runs.version), newestFirst: (l) => mergedNewestFirst(l, runs) },
            local: () => ({ entries: local, stats: new Map(), older: NO_OLDER_DAYS }),
            finished: () => undefined,
          });
          for (let at = 0; at < team.length;) {
            const page = 1 + pick(8);
            for (const row of team.slice(at, at + page)) runs.add(row);
            at += page;
            if (pick(4) === 0) mergeHistory(local, runs);
            if (pick(4) === 0) product.head(1 + pick(4));
          }
          const merged = mergeHistory(local, runs);
          const actual: Expected[] = merged.entries.map((e) => ({
            id: e.id,
            createdAt: e.createdAt,
            firstSeen: e.firstSeen,
            lastSeen: e.lastSeen,
            leftAt: e.leftAt,
            hadErrors: e.hadErrors,
            flowName: e.flowName,
            seenHere: e.seenHere,
            observers: e.observers,
          }));
          assert.deepEqual(actual.sort(order), expected.sort(order));
          assert.deepEqual(merged.open, []);
          assert.equal(runs.refused, 0);
          // The History view's first rows (the lazy merge from the newest end) are the head of every run merged.
          const page = 1 + pick(merged.entries.length + 1);
          assert.deepEqual(mergeNewest(local, runs, page), merged.entries.slice(0, page));
          // And so are the product's first page (without a merge that ended: while one is made, the view reads the last
          // that did, stale by design) and, once it is asked for every run, its whole History.
          product.forget();
          assert.deepEqual(product.head(page).slice(0, page), merged.entries.slice(0, page)); // (all, once all are made)
          assert.deepEqual(product.all(), merged.entries);
          assert.deepEqual(product.head(page), merged.entries);
          product.dispose();
        },
      ),
      { numRuns: 300 },
    );
  });
});
