import * as assert from 'node:assert/strict';
import { makeEntry, type HistoryEntry } from '../../../src/history/entry';
import { TeamRuns, mergeHistory, mergeNewest, mergedNewestFirst, type TeamEntry } from '../../../src/teamHistory/merge';
import { MAX_RUN_MS, type TeamRun } from '../../../src/teamHistory/teamRows';

const SEC = 1000;
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const SELF = 'self-installation';
const ANNA = 'anna-installation';
const BEN = 'ben-installation-0';
const CREATED = new Date(T0).toISOString();

/** A sighting of sync `id` (created at T0) by `observer`: first/last seen and left, in seconds after T0. */
function row(
  observer: string,
  id: number,
  first: number,
  last: number,
  left?: number,
  extra: Partial<TeamRun> = {},
): TeamRun {
  return {
    observer,
    service: 'https://flowsync.example.com',
    team: '',
    id,
    flowId: 7,
    flowName: 'Invoices',
    createdAt: CREATED,
    firstSeen: T0 + first * SEC,
    lastSeen: T0 + last * SEC,
    leftAt: left === undefined ? undefined : T0 + left * SEC,
    hadErrors: false,
    ...extra,
  };
}

/** A run this window's History kept: the same, as a HistoryEntry. */
function local(id: number, first: number, last: number, left: number, extra: Partial<HistoryEntry> = {}): HistoryEntry {
  return makeEntry({ ...row(SELF, id, first, last), leftAt: T0 + left * SEC, ...extra });
}

function team(...rows: TeamRun[]): TeamRuns {
  const runs = new TeamRuns(SELF);
  for (const r of rows) runs.add(r);
  return runs;
}

/** [id, first, last, left] in seconds after T0, and who saw it. */
const times = (e: TeamEntry) => [e.id, (e.firstSeen - T0) / SEC, (e.lastSeen - T0) / SEC, (e.leftAt - T0) / SEC];

