// The merged History as the product reads it (bench/teamHistory.mjs's "product path" rows): each service's
// HistoryCore (out/src/history/historyService.js) joined to one TeamSlot, whose port hands the team's runs as
// TeamSession does (src/teamHistory/teamSession.ts: a version per bucket, the lazy merge from the newest end), on the
// fake clock (its timers are the host's tasks: each is timed). What is measured, from a change of the team's runs:
//   - to the first rows the History view gets: the change event (every History told), then each service's rows as the
//     view asks for them (HistoryCore.viewRows, or snapshot.entries where there is none: the code before) and their
//     day groups (historyGroups): what runs on the host's thread before the view can draw;
//   - then the rest: every run of every service merged in the clock's tasks; the longest task, their number, the sum;
//   - the heap once all is merged (JS heap + array buffers, after gc), beside the team's runs and the local History.
// The change: the first read after connecting (every service's runs new), and one run of one service read.
import { performance } from 'node:perf_hooks';
import { ms, outModule, outTestHelper, row } from './common.mjs';

const { HistoryCore } = outModule('history/historyService.js');
const { TeamSlot } = outModule('history/teamPort.js');
const { Emitter } = outModule('base/events.js');
const merge = outModule('teamHistory/merge.js');
const history = outModule('history/index.js');
const { FakeClock } = outTestHelper('fakeClock.js');
const { FakeExplorer } = outTestHelper('historyExplorer.js');

/** A port over the buckets as TeamSession's: its version and its merge (and the old `merged`, for the code before). */
class Port {
  changes = new Emitter();
  onDidChange = this.changes.event;
  generation = 1;
  constructor(buckets) {
    this.buckets = buckets;
  }
  bucket(reader) {
    const team = this.buckets.get(reader.service());
    return team?.size ? team : undefined;
  }
  version(reader) {
    const team = this.bucket(reader);
    return team ? `${this.generation}:${team.version}` : undefined;
  }
  newestFirst(reader, local) {
    const team = this.bucket(reader);
    return team ? merge.mergedNewestFirst(local, team) : undefined;
  }
  merged(reader, local) {
    const team = this.bucket(reader);
    return team ? merge.mergeHistory(local, team).entries : undefined;
  }
  observed() {}
  unwatched() {
    return [];
  }
  summary() {
    return { status: 'team History: connected to bench', watchedToday: 20 };
  }
}

/** A log store that holds one service's History, read whole at once. */
const logOf = (entries) => ({
  cleared: async () => -Infinity,
  read: async () => ({ entries, more: false }),
  append: async () => ({ leftOut: 0 }),
  summaries: async () => [],
  pruneDisk: async () => 0,
  clear: async () => undefined,
});

/**
 * `teams`, `locals`: each service's TeamRuns and this window's History of it; `heapMb()` after gc; `now` the clock's
 * start; `cpuNow()` this thread's CPU ms; `laterSighting(n)`: a teammate's later sighting of service 0's newest run (its
 * n-th, each later than the one before: the merged run changes). Returns the rows.
 */
