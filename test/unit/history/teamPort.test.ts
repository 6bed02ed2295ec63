import * as assert from 'node:assert/strict';
import { Emitter } from '../../../src/base/events';
import { makeEntry, type HistoryEntry } from '../../../src/history/entry';
import { HistoryCore, type HistoryNotice } from '../../../src/history/historyService';
import { LogStore } from '../../../src/history/logStore';
import { TeamSlot, type TeamHistoryPort, type TeamObservation, type TeamReader } from '../../../src/history/teamPort';
import { FakeClock } from '../helpers/fakeClock';
import { syncAt as item } from '../helpers/items';
import { MemoryFiles } from '../helpers/memoryFiles';
import { FakeExplorer } from '../helpers/historyExplorer';

/*
 * The merge point: HistoryCore hands every reader (the views' snapshot, stats and stuck, the tools' reads, the
 * sparkline, Insights) this window's runs merged with the team's while a store is connected; the notifications come
 * only from what this window saw, and only the window that polled sends what it observed.
 */

const MIN = 60_000;

/** A port with the team's runs: another installation's run of flow 1 that took 20 minutes. */
class Port implements TeamHistoryPort {
  readonly observations: TeamObservation[] = [];
  readonly changes = new Emitter<void>();
  readonly onDidChange = this.changes.event;
  team: HistoryEntry[] = [];
  /** Merges made (each a walk over every run). */
  walks = 0;
  version() {
    return this.team.length ? this.team.map((e) => e.id).join(',') : undefined;
  }
  newestFirst(_reader: TeamReader, local: readonly HistoryEntry[]) {
    if (!this.team.length) return undefined;
    this.walks++;
    const merged = [...local, ...this.team.map((e) => ({ ...e, seenHere: false, observers: 1 }))].sort(
      (a, b) => b.leftAt - a.leftAt,
    );
    return merged[Symbol.iterator]() as Iterator<HistoryEntry, undefined>;
  }
  observed(_reader: TeamReader, o: TeamObservation) {
    this.observations.push(o);
  }
  unwatched() {
    return [];
  }
  summary() {
    return { status: 'team History: connected to x', watchedToday: 2 };
  }
}

