/** History (issue #12) in the real extension host: leaving processing, the view, watches, stuck, storage, commands. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FlowSyncExplorerApi } from '../../src/extension';
import type { MockFlowSyncServer } from '../../src/mock/server';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { systemClock } from '../../src/base/clock';
import { DURATION_STEPS, flowStats, makeEntry, type HistoryEntry } from '../../src/history/index';
import { HISTORY_CAP, originFolder, segmentFileName } from '../../src/history/store';
import { dayOf, logFileName, logRecord, windowTag } from '../../src/history/log';
import { HistoryService } from '../../src/history/vscode/historyService';
import { LogStore } from '../../src/history/logStore';
import { TEST_KEY, connect, processingLeaf, startMockApi, testApi, waitFor, setUserSetting } from './helpers';

const NOW = () => Date.now();
const sync = (id: number, flowId: number, minutesAgo: number) => ({
  id,
  flow_id: flowId,
  status: 'pending',
  created_at: new Date(NOW() - minutesAgo * 60_000).toISOString(),
  updated_at: new Date(NOW()).toISOString(),
  errors: null,
  webhook: false,
  flow: { id: flowId, name: `Flow ${flowId}` },
});

const announcementsOf = new WeakMap<object, string[]>();

/**
 * The texts of `history`'s notices of syncs that left (kind 'finished'), in order, read through its public onDidNotify
 * (what src/notifications/vscode/historyNotices.ts shows): kept from the first time a test asks on.
 */
function announcements(history: Pick<HistoryService, 'onDidNotify'>): readonly string[] {
  let texts = announcementsOf.get(history);
  if (!texts) {
    const kept: string[] = [];
    history.onDidNotify((notice) => {
      if (notice.kind === 'finished') kept.push(notice.text);
    });
    announcementsOf.set(history, (texts = kept));
  }
  return texts;
}

/** The folder of the first service's History scope in the extension's global storage: its day files and summaries. */
function historyFolder(x: FlowSyncExplorerApi): vscode.Uri | undefined {
  const origin = x.history.snapshot.origin;
  return origin ? vscode.Uri.joinPath(x.storage, 'history', originFolder(origin)) : undefined;
}

