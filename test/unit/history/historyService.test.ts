import * as assert from 'node:assert/strict';
import { makeEntry } from '../../../src/history/entry';
import {
  HistoryCore,
  type HistoryLogStore,
  type HistoryNotice,
  type HistorySettings,
} from '../../../src/history/historyService';
import { HISTORY_CAP, originFolder } from '../../../src/history/store';
import { dayOf, logFileName, logRecord, windowTag } from '../../../src/history/log';
import { FakeClock, flushPromises } from '../helpers/fakeClock';
import { syncAt as item } from '../helpers/items';
import { LogStore } from '../../../src/history/logStore';
import { MemoryFiles } from '../helpers/memoryFiles';
import { FakeExplorer } from '../helpers/historyExplorer';

const MIN = 60_000;
const DAY = 86_400_000;
const SCOPE = 'https://flowsync.example.com';
const OTHER = 'https://other.example.com';

/** The watches of every window: one value, as globalState keeps it. */
function sharedWatches() {
  let stored: unknown;
  return { read: () => stored, write: async (all: Record<string, unknown>) => void (stored = all) };
}

interface Window {
  history: HistoryCore;
  explorer: FakeExplorer;
  notices: HistoryNotice[];
  logs: string[];
  changes: () => number;
}

describe('HistoryCore: History of one service behind its ports (plain Node, fake clock)', () => {
  let clock: FakeClock;
  let files: MemoryFiles;
  let watches: ReturnType<typeof sharedWatches>;
  let settings: HistorySettings;
  const windows: HistoryCore[] = [];

  /** A window's History over the shared files and watches; `wrap` changes what its log store does. */
  const open = (
    id: string,
    wrap: (store: HistoryLogStore) => HistoryLogStore = (s) => s,
    explorer = new FakeExplorer(clock),
  ): Window => {
    const notices: HistoryNotice[] = [];
    const logs: string[] = [];
    const history = new HistoryCore({
      explorer,
      clock,
      settings: () => settings,
      watches,
      log: { debug: () => undefined, info: (m) => logs.push(m), warn: (m) => logs.push(m) },
      notify: (notice) => notices.push(notice),
      openLog: (folder) => wrap(new LogStore({ files, folder, windowId: id, now: () => clock.now() })),
    });
    windows.push(history);
    let changes = 0;
    history.onDidChange(() => changes++);
    return { history, explorer, notices, logs, changes: () => changes };
  };
  /** The runs of another window on disk (of `scope`): `perDay` a day for `days` days, ending an hour ago. */
  const onDisk = (days: number, perDay: number, scope = SCOPE) => {
    const folder = originFolder(scope);
    let id = 5_000_000;
    for (let d = 0; d < days; d++) {
      const records: string[] = [];
      const dayEnd = clock.now() - MIN * 60 - d * DAY;
      for (let k = 0; k < perDay; k++) {
        const leftAt = dayEnd - k * 1000;
        records.push(
          logRecord(
            makeEntry({
              id: id++,
              flowId: 1 + (k % 5),
              flowName: `Flow ${1 + (k % 5)}`,
              createdAt: new Date(leftAt - 5 * MIN).toISOString(),
              firstSeen: leftAt - 4 * MIN,
              lastSeen: leftAt - 15_000,
              leftAt,
            }),
          ),
        );
      }
      files.put(`${folder}/${logFileName(dayOf(dayEnd), windowTag('busy'))}`, records.join(''));
    }
    return days * perDay;
  };

  beforeEach(() => {
    clock = new FakeClock();
    files = new MemoryFiles(() => clock.now());
    watches = sharedWatches();
    settings = { historyDays: 30, stuckAfterMinutes: 30, notifyWhenFinished: 'watched' };
  });
  afterEach(() => {
    for (const h of windows.splice(0)) h.dispose();
  });

  it('a sync absent from a later answer left processing: recorded, written, and said once when it was watched', async () => {
    const w = open('a');
    await w.history.whenReady();
    w.explorer.answer([item(11, 1, clock.now(), 3 * MIN), item(12, 2, clock.now(), MIN)]);
    await w.history.watch('sync', [11], true);
    await clock.advance(15_000);
    w.explorer.answer([item(12, 2, clock.now(), MIN)]);
    assert.deepEqual(
      w.history.snapshot.entries.map((e) => e.id),
      [11],
    );
    assert.deepEqual(
      w.notices.map((n) => n.kind),
      ['finished'],
    );
    assert.match(w.notices[0].text, /^Sync #11 \(Flow 1\) is no longer processing/);
    // what the person was told of the syncs that left: once, that text (src/notifications/vscode/historyNotices.ts)
    assert.deepEqual(
      w.notices.filter((n) => n.kind === 'finished').map((n) => n.text),
      [w.notices[0].text],
    );
    assert.equal(w.history.isWatched('sync', 11), false, 'a watch on a sync ends when it leaves');
    await w.history.flushed();
    const reader = open('b');
    await reader.history.whenReady();
    assert.deepEqual(
      reader.history.snapshot.entries.map((e) => e.id),
      [11],
      'on disk for every window',
    );
  });

  it("another window's answer is recorded here and announced there; an identical answer changes nothing", async () => {
    const w = open('a');
    await w.history.whenReady();
    await w.history.watch('sync', [21], true);
    w.explorer.answer([item(21, 1, clock.now(), MIN)]);
    const changes = w.changes();
    w.explorer.answer([item(21, 1, clock.now(), MIN)]);
    assert.equal(w.changes(), changes, 'nothing new: no change (the Processing view is not rendered again)');
    await clock.advance(15_000);
    w.explorer.answer([], { adopted: true });
    assert.deepEqual(
      w.history.snapshot.entries.map((e) => e.id),
      [21],
    );
    assert.deepEqual(w.notices, [], 'said by the window whose request saw it');
  });

  it('a sync that became stuck is said once, by the window that saw it, unless notifications are off', async () => {
    const w = open('a');
    await w.history.whenReady();
    w.explorer.answer([item(31, 1, clock.now(), 45 * MIN), item(32, 1, clock.now(), 2 * MIN)]);
    assert.deepEqual(
      w.history.stuckSyncs().map((s) => s.id),
      [31],
    );
    assert.deepEqual(w.notices, [
      {
        kind: 'stuck',
        text: 'Sync #31 (Flow 1) is stuck: it has been processing for longer than its flow allows.',
        sync: { id: 31, flowId: 1 }, // the one sync it names: its Open in Browser
        count: 1, // how many it names: a summary after an absence counts them
      },
    ]);
    await clock.advance(10 * MIN);
    w.explorer.answer([item(31, 1, clock.now(), 55 * MIN), item(32, 1, clock.now(), 12 * MIN)]);
    assert.equal(w.notices.length, 1, 'not again');

    settings = { ...settings, notifyWhenFinished: 'off' };
    const off = open('b');
    await off.history.whenReady();
    off.explorer.answer([item(33, 1, clock.now(), 45 * MIN)]);
    assert.deepEqual(off.notices, []);
    const adopted = open('c');
    settings = { ...settings, notifyWhenFinished: 'watched' };
    await adopted.history.whenReady();
    adopted.explorer.answer([item(34, 1, clock.now(), 45 * MIN)], { adopted: true });
    assert.deepEqual(adopted.notices, [], "another window's answer: said there");
  });

  it('a write that fails is said once, and the runs are written by the next poll', async () => {
    const w = open('a');
    await w.history.whenReady();
    files.fault = () => 0;
    w.explorer.answer([item(41, 1, clock.now(), MIN), item(42, 1, clock.now(), MIN)]);
    await clock.advance(15_000);
    w.explorer.answer([item(42, 1, clock.now(), MIN)]);
    await w.history.flushed();
    await clock.advance(15_000);
    w.explorer.answer([]);
    await w.history.flushed();
    assert.deepEqual(
      w.notices.map((n) => n.kind),
      ['cannotWrite'],
      'told once',
    );
    assert.match(w.notices[0].text, /^History cannot be written to disk \(ENOSPC\)/);
    files.fault = undefined;
    await clock.advance(15_000);
    w.explorer.answer([]);
    await w.history.flushed();
    const reader = open('b');
    await reader.history.whenReady();
    assert.deepEqual(
      reader.history.snapshot.entries.map((e) => e.id),
      [42, 41],
      'both runs on disk',
    );
  });

  it('watches are one set for every window: one set in another window counts from the next answer, never written over', async () => {
    const [a, b] = [open('a'), open('b')];
    await Promise.all([a.history.whenReady(), b.history.whenReady()]);
    await a.history.watch('sync', [51], true);
    assert.equal(b.history.isWatched('sync', 51), false, 'not before its next answer');
    b.explorer.answer([item(52, 1, clock.now(), MIN)]);
    assert.equal(b.history.isWatched('sync', 51), true);
    await b.history.watch('flow', [7], true);
    a.explorer.answer([]);
    for (const w of [a, b]) {
      assert.equal(w.history.isWatched('sync', 51), true, 'not written over');
      assert.equal(w.history.isWatched('flow', 7), true);
    }
  });

  it("the watches' version changes with every change of the watches (what a filter's is:watched is kept again on)", async () => {
    const [a, b] = [open('a'), open('b')];
    await Promise.all([a.history.whenReady(), b.history.whenReady()]);
    const seen = [b.history.watchesVersion];
    const changed = (why: string) => {
      assert.ok(!seen.includes(b.history.watchesVersion), why);
      seen.push(b.history.watchesVersion);
    };
    await b.history.watch('sync', [51], true);
    changed('watched here');
    await b.history.watch('sync', [51], false);
    changed('unwatched here');
    b.explorer.answer([]);
    assert.equal(b.history.watchesVersion, seen.at(-1), 'an answer without a change of the watches: the same');
    await a.history.watch('flow', [7], true);
    clock.pass(15_000);
    b.explorer.answer([item(52, 1, clock.now(), MIN)]);
    changed("another window's watch, taken with the next answer");
    b.explorer.rescope(OTHER);
    changed('another scope: its watches');
  });

  it('Clear History clears every window, also what they hold: a cleared run never comes back', async () => {
    const [a, b] = [open('a'), open('b')];
    await Promise.all([a.history.whenReady(), b.history.whenReady()]);
    for (const w of [a, b]) w.explorer.answer([item(61, 1, clock.now(), MIN)]);
    await clock.advance(15_000);
    for (const w of [a, b]) w.explorer.answer([]);
    await Promise.all([a.history.flushed(), b.history.flushed()]);
    await a.history.clear();
    assert.equal(a.history.snapshot.entries.length, 0);
    await clock.advance(15_000);
    await b.history.reload();
    assert.equal(b.history.snapshot.entries.length, 0, 'b honours the marker');
    const c = open('c');
    await c.history.whenReady();
    assert.equal(c.history.snapshot.entries.length, 0);
  });

  it("a read that ends after the scope changed is dropped: the new scope never shows the old one's runs", async () => {
    const total = onDisk(1, 50);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const w = open('a', (store) => ({
      ...bind(store),
      read: async (days, limit) => {
        const result = await store.read(days, limit);
        await held;
        return result;
      },
    }));
    await flushPromises();
    w.explorer.rescope('https://other.example.com');
    release();
    await w.history.flushed();
    assert.equal(w.history.snapshot.origin, 'https://other.example.com');
    assert.equal(w.history.snapshot.entries.length, 0, `none of the ${total} runs of the first scope`);
    w.explorer.rescope(SCOPE);
    await w.history.whenReady();
    assert.equal(w.history.snapshot.entries.length, total, 'read again when it is the scope again');
  });

  it("a read whose Clear marker arrives after the scope changed is dropped: the new scope never shows the old one's runs", async () => {
    const total = onDisk(1, 50);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let markerAsked = false;
    const w = open('a', (store) => ({
      ...bind(store),
      cleared: async () => {
        markerAsked = true;
        const at = await store.cleared();
        await held;
        return at;
      },
    }));
    await flushPromises();
    assert.ok(markerAsked, 'the first read is done; its Clear marker is being read');
    w.explorer.rescope(OTHER);
    release();
    await w.history.flushed();
    assert.equal(w.history.snapshot.origin, OTHER);
    assert.equal(w.history.snapshot.entries.length, 0, `none of the ${total} runs of the first scope`);
  });

  it("a write whose Clear marker arrives after the scope changed: the old scope's marker never drops the new scope's runs", async () => {
    const total = onDisk(1, 50, OTHER); // left an hour ago
    const other = open('x');
    await other.history.whenReady();
    await other.history.clear(); // the first scope's marker: now, after those runs left
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let appending = false;
    const w = open('a', (store) => ({
      ...bind(store),
      append: async (...args) => {
        appending = true;
        await held;
        return store.append(...args);
      },
    }));
    await w.history.whenReady();
    w.explorer.answer([item(71, 1, clock.now(), MIN)]);
    await clock.advance(15_000);
    w.explorer.answer([]);
    await flushPromises();
    assert.ok(appending, 'the run that left is being written');
    w.explorer.rescope(OTHER);
    await w.history.whenReady();
    assert.equal(w.history.snapshot.entries.length, total);
    release();
    await w.history.flushed();
    await flushPromises();
    assert.equal(w.history.snapshot.origin, OTHER);
    assert.equal(w.history.snapshot.entries.length, total, "the new scope's runs are kept");
  });

  it("a Clear that ends after the scope changed clears the files it was asked for, never the new scope's runs", async () => {
    const total = onDisk(1, 50, OTHER);
    onDisk(1, 20);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const w = open('a', (store) => ({
      ...bind(store),
      clear: async () => {
        await held;
        return store.clear();
      },
    }));
    await w.history.whenReady();
    assert.equal(w.history.snapshot.entries.length, 20);
    const clearing = w.history.clear();
    await flushPromises();
    w.explorer.rescope(OTHER);
    await w.history.whenReady();
    assert.equal(w.history.snapshot.entries.length, total);
    release();
    await clearing;
    await w.history.flushed();
    assert.equal(w.history.snapshot.origin, OTHER);
    assert.equal(w.history.snapshot.entries.length, total, "the new scope's runs are kept");
    const reader = open('b');
    await reader.history.whenReady();
    assert.equal(reader.history.snapshot.entries.length, 0, 'the first scope is cleared, as asked');
  });

  it('a service removed while its History reads: nothing more is read, summarized or pruned, and nothing changes', async () => {
    onDisk(21, 500); // more than the first read: older days would be read and summarized
    settings = { ...settings, userHistoryDays: 30 };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const calls: string[] = [];
    const w = open('a', (store) => ({
      ...bind(store),
      read: async (days, limit) => {
        calls.push('read');
        const result = await store.read(days, limit);
        await held;
        return result;
      },
      summaries: async (...args) => {
        calls.push('summaries');
        return store.summaries(...args);
      },
      pruneDisk: async (days) => {
        calls.push('pruneDisk');
        return store.pruneDisk(days);
      },
      cleared: async () => {
        calls.push('cleared');
        return store.cleared();
      },
    }));
    await flushPromises();
    assert.deepEqual(calls, ['read']);
    const changes = w.changes();
    w.history.dispose();
    release();
    await w.history.flushed();
    await clock.advance(1000);
    assert.deepEqual(calls, ['read'], 'nothing asked of the store after the read that was under way');
    assert.equal(w.history.snapshot.entries.length, 0, 'its answer is dropped');
    assert.equal(w.changes(), changes);
  });

  it('a service removed while its History writes: the runs that left before are written, nothing is asked after', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const calls: string[] = [];
    const w = open('a', (store) => ({
      ...bind(store),
      append: async (...args) => {
        calls.push('append');
        await held;
        return store.append(...args);
      },
      cleared: async () => {
        calls.push('cleared');
        return store.cleared();
      },
    }));
    await w.history.whenReady();
    calls.length = 0;
    w.explorer.answer([item(81, 1, clock.now(), MIN)]);
    await clock.advance(15_000);
    w.explorer.answer([]);
    await flushPromises();
    assert.deepEqual(calls, ['append']);
    w.history.dispose();
    release();
    await w.history.flushed();
    assert.deepEqual(calls, ['append'], 'no Clear marker read after it');
    const reader = open('b');
    await reader.history.whenReady();
    assert.deepEqual(
      reader.history.snapshot.entries.map((e) => e.id),
      [81],
      'the run that left before is on disk',
    );
  });

  it('reload() resolves with every run on disk, also while the older days of the first load are still being read (cd32484)', async () => {
    // More than the first read (10,000 runs: the newest days, History ready), so older days are read in the
    // background. Hold back that read's answer after it has read its files, as a busy machine may: a reload() meanwhile
    // finds nothing new in those files (the store hands out each run once), and must not resolve before that answer
    // is merged.
    const total = onDisk(21, 500);
    let backgroundReads = 0;
    const w = open('reader', (store) => ({
      ...bind(store),
      read: async (days, limit) => {
        const result = await store.read(days, limit);
        if (limit === HISTORY_CAP && backgroundReads++ === 0) await new Promise<void>((r) => clock.setTimeout(r, 400));
        return result;
      },
    }));
    await w.history.whenReady();
    assert.ok(w.history.snapshot.entries.length < total, 'the first read holds the newest days');
    await flushPromises(); // the background read has read its files; its answer waits
    const reloaded = w.history.reload().then(() => w.history.snapshot.entries.length);
    await clock.advance(400);
    assert.equal(await reloaded, total, 'every run on disk, once reload() has resolved');
  });
});

/** A log store's methods, bound to it (to replace one of them). */
function bind(store: HistoryLogStore): HistoryLogStore {
  return {
    cleared: () => store.cleared(),
    append: (...args) => store.append(...args),
    read: (...args) => store.read(...args),
    summaries: (...args) => store.summaries(...args),
    pruneDisk: (...args) => store.pruneDisk(...args),
    clear: () => store.clear(),
  };
}
