import * as assert from 'node:assert/strict';
import type { HistoryEntry } from '../../../src/history/entry';
import { LogStore } from '../../../src/history/logStore';
import { TeamSlot } from '../../../src/history/teamPort';
import { mergeHistory, TeamRuns } from '../../../src/teamHistory/merge';
import { TeamSession } from '../../../src/teamHistory/teamSession';
import type { TeamRun } from '../../../src/teamHistory/teamRows';
import type { TeamPage, Watermark } from '../../../src/teamHistory/teamStore';
import { FakeClock } from '../helpers/fakeClock';
import type { FakeExplorer } from '../helpers/historyExplorer';
import { MemoryFiles } from '../helpers/memoryFiles';
import { joinedHistories } from '../helpers/teamHistories';
import { teamRunAt } from '../helpers/teamRuns';

/*
 * The product path of the merged History: the Histories of several services joined to one window's TeamSlot, the
 * TeamSession reading a store in memory. What a change of the team's runs of one service costs the others, and what
 * the readers see, on the fake clock.
 */

const SEC = 1000;
const MIN = 60 * SEC;
const ANNA = 'anna-installation-1';
const SELF = 'self-installation-1';
const SERVICES = ['https://a.example.com', 'https://b.example.com', 'https://c.example.com'];

/** A store in memory whose rows arrive over time: each read returns the rows added since the last. */
class GrowingStore {
  private rows: TeamRun[] = [];
  private readUpTo = 0;
  async open() {
    return { version: 1, readOnly: undefined };
  }
  async write() {
    return { runs: 0, spans: 0 };
  }
  async read(): Promise<TeamPage> {
    const runs = this.rows.slice(this.readUpTo);
    this.readUpTo = this.rows.length;
    const mark = { tx: String(this.readUpTo), row: '0' };
    const watermark: Watermark = { runs: mark, spans: mark };
    return { runs, spans: [], refused: 0, watermark, more: false };
  }
  async deleteOwnBefore() {
    return { runs: 0, spans: 0 };
  }
  async close() {}
  add(rows: TeamRun[]) {
    this.rows.push(...rows);
  }
}

/** Counts the walks over each service's team runs (every merge starts with one: TeamRuns.newestFirst). */
function countWalks(): { of(team: TeamRuns): number; total(): number; dispose(): void } {
  const counts = new Map<TeamRuns, number>();
  const original = TeamRuns.prototype.newestFirst;
  TeamRuns.prototype.newestFirst = function (this: TeamRuns) {
    counts.set(this, (counts.get(this) ?? 0) + 1);
    return original.call(this);
  };
  return {
    of: (team) => counts.get(team) ?? 0,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    dispose: () => (TeamRuns.prototype.newestFirst = original),
  };
}

function setUp() {
  const clock = new FakeClock();
  const store = new GrowingStore();
  const slot = new TeamSlot();
  const files = new MemoryFiles(() => clock.now());
  const histories = joinedHistories(
    clock,
    slot,
    SERVICES,
    (_, folder) => new LogStore({ files, folder, windowId: 'a', now: () => clock.now() }),
  );
  const session = new TeamSession({
    store,
    observer: SELF,
    clock,
    random: () => 0.5,
    readers: () => slot.readers(),
    retention: { last: () => clock.now(), ran: () => undefined },
    pollIntervalMs: () => 30 * SEC,
    historyDays: () => 30,
    label: 'flowsync@db.example.com:5432/history',
    log: () => undefined,
  });
  slot.use(session);
  /** `count` runs of a service that Anna saw leave, a minute apart, the newest `minutesAgo`. */
  const runsOf = (service: number, first: number, count: number, minutesAgo = 1) =>
    Array.from({ length: count }, (_, i) =>
      teamRunAt(SERVICES[service], ANNA, first + i, clock.now() - (minutesAgo + i) * MIN),
    );
  return { clock, store, slot, session, histories, runsOf };
}

/** Runs `test` on a fresh setUp() whose Histories have read their files; disposes them and closes the session after. */
async function withTeam(test: (s: ReturnType<typeof setUp>) => Promise<void>): Promise<void> {
  const s = setUp();
  try {
    await Promise.all(s.histories.map((h) => h.whenReady()));
    await test(s);
  } finally {
    s.histories.forEach((h) => h.dispose());
    await s.session.close();
  }
}