describe('History: syncs that left processing, watches, stuck, storage', function () {
  this.timeout(60_000);
  let mock: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  const answer = async (items: object[] | 'fail') => {
    mock.clearFaults();
    mock.inject(
      items === 'fail'
        ? { endpoint: 'processing', status: 500, body: '' }
        : { endpoint: 'processing', status: 200, body: JSON.stringify(items) },
    );
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
  };
  const leaf = (id: number) => processingLeaf(x, id);

  before(async () => {
    mock = await startMockApi({ apiKey: TEST_KEY });
    x = await testApi();
    await setUserSetting('autoRefresh', false);
  });

  beforeEach(async () => {
    await connect(x, mock);
    // Start from nothing processing and no history: what was processing before leaves now, then is cleared.
    await answer([]);
    await x.history.flushed();
    await x.history.clear();
  });

  after(async () => {
    mock.clearFaults();
    for (const key of ['autoRefresh', 'stuckAfterMinutes', 'notifyWhenFinished', 'baseUrl']) {
      await setUserSetting(key, undefined);
    }
    await x.history.clear();
    await x.reconfigure();
    await mock.close();
  });

  it('a sync absent from a later answer left processing: one History row, one notification for a watched sync, never "succeeded"', async () => {
    await answer([sync(900_001, 1, 12), sync(900_002, 2, 3)]);
    await vscode.commands.executeCommand('flowsync.watch', leaf(900_001));
    assert.ok(x.history.isWatched('sync', 900_001));
    assert.match(String(x.views.processing.tree.getTreeItem(leaf(900_001)).description), /watched/);
    const announced = announcements(x.history).length;
    await answer('fail'); // a failed answer between two good ones writes nothing
    assert.equal(x.history.snapshot.entries.length, 0);
    await answer([sync(900_002, 2, 3)]);
    const entries = x.history.snapshot.entries;
    assert.deepEqual(
      entries.map((e) => e.id),
      [900_001],
    );
    assert.equal(announcements(x.history).length - announced, 1, 'one notification');
    assert.match(
      announcements(x.history).at(-1)!,
      /^Sync #900001 \(Flow 1\) is no longer processing, after about 1[23] min\.$/,
    );
    assert.equal(x.history.isWatched('sync', 900_001), false, 'a watch on a sync ends when it leaves');

    const [day] = await x.historyView.getChildren();
    assert.equal((await x.historyView.getTreeItem(day)).label, 'Today');
    const [row] = await x.historyView.getChildren(day);
    const item = await x.historyView.getTreeItem(row);
    assert.equal(item.label, 'Flow 1');
    assert.match(String(item.description), /^#900001 · ran about 1[23] min · (just now|\d+ s ago)$/);
    assert.doesNotMatch(`${item.label} ${item.description}`, /succeeded|failed/);
    const tooltip = (await x.historyView.resolveTreeItem(item, row)).tooltip as vscode.MarkdownString;
    assert.match(tooltip.value, /First seen processing.*Last seen processing.*No longer processing/s);

    await vscode.commands.executeCommand('flowsync.openJson', row);
    assert.equal(
      (JSON.parse(vscode.window.activeTextEditor!.document.getText()) as { id: number }).id,
      900_001,
      'Open as JSON shows the last item seen',
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.commands.executeCommand('flowsync.copyId', row);
    assert.equal(await vscode.env.clipboard.readText(), '900001');
  });

  it("one answer renders the Processing view once: History's marks change with it and are drawn with it", async () => {
    await answer([sync(900_051, 7, 4), sync(900_052, 8, 2)]);
    assert.ok(leaf(900_051), 'the rows are read, as VS Code reads them');
    let renders = 0;
    const subscription = x.views.processing.tree.onDidChangeTreeData(() => renders++);
    try {
      await answer([sync(900_052, 8, 2)]); // 900051 leaves: History learns it from this answer
      await new Promise((resolve) => setTimeout(resolve, 100)); // the marks are drawn at the end of the answer's turn
      assert.deepEqual(
        x.history.snapshot.entries.map((e) => e.id),
        [900_051],
      );
      assert.equal(renders, 1, 'one answer, one render');
    } finally {
      subscription.dispose();
    }
  });

  it('a sync whose data holds the API key (a service echoing it) is in History here, but never written to disk', async () => {
    const leaky = { ...sync(900_021, 21, 5), status: `pending ${TEST_KEY}` };
    await answer([leaky, sync(900_022, 22, 5)]);
    await answer([]); // both leave: 900022 is written, 900021 is not
    await x.history.flushed();
    assert.ok(
      x.history.snapshot.entries.some((e) => e.id === 900_021),
      'recorded in this window',
    );
    const folder = historyFolder(x)!;
    const files = await vscode.workspace.fs.readDirectory(folder);
    assert.ok(files.length > 0, 'History was written');
    for (const [name] of files) {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, name)));
      assert.ok(!text.toLowerCase().includes(TEST_KEY.toLowerCase()), `${name} holds the key`);
    }
  });

  it('an answer another window loaded is recorded here, and announced there: one notification for several windows', async () => {
    await answer([sync(900_011, 1, 12), sync(900_012, 2, 3)]);
    await vscode.commands.executeCommand('flowsync.watch', leaf(900_011));
    const announced = announcements(x.history).length;
    const processing = x.explorer.lists.processing;
    const kept = processing.state.items!.filter((i) => i.value.id === 900_012);
    processing.adopt(
      { items: kept, dropped: 0, fingerprint: 'another window', firstDropReason: undefined },
      Date.now(),
    ); // what sharing does
    assert.deepEqual(
      x.history.snapshot.entries.map((e) => e.id),
      [900_011],
      'recorded',
    );
    assert.equal(
      announcements(x.history).length,
      announced,
      'announced by the window that loaded the answer, not here',
    );
  });

  it('watches are one set for every window: one set in another window counts from the next answer, and is never written over', async () => {
    // Two more windows' History over the same globalState (VS Code keeps globalState the same in every window).
    const stored = new Map<string, unknown>();
    const memento: vscode.Memento = {
      keys: () => [...stored.keys()],
      get: <V>(key: string, fallback?: V) => (stored.has(key) ? (stored.get(key) as V) : fallback),
      update: async (key: string, value: unknown) => void stored.set(key, value),
    };
    const log = vscode.window.createOutputChannel('History test windows', { log: true });
    const storage = vscode.Uri.file(path.join(os.tmpdir(), `flowsync-watches-${process.pid}-${Date.now()}`));
    const settings = () => ({ historyDays: 7, stuckAfterMinutes: 60, notifyWhenFinished: 'watched' as const });
    const [first, second] = ['first', 'second'].map(
      (id) =>
        new HistoryService({
          explorer: x.explorer,
          storage,
          state: memento,
          windowId: id,
          clock: systemClock,
          settings,
          log,
        }),
    );
    try {
      await waitFor(() => first.snapshot.origin !== undefined && second.snapshot.origin !== undefined, {
        message: 'both know the service',
      });
      await first.watch('sync', [900101], true);
      await answer([sync(900102, 77, 1)]);
      assert.equal(
        second.isWatched('sync', 900101),
        true,
        'the watch set in the first window counts in the second after its next answer',
      );
      await second.watch('sync', [900102], true);
      await answer([sync(900102, 77, 1)]);
      for (const history of [first, second]) {
        assert.equal(history.isWatched('sync', 900101), true, 'not written over');
        assert.equal(history.isWatched('sync', 900102), true);
      }
    } finally {
      first.dispose();
      second.dispose();
      log.dispose();
      await vscode.workspace.fs.delete(storage, { recursive: true }).then(undefined, () => undefined);
    }
  });

  it('a filter change restarts observation and writes nothing; a sync that returns is processing again', async () => {
    await answer([sync(900_011, 1, 5), sync(900_012, 1, 5)]);
    // The first answer after the filter changed lacks 900011: observation restarted, so nothing left processing.
    mock.clearFaults();
    mock.inject({ endpoint: 'processing', status: 200, body: JSON.stringify([sync(900_012, 1, 5)]) });
    await setUserSetting('teamId', '1');
    await x.reconfigure();
    await waitFor(() => x.explorer.lists.processing.state.items?.length === 1, { message: 'the filtered answer' });
    await answer([sync(900_012, 1, 5)]);
    assert.equal(x.history.snapshot.entries.length, 0, 'the filter changed: nothing left processing');
    await setUserSetting('teamId', undefined);
    await x.reconfigure();
    await answer([sync(900_012, 1, 5)]);
    await answer([]);
    await answer([sync(900_012, 1, 5)]);
    await answer([]);
    assert.deepEqual(
      x.history.snapshot.entries.map((e) => e.id),
      [900_012, 900_012],
      'two runs, two entries',
    );
  });

  it('a watch on a flow lasts; "all" announces every departure, several in one poll as one notification', async () => {
    await answer([sync(900_021, 3, 4), sync(900_022, 3, 4), sync(900_023, 4, 4)]);
    const flow = x.views.processing.tree.getChildren().find((g) => g.kind === 'group' && g.group.key === 3)!;
    await vscode.commands.executeCommand('flowsync.watch', flow);
    assert.match(String(x.views.processing.tree.getTreeItem(flow).contextValue), /flowsync\.flow\.watched/);
    const before = announcements(x.history).length;
    await answer([sync(900_023, 4, 4)]);
    assert.deepEqual(announcements(x.history).slice(before), ['2 syncs of Flow 3 are no longer processing.']);
    assert.ok(x.history.isWatched('flow', 3), 'a watch on a flow lasts');
    await vscode.commands.executeCommand('flowsync.unwatch', flow);
    assert.equal(x.history.isWatched('flow', 3), false);
    await setUserSetting('notifyWhenFinished', 'all');
    await answer([]);
    assert.equal(announcements(x.history).length - before, 2);
    await setUserSetting('notifyWhenFinished', undefined);
  });

  it('stuck: over stuckAfterMinutes the row says "stuck" with a warning icon; the status bar counts it and turns to warning', async () => {
    await setUserSetting('stuckAfterMinutes', 30);
    await answer([sync(900_031, 5, 45), sync(900_032, 5, 2)]);
    await waitFor(() => /1 stuck/.test(x.statusBar.item!.text), { message: 'the status bar counts the stuck sync' });
    assert.match(x.statusBar.item!.text, /2 processing, 1 stuck/);
    assert.ok(x.statusBar.item!.backgroundColor, 'warning');
    assert.match((x.statusBar.item!.tooltip as vscode.MarkdownString).value, /Stuck[\s\S]*#900031/);
    const stuck = x.views.processing.tree.getTreeItem(leaf(900_031));
    assert.match(String(stuck.description), /stuck/);
    assert.equal((stuck.iconPath as vscode.ThemeIcon).id, 'warning');
    assert.doesNotMatch(String(x.views.processing.tree.getTreeItem(leaf(900_032)).description), /stuck/);
    // Its flow's row wears the strongest state of its syncs, in words (issue #52, item 4).
    const tree = x.views.processing.tree;
    const flow = tree.getChildren().find((node) => node.kind === 'group' && Number(node.group.key) === 5);
    assert.match(String(flow && tree.getTreeItem(flow).description), /^2 syncs · 1 stuck/);
    await setUserSetting('stuckAfterMinutes', undefined);
  });

  it('storage: kept in global storage per service (a file per day and window), a corrupt segment is set aside, Clear History deletes it', async () => {
    await answer([sync(900_041, 6, 3)]);
    await answer([]);
    await x.history.flushed();
    const folder = historyFolder(x)!;
    const files = (await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name);
    assert.ok(
      files.some((f) => /^h2-\d{4}-\d{2}-\d{2}-.*\.log$/.test(f)),
      files.join(', '),
    );
    const text = new TextDecoder().decode(
      await vscode.workspace.fs.readFile(
        vscode.Uri.joinPath(
          folder,
          files.find((f) => f.endsWith('.log'))!,
        ),
      ),
    );
    assert.ok(!text.includes(TEST_KEY), 'the key is never stored');
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(folder, 'segment-hostile-0.json'),
      new TextEncoder().encode('{"__proto__": {"x": 1}, "entries": [' + '['.repeat(5000)),
    );
    await x.history.reload();
    assert.deepEqual(
      x.history.snapshot.entries.map((e) => e.id),
      [900_041],
      'the good entries stay',
    );
    const after = (await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name);
    assert.ok(after.includes('segment-hostile-0.json.corrupt'), after.join(', '));
    await x.history.clear();
    assert.equal(x.history.snapshot.entries.length, 0);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(folder)), 'the folder is gone');
  });
});