describe('HistoryCore and team History: one History for every reader', () => {
  let clock: FakeClock;
  let history: HistoryCore;
  let explorer: FakeExplorer;
  let slot: TeamSlot;
  let port: Port;
  let notices: HistoryNotice[];
  let shared: boolean;
  let files: MemoryFiles;
  let logFolder: string;

  beforeEach(async () => {
    clock = new FakeClock();
    explorer = new FakeExplorer(clock);
    slot = new TeamSlot();
    port = new Port();
    notices = [];
    shared = true;
    files = new MemoryFiles(() => clock.now());
    history = new HistoryCore({
      explorer,
      clock,
      settings: () => ({ historyDays: 30, stuckAfterMinutes: 30, notifyWhenFinished: 'all' }),
      watches: { read: () => undefined, write: async () => undefined },
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
      notify: (n) => notices.push(n),
      openLog: (folder) => new LogStore({ files, folder: (logFolder = folder), windowId: 'a', now: () => clock.now() }),
      team: { slot, shared: () => shared },
    });
    await history.whenReady();
  });
  afterEach(() => history.dispose());

  const teamRun = (id: number, minutesAgo: number) =>
    makeEntry({
      id,
      flowId: 1,
      flowName: 'Flow 1',
      createdAt: new Date(clock.now() - (minutesAgo + 20) * MIN).toISOString(),
      firstSeen: clock.now() - (minutesAgo + 19) * MIN,
      lastSeen: clock.now() - minutesAgo * MIN - 15_000,
      leftAt: clock.now() - minutesAgo * MIN,
    });

  it("without a store, History is this window's; once connected, every reader sees the team's runs too", async () => {
    explorer.answer([item(11, 1, clock.now(), 3 * MIN)]);
    await clock.advance(15_000);
    explorer.answer([]);
    assert.deepEqual(
      history.snapshot.entries.map((e) => e.id),
      [11],
    );
    port.team = [teamRun(90, 30), teamRun(91, 60)];
    let changes = 0;
    history.onDidChange(() => changes++);
    slot.use(port);
    assert.ok(changes > 0, 'the views render again when the store connects');
    assert.deepEqual(
      history.snapshot.entries.map((e) => e.id),
      [11, 90, 91],
    );
    assert.deepEqual(
      history.reads.entries().map((e) => e.id),
      [11, 90, 91],
      'the tools and Export',
    );
    assert.equal(history.snapshot.stats.get(1)?.runs, 3, '"usually done" and stuck learn from the team\'s runs too');
    assert.equal(history.lastItem(90, port.team[0].leftAt), undefined);
    port.team.push(teamRun(92, 90));
    port.changes.fire();
    assert.deepEqual(
      history.snapshot.entries.map((e) => e.id),
      [11, 90, 91, 92],
      'a change of the team is seen at once',
    );
    slot.use(undefined);
    assert.deepEqual(
      history.snapshot.entries.map((e) => e.id),
      [11],
      "disconnected: this window's History again",
    );
  });

  it("a change of the team's status, not of this service's runs, merges nothing again", async () => {
    port.team = [teamRun(90, 30), teamRun(91, 60)];
    slot.use(port);
    assert.deepEqual(
      history.snapshot.entries.map((e) => e.id),
      [90, 91],
    );
    await clock.advance(0);
    const walks = port.walks;
    let changes = 0;
    history.onDidChange(() => changes++);
    port.changes.fire(); // e.g. connected, or another service's runs read
    assert.equal(changes, 1, 'the views render again (the tooltip says the status)');
    history.snapshot.stats.get(1);
    history.stuckThreshold(1);
    assert.deepEqual(
      history.snapshot.entries.map((e) => e.id),
      [90, 91],
    );
    await clock.advance(0);
    assert.equal(port.walks, walks);
  });

  it("the notifications still come only from what this window saw, never from a teammate's run", async () => {
    slot.use(port);
    port.team = [teamRun(90, 1)];
    port.changes.fire();
    assert.equal(notices.length, 0);
    explorer.answer([item(11, 1, clock.now(), 3 * MIN)]);
    await clock.advance(15_000);
    explorer.answer([]);
    assert.deepEqual(notices.filter((n) => n.kind === 'finished').length, 1);
    assert.match(notices[0].text, /#11/);
  });

  it('only the window that polled sends what it observed; a service not shared is neither sent nor merged', async () => {
    slot.use(port);
    explorer.answer([item(11, 1, clock.now(), 3 * MIN)]);
    await clock.advance(15_000);
    explorer.answer([], { adopted: true }); // another window's answer, adopted here
    assert.equal(port.observations.length, 1, 'the first answer, polled here');
    await clock.advance(15_000);
    explorer.answer([item(12, 1, clock.now(), MIN)]);
    assert.equal(port.observations.length, 2);
    assert.deepEqual(
      port.observations[1].open().map((o) => [o.id, o.flowName]),
      [[12, 'Flow 1']],
    );
    shared = false;
    port.team = [teamRun(90, 30)];
    port.changes.fire();
    await clock.advance(15_000);
    explorer.answer([]);
    assert.equal(port.observations.length, 2);
    assert.deepEqual(
      history.snapshot.entries.map((e) => e.id),
      [12, 11],
    );
  });

  it('a poll with departures while merged: the view keeps every run of the last merge until the new one is made', async () => {
    port.team = Array.from({ length: 300 }, (_, i) => teamRun(1000 + i, 10 + i));
    slot.use(port);
    await clock.advance(0);
    assert.deepEqual(
      [history.viewRows().entries.length, history.viewRows().complete],
      [300, true],
      'the merge is made: every run',
    );
    const seen: Array<[number, boolean]> = [];
    history.onDidChange(() => seen.push([history.viewRows().entries.length, history.viewRows().complete]));
    explorer.answer([item(11, 1, clock.now(), 3 * MIN)]);
    await clock.advance(15_000);
    explorer.answer([]); // #11 left: this window's runs changed, a new merge is made a step at a time
    const stale = history.viewRows();
    assert.deepEqual(
      [stale.entries.length, stale.complete],
      [300, true],
      'while the new merge is made: the last one, every run (never the first page, "200+ syncs")',
    );
    await clock.advance(0);
    const rows = history.viewRows();
    assert.deepEqual([rows.entries.length, rows.complete], [301, true]);
    assert.equal(rows.entries[0].id, 11);
    assert.ok(
      seen.every(([count, complete]) => count >= 300 && complete),
      `every change drew every run: ${JSON.stringify(seen)}`,
    );
    port.team = [...port.team, teamRun(2000, 5)];
    port.changes.fire(); // the team's runs changed: the same
    assert.deepEqual([history.viewRows().entries.length, history.viewRows().complete], [301, true]);
    await clock.advance(0);
    assert.deepEqual([history.viewRows().entries.length, history.viewRows().complete], [302, true]);
  });

  it('a new scope shows the first page of its merge until it is made (no merge of its own yet)', async () => {
    port.team = Array.from({ length: 300 }, (_, i) => teamRun(1000 + i, 10 + i));
    slot.use(port);
    await clock.advance(0);
    explorer.rescope('https://other.example.com');
    await history.whenReady();
    const first = history.viewRows();
    assert.deepEqual([first.entries.length, first.complete], [200, false], "never the other scope's runs");
    await clock.advance(0);
    assert.deepEqual([history.viewRows().entries.length, history.viewRows().complete], [300, true]);
  });

  /** #11 left here, a teammate's #90 read, and the merge made: what is drawn on every change counts both. */
  async function mergedWithOwnRun(): Promise<void> {
    port.team = [teamRun(90, 30)];
    slot.use(port);
    explorer.answer([item(11, 1, clock.now(), 3 * MIN)]);
    await clock.advance(15_000);
    explorer.answer([]);
    await history.flushed();
    await clock.advance(0);
    assert.deepEqual(
      history.settledEntries().map((e) => e.id),
      [11, 90],
    );
    assert.equal(history.snapshot.stats.get(1)?.runs, 2);
  }

  it('Clear History: stats, the sparkline and the pinned flows count the cleared runs no more, at once', async () => {
    await mergedWithOwnRun();
    await history.clear();
    assert.ok(
      !history.settledEntries().some((e) => e.id === 11),
      `the cleared run is still counted until the new merge ends: ${history.settledEntries().map((e) => e.id)}`,
    );
    assert.notEqual(history.snapshot.stats.get(1)?.runs, 2, '"usually done" and stuck forget it too');
    await clock.advance(0);
    assert.deepEqual(
      history.settledEntries().map((e) => e.id),
      [90],
      "the new merge: the team's runs, without the cleared one",
    );
    assert.equal(history.snapshot.stats.get(1)?.runs, 1);
  });

  it('a clear from another window: the cleared runs are counted no more once it is read', async () => {
    await mergedWithOwnRun();
    clock.pass(MIN);
    await new LogStore({ files, folder: logFolder, windowId: 'b', now: () => clock.now() }).clear();
    await history.reload();
    assert.ok(
      !history.settledEntries().some((e) => e.id === 11),
      `the cleared run is still counted until the new merge ends: ${history.settledEntries().map((e) => e.id)}`,
    );
    await clock.advance(0);
    assert.deepEqual(
      history.settledEntries().map((e) => e.id),
      [90],
    );
  });

  it('a service whose entry comes to say "teamHistory": false shows only its own runs at once', async () => {
    port.team = [teamRun(90, 30)];
    slot.use(port);
    assert.deepEqual(
      history.snapshot.entries.map((e) => e.id),
      [90],
    );
    shared = false; // the entry changed (its target retargeted): no change of the team's runs
    assert.deepEqual(
      history.snapshot.entries.map((e) => e.id),
      [],
    );
  });
});