describe('teamHistory: the merged History of several services through the TeamSlot', () => {
  it("a change of one service's team runs merges that service again, never the others", () =>
    withTeam(async (s) => {
      s.store.add(SERVICES.flatMap((_, i) => s.runsOf(i, 1000 * (i + 1), 30)));
      s.session.start();
      await s.clock.advance(2 * SEC);
      // The views render (the rows' tints read the stats); the background steps run.
      s.histories.forEach((h) => h.snapshot.stats);
      await s.clock.advance(SEC);
      assert.deepEqual(
        s.histories.map((h) => h.snapshot.entries.length),
        [30, 30, 30],
      );
      const walks = countWalks();
      try {
        s.store.add(s.runsOf(1, 5000, 1, 0)); // one new run of service b
        await s.clock.advance(30 * SEC); // the next read
        s.histories.forEach((h) => h.snapshot.stats);
        s.histories.forEach((h) => h.stuckThreshold(7));
        await s.clock.advance(SEC);
        assert.deepEqual(
          s.histories.map((h) => h.snapshot.entries.length),
          [30, 31, 30],
        );
        assert.equal(walks.total(), 1, 'one walk: service b only');
      } finally {
        walks.dispose();
      }
    }));

  it("a History moved to another service never counts the last service's merge while the new one is made", () =>
    withTeam(async (s) => {
      // Service a: 600 runs of flow 7 that took 9 minutes; service b: 40 runs of flow 7 that took an hour.
      s.store.add(s.runsOf(0, 1000, 600));
      s.store.add(
        Array.from({ length: 40 }, (_, i) =>
          teamRunAt(SERVICES[1], ANNA, 9000 + i, s.clock.now() - (i + 1) * MIN, {
            createdAt: new Date(s.clock.now() - (i + 62) * MIN).toISOString(),
            firstSeen: s.clock.now() - (i + 61) * MIN,
          }),
        ),
      );
      s.session.start();
      await s.clock.advance(2 * SEC);
      const history = s.histories[0];
      history.stuckThreshold(7); // a render reads the stats: the background steps run
      await s.clock.advance(SEC);
      assert.equal(history.snapshot.stats.get(7)?.runs, 600);
      // The service entry's URL becomes b's: History follows the scope (its reader, b's team runs).
      const explorer = (history as unknown as { ports: { explorer: FakeExplorer } }).ports.explorer;
      explorer.serviceKey = SERVICES[1];
      explorer.rescope(SERVICES[1]);
      assert.ok(
        history.settledEntries().every((e) => e.id >= 9000),
        "the sparkline and pinned flows read a's runs as b's",
      );
      assert.notEqual(history.snapshot.stats.get(7)?.runs, 600, "b's stuck threshold and 'usually done' from a's runs");
      await s.clock.advance(SEC);
      assert.equal(history.snapshot.stats.get(7)?.runs, 40);
      assert.ok(history.settledEntries().every((e) => e.id >= 9000));
    }));

  it("two services' team runs never say the same version (a reader moved from one to the other merges again)", () =>
    withTeam(async (s) => {
      // As many runs of a as of b, read at once: their TeamRuns made as many changes.
      s.store.add([...s.runsOf(0, 1000, 30), ...s.runsOf(1, 2000, 30)]);
      s.session.start();
      await s.clock.advance(2 * SEC);
      const [a, b] = s.slot.readers();
      assert.ok(s.slot.version(a) !== undefined && s.slot.version(b) !== undefined);
      assert.notEqual(s.slot.version(a), s.slot.version(b));
    }));

  it("the History view's first page is the head of every run merged, made without merging every run", () =>
    withTeam(async (s) => {
      const rows = s.runsOf(0, 1000, 600);
      s.store.add(rows);
      s.session.start();
      const walks = countWalks();
      try {
        const history = s.histories[0];
        const seen: { entries: readonly HistoryEntry[]; complete: boolean }[] = [];
        // What the view draws on each change: the first when the team's runs arrive, the next when every run is merged.
        history.onDidChange(() => seen.push(history.viewRows(200)));
        await s.clock.advance(2 * SEC);
        // (Before the rows, the status changed: connected; History was told, with nothing to merge.)
        const shown = seen.filter((rows) => rows.entries.length > 0);
        assert.deepEqual(
          shown.map((rows) => [rows.entries.length, rows.complete]),
          [
            [200, false],
            [600, true],
          ],
        );
        const [first, done] = shown;
        assert.equal(first.entries.length, 200);
        assert.equal(first.complete, false, 'the rest is merged a step at a time, after the first rows');
        assert.equal(walks.total(), 1, 'one walk for the page and the rest');
        const team = new TeamRuns(SELF);
        for (const run of rows) team.add(run);
        const whole = mergeHistory([], team).entries;
        assert.deepEqual(
          first.entries.map((e) => [e.id, e.leftAt]),
          whole.slice(0, 200).map((e) => [e.id, e.leftAt]),
        );
        assert.equal(done.complete, true);
        assert.deepEqual(
          done.entries.map((e) => [e.id, e.leftAt]),
          whole.map((e) => [e.id, e.leftAt]),
        );
      } finally {
        walks.dispose();
      }
    }));
});