/**
 * History's store with several windows (issue #19): HistoryService instances over one temporary global storage, fed
 * by the same Explorer, as several VS Code windows over the same user data. Fixtures: a segment of 0.2.0
 * (test/fixtures/history-0.2.0), shifted to now.
 */
describe('History store: several windows, one disk', function () {
  this.timeout(120_000);
  let mock: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  let storage: vscode.Uri;
  let log: vscode.LogOutputChannel;
  const windows: HistoryService[] = [];
  const FIXTURE_NOW = Date.UTC(2026, 10, 22, 12);
  const answer = async (items: object[]) => {
    mock.clearFaults();
    mock.inject({ endpoint: 'processing', status: 200, body: JSON.stringify(items) });
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
  };
  /** One departure: the sync is processing, then gone; every window records it; their writes are done. */
  const depart = async (id: number) => {
    await answer([sync(id, 9, 2)]);
    await answer([]);
    await Promise.all(windows.map((w) => w.flushed()));
  };
  const memento = (): vscode.Memento => {
    const stored = new Map<string, unknown>();
    return {
      keys: () => [...stored.keys()],
      get: <V>(key: string, fallback?: V) => (stored.has(key) ? (stored.get(key) as V) : fallback),
      update: async (key: string, value: unknown) => void stored.set(key, value),
    };
  };
  /** A window: `historyDays` as it sees it (a workspace may set it), `userHistoryDays` from the user's own settings. */
  const open = async (id: string, historyDays = 90, userHistoryDays = 90) => {
    const settings = () => ({ historyDays, userHistoryDays, stuckAfterMinutes: 0, notifyWhenFinished: 'off' as const });
    const w = new HistoryService({
      explorer: x.explorer,
      storage,
      state: memento(),
      windowId: id,
      clock: systemClock,
      settings,
      log,
    });
    windows.push(w);
    await waitFor(() => w.snapshot.origin !== undefined, { message: `window ${id} knows the service` });
    await w.reload();
    return w;
  };
  const folder = () => vscode.Uri.joinPath(storage, 'history', originFolder(x.explorer.scope!));
  const names = async () => (await vscode.workspace.fs.readDirectory(folder())).map(([name]) => name).sort();
  /** The 0.2.0 fixture, its times shifted to end now, for the explorer's origin; `copies` × its 300 runs (other ids). */
  const legacySegment = (copies = 1): string => {
    const doc = JSON.parse(
      fs.readFileSync(path.join(__dirname, '../../../test/fixtures/history-0.2.0/segment.json'), 'utf8'),
    ) as Record<string, unknown[]> & { base: number; origin: string };
    doc.base += Date.now() - FIXTURE_NOW;
    doc.origin = x.explorer.scope!;
    for (const column of ['flow', 'createdAt', 'firstSeen', 'seenFor', 'leftAfter'] as const) {
      doc[column] = Array.from({ length: copies }, () => doc[column]).flat();
    }
    doc.id = Array.from({ length: copies }, (_, k) => (doc.id as number[]).map((id) => id + k * 1000)).flat();
    return JSON.stringify(doc);
  };
  const write = (name: string, text: string) =>
    vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder(), name), new TextEncoder().encode(text));

  before(async () => {
    mock = await startMockApi({ apiKey: TEST_KEY });
    x = await testApi();
    await setUserSetting('autoRefresh', false);
    log = vscode.window.createOutputChannel('History store test windows', { log: true });
  });
  beforeEach(async () => {
    await connect(x, mock);
    await answer([]);
    storage = vscode.Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-store-')));
    await vscode.workspace.fs.createDirectory(folder());
  });
  afterEach(async () => {
    for (const w of windows.splice(0)) {
      await w.flushed();
      w.dispose();
    }
    fs.rmSync(storage.fsPath, { recursive: true, force: true });
  });
  after(async () => {
    log.dispose();
    await x.history.clear();
    await setUserSetting('autoRefresh', undefined);
    await mock.close();
  });

  it('a workspace historyDays of 1 shortens what its window shows, never deletes: a window gone for days keeps its 27 days', async () => {
    await write('segment-gone-00000000.json', legacySegment());
    const twoDaysAgo = (Date.now() - 2 * 86_400_000) / 1000;
    fs.utimesSync(path.join(folder().fsPath, 'segment-gone-00000000.json'), twoDaysAgo, twoDaysAgo);
    const workspaceWindow = await open('workspace', 1, 90);
    await depart(910_001);
    assert.ok(
      workspaceWindow.snapshot.entries.every((e) => e.leftAt >= Date.now() - 86_400_000 - 60_000),
      'it shows one day',
    );
    const user = await open('user');
    assert.equal(user.snapshot.entries.length, 301, 'the 300 runs over 27 days and the new one are all still on disk');
  });

  it('Clear History clears every window, also what they hold in memory: a cleared run never comes back', async () => {
    const [a, b] = [await open('a'), await open('b')];
    await depart(920_001);
    assert.deepEqual(
      b.snapshot.entries.map((e) => e.id),
      [920_001],
    );
    await a.clear();
    await depart(920_002); // b records a departure and writes
    await b.reload();
    assert.deepEqual(
      b.snapshot.entries.map((e) => e.id),
      [920_002],
      'b no longer holds the cleared run',
    );
    const c = await open('c');
    assert.deepEqual(
      c.snapshot.entries.map((e) => e.id),
      [920_002],
      'a window opened later never sees it',
    );
  });

  it('a huge file is checked for size before it is read: set aside once, at once', async () => {
    const huge = path.join(folder().fsPath, 'segment-huge-00000000.json');
    const fd = fs.openSync(huge, 'w');
    fs.ftruncateSync(fd, 600 * 1024 * 1024); // sparse: no disk used
    fs.closeSync(fd);
    const started = Date.now();
    const w = await open('reader');
    await w.reload();
    const elapsed = Date.now() - started;
    assert.ok(!(await names()).includes('segment-huge-00000000.json'), `set aside (${(await names()).join(', ')})`);
    assert.ok(elapsed < 1_000, `took ${elapsed} ms`);
  });

  it('a window writing while another reads: the reader never sees a half-written file, never sets aside a healthy one', async () => {
    const writer = await open('writer');
    await write(segmentFileName('writer'), legacySegment(150)); // 45,000 runs: about 3 MB in 0.2.0's format
    await writer.reload();
    const reader = await open('reader');
    const total = reader.snapshot.entries.length;
    assert.equal(total, 45_000);
    let reading = true;
    const counts: number[] = [];
    const reads = (async () => {
      while (reading) {
        await reader.reload();
        counts.push(reader.snapshot.entries.length);
      }
    })();
    for (let i = 0; i < 15; i++) await depart(930_000 + i);
    reading = false;
    await reads;
    assert.deepEqual(
      (await names()).filter((n) => /corrupt|aside/.test(n)),
      [],
      'nothing set aside',
    );
    assert.ok(
      counts.length > 0 && counts.every((n) => n >= total),
      `the reader never lost runs: ${Math.min(...counts)} < ${total}`,
    );
  });

  it('reload() resolves with every run on disk, also while the older days of the first load are still being read', async () => {
    await write(segmentFileName('writer'), legacySegment(150)); // 45,000 runs over 27 days: more than the first read
    const migrating = await open('writer');
    assert.equal(migrating.snapshot.entries.length, 45_000);
    // The first load reads the newest days (History ready), then the older ones in the background. Hold back the
    // background read's answer after it has read its files, as a busy machine may: a reload() meanwhile finds nothing
    // new in those files (LogStore.read returns each run once), and must not resolve before that answer is merged.
    const original = LogStore.prototype.read;
    let background: Promise<unknown> | undefined;
    LogStore.prototype.read = async function (this: LogStore, days: number, limit?: number) {
      if (limit !== HISTORY_CAP) return original.call(this, days, limit);
      if (background) {
        await background; // the background read has read its files (not yet answered): this read finds them read
        return original.call(this, days, limit);
      }
      const reading = original.call(this, days, limit);
      background = reading;
      const result = await reading;
      await new Promise((r) => setTimeout(r, 400)); // ...and its answer is late
      return result;
    };
    try {
      const reader = new HistoryService({
        explorer: x.explorer,
        storage,
        state: memento(),
        windowId: 'reader',
        clock: systemClock,
        settings: () => ({
          historyDays: 90,
          userHistoryDays: 90,
          stuckAfterMinutes: 0,
          notifyWhenFinished: 'off' as const,
        }),
        log,
      });
      windows.push(reader);
      await waitFor(() => reader.snapshot.origin !== undefined, { message: 'the reader knows the service' });
      await reader.reload();
      assert.equal(reader.snapshot.entries.length, 45_000, 'every run on disk, once reload() has resolved');
    } finally {
      LogStore.prototype.read = original;
    }
  });

  it('over the cap (60,000 runs over 30 days): typical durations count every day, from the summaries of the days not in memory', async () => {
    const now = Date.now();
    const all: HistoryEntry[] = [];
    const byDay = new Map<string, string[]>();
    for (let k = 0; k < 60_000; k++) {
      const leftAt = now - 60_000 - Math.floor((k * 30 * 86_400_000) / 60_000);
      const flowId = 20 + (k % 3);
      const ms = (1 + (k % 3) * 9) * 60_000 * (1 + ((k * 7919) % 1000) / 500); // 1 / 10 / 19 min × 1 to 3
      const e = makeEntry({
        id: 2_000_000 + k,
        flowId,
        flowName: `Flow ${flowId}`,
        createdAt: new Date(leftAt - ms).toISOString(),
        firstSeen: leftAt - ms + 20_000,
        lastSeen: leftAt - 15_000,
        leftAt,
      });
      all.push(e);
      const day = dayOf(leftAt);
      const records = byDay.get(day);
      if (records) records.push(logRecord(e));
      else byDay.set(day, [logRecord(e)]);
    }
    for (const [day, records] of byDay) await write(logFileName(day, windowTag('busy')), records.join(''));
    const w = await open('summaries');
    await waitFor(() => w.snapshot.older.days.length > 0, {
      message: 'the summaries of the days not in memory are read',
    });
    await w.flushed();
    assert.equal(w.snapshot.entries.length, HISTORY_CAP, 'memory holds the cap, not every run');
    const exact = flowStats(all);
    const factor = Math.pow(2, 1 / DURATION_STEPS / 2);
    for (const [flowId, s] of exact) {
      const got = w.snapshot.stats.get(flowId)!;
      assert.equal(got.runs, s.runs, `flow ${flowId}: every run of the 30 days, once`);
      for (const key of ['medianMs', 'p95Ms'] as const) {
        assert.ok(
          got[key] <= s[key] * factor * 1.000001 && got[key] >= s[key] / factor / 1.000001,
          `flow ${flowId} ${key}: ${got[key]} vs ${s[key]}`,
        );
      }
    }
    assert.ok(
      (await names()).some((n) => n.startsWith('s2-')),
      'summary files are written beside the log',
    );
  });
});