export async function productPath({ teams, locals, now, heapMb, cpuNow, runs, say, section, laterSighting }) {
  const SERVICES = teams.length;
  const PAGE = 200;
  const clock = new FakeClock(now);
  const services = teams.map((_, s) => `https://service-${s}.example.com`);
  const slot = new TeamSlot();
  const port = new Port(new Map());
  const histories = services.map((service, s) => {
    const explorer = new FakeExplorer(clock);
    explorer.historyScope = service;
    explorer.serviceKey = service;
    return new HistoryCore({
      explorer,
      clock,
      settings: () => ({ historyDays: 90, stuckAfterMinutes: 30, notifyWhenFinished: 'all' }),
      watches: { read: () => undefined, write: async () => undefined },
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
      notify: () => undefined,
      openLog: () => logOf(locals[s]),
      team: { slot, shared: () => true },
    });
  });
  await Promise.all(histories.map((h) => h.whenReady()));
  await clock.advance(0);
  slot.use(port);
  const base = heapMb();
  /** What the view asks for on a change: each service's rows and their day groups (HistoryView.getChildren). */
  const firstRows = () => {
    let shown = 0;
    for (const h of histories) {
      const rows = h.viewRows ? h.viewRows(PAGE).entries : h.snapshot.entries;
      history.historyGroups(rows, clock.now());
      shown += rows.length;
    }
    return shown;
  };
  /** The clock's tasks until every History is merged: the longest, how many, their sum (wall ms). */
  const rest = async () => {
    const tasks = [];
    let t0 = performance.now();
    await clock.advance(0, async () => {
      tasks.push(ms(t0));
      t0 = performance.now();
    });
    return { longest: Math.max(0, ...tasks), count: tasks.length, sum: tasks.reduce((a, b) => a + b, 0) };
  };
  const measure = async (change) => {
    globalThis.gc?.();
    const c0 = cpuNow();
    const t0 = performance.now();
    change();
    const shown = firstRows();
    const first = ms(t0);
    const cpu = cpuNow() - c0;
    const after = await rest();
    // Every reader that needs every run: all merged now (nothing left to merge in the background).
    const w0 = performance.now();
    const total = histories.reduce((n, h) => n + h.snapshot.entries.length, 0);
    return { first, cpu, shown, after, whole: ms(w0), total };
  };
  const samples = { first: [], cpu: [], longest: [], tasks: [], sum: [], one: [], oneCpu: [], oneSum: [] };
  let settledMb = 0;
  let serial = 0;
  for (let i = 0; i < runs; i++) {
    // The first read after connecting: every service's team runs arrive.
    port.buckets = new Map();
    port.generation++;
    port.changes.fire();
    await clock.advance(0);
    say(`product path ${i + 1}/${runs}: the team's runs of ${SERVICES} services arrive`);
    const all = await measure(() => {
      port.buckets = new Map(services.map((service, s) => [service, teams[s]]));
      port.generation++;
      port.changes.fire();
    });
    if (all.total !== SERVICES * teams[0].size) throw new Error(`merged ${all.total} runs`);
    samples.first.push(all.first);
    samples.cpu.push(all.cpu);
    samples.longest.push(all.after.longest);
    samples.tasks.push(all.after.count);
    samples.sum.push(all.after.sum);
    if (i === 0) settledMb = heapMb() - base;
    // A teammate's later sighting of a run of service 0 read: only its History is merged again.
    const one = await measure(() => {
      const added = teams[0].add(laterSighting(++serial));
      if (!added) throw new Error('the later sighting was refused');
      port.changes.fire();
    });
    samples.one.push(one.first);
    samples.oneCpu.push(one.cpu);
    samples.oneSum.push(one.after.sum);
  }
  histories.forEach((h) => h.dispose());
  slot.dispose();
  const note = `HistoryCore × ${SERVICES} joined to a TeamSlot on the fake clock; its port as TeamSession's`;
  return [
    row(
      section,
      `product path: a change of every service's team runs to the first rows the History view gets`,
      'ms',
      samples.first,
      {
        target: { max: 300, text: '≤ 300 ms' },
        note: `${note}; the change event, then each service's rows (viewRows(${PAGE}), before: snapshot.entries) and day groups`,
      },
    ),
    row(section, 'product path: the same, CPU time of this thread', 'ms', samples.cpu),
    row(section, 'product path: then every run merged: the longest task of the host', 'ms', samples.longest),
    row(section, 'product path: then every run merged: its tasks', '', samples.tasks),
    row(section, 'product path: then every run merged: the tasks together', 'ms', samples.sum),
    row(section, 'product path: heap once every run is merged (HistoryCores, slot, merged runs)', 'MB', [settledMb], {
      note: 'beyond the team runs and local History above',
    }),
    row(section, 'product path: one row of one service read, to the first rows', 'ms', samples.one),
    row(section, 'product path: one row of one service read, CPU time', 'ms', samples.oneCpu),
    row(
      section,
      'product path: one row of one service read, then its merge (the tasks together)',
      'ms',
      samples.oneSum,
    ),
  ];
}