describe('teamHistory merge: the runs of one sync seen by several installations are one run', () => {
  it('takes the earliest first sighting, the latest last sighting and the earliest absence after it', () => {
    const merged = mergeHistory([local(1, 10, 60, 70)], team(row(ANNA, 1, 0, 40, 100), row(BEN, 1, 30, 80, 90)));
    assert.deepEqual(merged.entries.map(times), [[1, 0, 80, 90]]);
    assert.equal(merged.entries[0].observers, 3);
    assert.equal(merged.entries[0].seenHere, true);
    assert.equal(merged.entries[0].duration.ms, 85 * SEC, 'from created_at (T0) to the middle of [80, 90]');
  });

  it('a window that lagged (its absence before another sighting) never cuts a run short', () => {
    // Anna's answer at 50 lacked the sync; Ben saw it at 60, and it was gone at 75.
    const merged = mergeHistory([], team(row(ANNA, 1, 0, 40, 50), row(BEN, 1, 20, 60, 75)));
    assert.deepEqual(merged.entries.map(times), [[1, 0, 60, 75]]);
  });

  it('a run nobody saw leave stays open, with its latest sighting', () => {
    const merged = mergeHistory([], team(row(ANNA, 1, 0, 40, 30 /* stale */), row(BEN, 1, 20, 60)));
    // Anna's absence at 30 is before Ben's sighting at 60: Ben's window closed while it ran.
    assert.deepEqual(merged.entries, []);
    assert.equal(merged.open.length, 1);
    assert.deepEqual([merged.open[0].firstSeen - T0, merged.open[0].lastSeen - T0], [0, 60 * SEC]);
  });

  it('a run seen only by teammates says so; one this window saw does not', () => {
    const merged = mergeHistory([local(2, 0, 10, 20)], team(row(ANNA, 1, 0, 10, 20)));
    const byId = new Map(merged.entries.map((e) => [e.id, e]));
    assert.equal(byId.get(1)?.seenHere, false);
    assert.equal(byId.get(1)?.observers, 1);
    assert.equal(byId.get(2)?.seenHere, true);
  });

  it("this installation's own rows read back from the store count as seen here, once", () => {
    const merged = mergeHistory([local(1, 0, 10, 20)], team(row(SELF, 1, 0, 10, 20), row(ANNA, 1, 5, 10, 20)));
    assert.equal(merged.entries.length, 1);
    assert.equal(merged.entries[0].seenHere, true);
    assert.equal(merged.entries[0].observers, 2);
    const fromStoreOnly = mergeHistory([], team(row(SELF, 1, 0, 10, 20)));
    assert.equal(fromStoreOnly.entries[0].seenHere, true);
  });

  it('a sync that ran twice stays two runs; another created_at is another run', () => {
    const merged = mergeHistory(
      [local(1, 0, 10, 20)],
      team(row(ANNA, 1, 100, 110, 120), row(BEN, 1, 0, 15, 20, { createdAt: '2026-11-22T12:00:05.000Z' })),
    );
    assert.deepEqual(merged.entries.map(times).sort(), [
      [1, 0, 10, 20],
      [1, 0, 15, 20],
      [1, 100, 110, 120],
    ]);
  });

  it('a sighting that bridges two runs of the same sync makes them one', () => {
    const runs = team(row(ANNA, 1, 0, 10, 20), row(BEN, 1, 40, 50, 60));
    assert.equal(runs.size, 2);
    runs.add(row(SELF, 1, 15, 45, 70));
    assert.equal(runs.size, 1);
    assert.deepEqual(mergeHistory([], runs).entries.map(times), [[1, 0, 50, 60]]);
  });

  it('the same rows twice, in any order, change nothing', () => {
    const rows = [row(ANNA, 1, 0, 40, 100), row(BEN, 1, 30, 80, 90), row(ANNA, 2, 0, 5, 9)];
    const once = mergeHistory([], team(...rows));
    const twice = mergeHistory([], team(...[...rows].reverse(), ...rows));
    assert.deepEqual(twice, once);
  });

  it('keeps the name of the latest sighting, and errors seen by anyone', () => {
    const merged = mergeHistory(
      [local(1, 0, 10, 30, { flowName: 'Old name' })],
      team(row(ANNA, 1, 5, 20, 30, { flowName: 'New name', flowId: 8, hadErrors: true })),
    );
    assert.equal(merged.entries[0].flowName, 'New name');
    assert.equal(merged.entries[0].flowId, 8);
    assert.equal(merged.entries[0].hadErrors, true);
  });

  it('a run of this window that left at the instant of its last sighting stays in its History', () => {
    const merged = mergeHistory([local(1, 0, 10, 10)], team(row(ANNA, 1, 5, 20, 30)));
    assert.deepEqual(merged.entries.map(times).sort(), [
      [1, 0, 10, 10],
      [1, 5, 20, 30],
    ]);
  });

  it("keeps this window's raw item for Open as JSON", () => {
    const raw = { id: 1, flow_id: 7, errors: null };
    const merged = mergeHistory([local(1, 0, 10, 30, { raw })], team(row(ANNA, 1, 5, 20, 30)));
    assert.deepEqual(merged.entries[0].raw, raw);
  });

  it('without team rows, the local History is as it was (newest first)', () => {
    const entries = [local(3, 50, 60, 70), local(2, 0, 10, 20)];
    const merged = mergeHistory(entries, new TeamRuns(SELF));
    assert.deepEqual(
      merged.entries.map((e) => ({ ...e, seenHere: undefined, observers: undefined })),
      entries.map((e) => ({ ...e, seenHere: undefined, observers: undefined })),
    );
    assert.ok(merged.entries.every((e) => e.seenHere && e.observers === 1));
  });

  describe('bounds', () => {
    it('takes rows of at most maxObservers other installations (this one never counts), and counts the rest', () => {
      const runs = new TeamRuns(SELF, { maxRuns: 100, maxPerSync: 8, maxObservers: 2 });
      assert.ok(runs.add(row(ANNA, 1, 0, 1, 2)));
      assert.ok(runs.add(row(BEN, 2, 0, 1, 2)));
      assert.ok(runs.add(row(SELF, 3, 0, 1, 2)));
      assert.equal(runs.add(row('carl-installation', 4, 0, 1, 2)), false);
      assert.ok(runs.add(row(ANNA, 5, 0, 1, 2)));
      assert.equal(runs.refused, 1);
      assert.equal(runs.size, 4);
    });

    it('keeps at most maxRuns runs and maxPerSync runs of one sync; a row of a run it holds is still taken', () => {
      const runs = new TeamRuns(SELF, { maxRuns: 3, maxPerSync: 2, maxObservers: 5 });
      assert.ok(runs.add(row(ANNA, 1, 0, 1, 2)));
      assert.ok(runs.add(row(ANNA, 1, 10, 11, 12)));
      assert.equal(runs.add(row(ANNA, 1, 20, 21, 22)), false, 'a third run of sync 1');
      assert.ok(runs.add(row(ANNA, 2, 0, 1, 2)));
      assert.equal(runs.add(row(ANNA, 3, 0, 1, 2)), false, 'a fourth run');
      assert.ok(runs.add(row(BEN, 2, 1, 2, 3)), 'Ben saw run 2 too');
      assert.equal(runs.size, 3);
      assert.equal(runs.refused, 2);
    });

    it('at the caps (20 installations, 50,000 runs of a service, and a flood past them) a read costs a bounded amount', function () {
      this.timeout(60_000);
      const runs = new TeamRuns(SELF);
      const observers = Array.from({ length: 20 }, (_, o) => `installation-${o}-of-the-team`);
      /** The JS heap and the typed arrays' buffers (where the runs are kept). */
      const held = () => {
        (global as { gc?: () => void }).gc?.();
        const m = process.memoryUsage();
        return m.heapUsed + m.arrayBuffers;
      };
      const before = held();
      const started = Date.now();
      // Every installation saw every run (at its own times); then a 21st floods rows, and one of the 20 too.
      for (let i = 0; i < 50_000; i++) {
        for (let o = 0; o < 20; o += i < 100 ? 1 : 4) {
          runs.add(row(observers[o], i, i * 60 + o, i * 60 + 30, i * 60 + 45 + o));
        }
      }
      for (let i = 0; i < 1_000; i++) {
        assert.equal(runs.add(row('the-21st-installation', i, i * 60, i * 60 + 1, i * 60 + 2)), false);
      }
      for (let i = 50_000; i < 60_000; i++) {
        assert.equal(runs.add(row(observers[1], i, i * 60, i * 60 + 1, i * 60 + 2)), false);
      }
      const took = Date.now() - started;
      const heap = held() - before;
      assert.equal(runs.size, 50_000);
      assert.equal(runs.refused, 11_000);
      assert.ok(heap < 12 * 1024 * 1024, `${Math.round(heap / 1e6)} MB for 50,000 runs`);
      assert.ok(runs.bytes / runs.size < 100, `${runs.bytes / runs.size} bytes a run in columns`);
      assert.ok(took < 20_000, `${took} ms for 261,000 rows`);
      const merged = mergeHistory([], runs);
      assert.equal(merged.entries.length, 50_000);
      assert.ok(merged.entries.every((e) => e.observers === (e.id < 100 ? 20 : 5)));
    });

    it('takes the rows of 20 other installations and its own (each its own bit), refuses a 21st', () => {
      const runs = new TeamRuns(SELF);
      const others = Array.from({ length: 20 }, (_, o) => `installation-${o}-of-the-team`);
      for (const o of others) assert.ok(runs.add(row(o, 1, 0, 10, 20)));
      assert.ok(runs.add(row(SELF, 1, 0, 10, 20)));
      assert.equal(runs.add(row('the-21st-installation', 1, 0, 10, 20)), false);
      assert.equal(runs.add(row('the-21st-installation', 2, 0, 10, 20)), false);
      assert.ok(runs.add(row(others[19], 2, 0, 10, 20)), 'a known installation still adds runs');
      assert.deepEqual([runs.size, runs.refused], [2, 2]);
      const [one, two] = mergeHistory([], runs).entries.sort((a, b) => a.id - b.id);
      assert.deepEqual([one.observers, one.seenHere, two.observers, two.seenHere], [21, true, 1, false]);
    });

    it('refuses rows no installation writes (what readRunRow refuses), and counts them', () => {
      const runs = new TeamRuns(SELF);
      const refusedRows = [
        row(ANNA, 1, 10, 5, 20), // last seen before first seen
        row(ANNA, 1, 0, 10, 0 + MAX_RUN_MS / SEC + 1), // a span longer than MAX_RUN_MS
        row(ANNA, 1, 0, MAX_RUN_MS / SEC + 1), // the same, nobody saw it leave
        row(ANNA, 1, 0, 10, 20, { firstSeen: T0 + 0.5 }), // not a time the store holds
        row(ANNA, 1, 0, 10, 20, { lastSeen: Number.NaN }),
        row(ANNA, 2 ** 53, 0, 10, 20), // not a safe integer id
      ];
      for (const r of refusedRows) assert.equal(runs.add(r), false);
      assert.deepEqual([runs.size, runs.refused], [0, refusedRows.length]);
      assert.ok(
        runs.add(row(ANNA, 1, 0, 10, 5)),
        'a stale answer (leaving before its last sighting) is taken, as before',
      );
      assert.ok(runs.add(row(ANNA, 1, 0, MAX_RUN_MS / SEC)), 'a run of exactly MAX_RUN_MS is taken');
    });

    it('the first rows are the head of every run merged, one page or one run at a time', () => {
      const rows: TeamRun[] = [];
      for (let i = 0; i < 300; i++) {
        rows.push(row(ANNA, i % 50, i * 60, i * 60 + 30, i * 60 + 40 + (i % 7)));
        rows.push(row(BEN, i % 50, i * 60 + 5, i * 60 + 35 + (i % 11), i * 60 + 45));
      }
      const locals = Array.from({ length: 120 }, (_, k) =>
        local(k % 50, k * 150, k * 150 + 30, k * 150 + 41),
      ).reverse();
      const runs = team(...rows);
      const all = mergeHistory(locals, runs).entries;
      assert.ok(all.length > 300);
      for (const n of [0, 1, 17, 200, all.length, all.length + 5]) {
        assert.deepEqual(mergeNewest(locals, runs, n), all.slice(0, n), `${n} rows`);
      }
      const one = mergedNewestFirst(locals, runs);
      const walked: TeamEntry[] = [];
      for (let r = one.next(); !r.done; r = one.next()) walked.push(r.value);
      assert.deepEqual(walked, all);
      assert.deepEqual(mergeNewest([...locals].reverse(), runs, 50), all.slice(0, 50), 'local runs in any order');
    });

    it('forgets runs that ended before a time', () => {
      const runs = team(row(ANNA, 1, 0, 1, 2), row(ANNA, 2, 100, 101, 102));
      runs.forgetBefore(T0 + 50 * SEC);
      assert.equal(runs.size, 1);
      assert.deepEqual(
        mergeHistory([], runs).entries.map((e) => e.id),
        [2],
      );
    });
  });
});
