#!/usr/bin/env node
// History (out/src/history/*.js) on 90 days of a busy service: 10,000 flow syncs a day over 200 flows = 900,000
// runs. HISTORY_CAP keeps the newest entries of an origin; this measures what a window pays at the cap: the size of
// its segment on disk, reading it back (parse + validate + merge) alone and with a second window that watched the
// same runs (settled: it writes only its share; unsettled: both hold every run), pruning the whole 90 days down, and
// what the views compute from it (flow statistics, day groups, the week's activity chart). The uncapped 90 days are
// measured too (size, JSON.parse alone): why there is a cap. Flow names read back are service text: every row runs with
// the key of one service registered (hideEverywhere, as activate() does); the reading rows run again with the keys of
// two services: the rows marked "(2 keys)".
//   node --expose-gc bench/history.mjs [--runs 9]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { emitRows, ms, outModule, progress, row, threadCpuMs, threadCpuSource } from './lib/common.mjs';

const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '9' } } });
const RUNS = Number(opts.runs);
const history = outModule('history/index.js');
// The pure storage of History: the day logs (log.js) and the merge and prune of what a window holds (store.js).
const store = { ...outModule('history/store.js'), ...outModule('history/log.js') };
const { LogStore } = outModule('history/logStore.js');
const { HeldRuns } = outModule('history/held.js');
const { mulberry32 } = outModule('mock/data.js');
const { nodeFiles } = outModule('env/node/files.js');
const { hideEverywhere } = outModule('base/inert.js');
const ONE_KEY = ['fs_bench_0123456789abcdef'];
const TWO_KEYS = [...ONE_KEY, 'fsk_Test_Q8w3Er5Ty7Ui9Op2As4Df6Gh'];
hideEverywhere(() => ONE_KEY.slice());
/** `fn` with the keys of two services registered, then one again. */
function twoKeys(fn) {
  hideEverywhere(() => TWO_KEYS.slice());
  try {
    return fn();
  } finally {
    hideEverywhere(() => ONE_KEY.slice());
  }
}

const say = (m) => progress('history', m);
const NOW = Date.UTC(2026, 10, 22, 12);
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const POLL = 15_000;
const PER_DAY = 10_000;
const DAYS = 90;
const FLOWS = 200;
const ORIGIN = 'https://flowsync.example.com';

/** 90 days of runs as one window saw them (`lag`: its polls come that much later), newest first; raw items for the newest. */
function ninetyDays(lag = 0) {
  const random = mulberry32(7);
  const entries = [];
  const total = PER_DAY * DAYS;
  for (let i = 0; i < total; i++) {
    const left = NOW - Math.floor((i * DAY) / PER_DAY);
    const flowId = 1 + Math.floor(random() ** 2 * FLOWS);
    const minutes = 0.5 + random() * random() * 60;
    const created = left - Math.round(minutes * MIN);
    const [leftAt, lastSeen] = [left + lag, left + lag - POLL];
    const firstSeen = Math.min(lastSeen, created + lag + Math.round(random() * POLL));
    const id = 50_000_000 - i;
    const createdAt = new Date(created).toISOString();
    const flowName = `Flow ${flowId} · ${['Invoices', 'Payroll', 'CRM sync', 'Mailing'][flowId % 4]}`;
    const raw =
      i < 2_000
        ? {
            id,
            flow_id: flowId,
            status: 'pending',
            created_at: createdAt,
            updated_at: new Date(lastSeen).toISOString(),
            errors: null,
            webhook: false,
            flow: { id: flowId, name: flowName },
          }
        : undefined;
    entries.push(
      history.makeEntry({ id, flowId, flowName, createdAt, firstSeen, lastSeen, leftAt, ...(raw ? { raw } : {}) }),
    );
  }
  return entries;
}

/** Wall-clock samples of `fn`, gc() before each. */
function timeRuns(fn, runs = RUNS) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const t0 = performance.now();
    fn();
    samples.push(ms(t0));
  }
  return samples;
}

const rows = [];
const cap = store.HISTORY_CAP;
const note = `90 days × ${PER_DAY.toLocaleString('en-US')} syncs/day over ${FLOWS} flows = 900,000 runs; HISTORY_CAP = ${cap.toLocaleString('en-US')} keeps the newest (${(cap / PER_DAY).toFixed(1)} days of this service); ${RUNS} runs each, gc() before each`;

/** The uncapped rows and the prune row; returns the capped entries (the 900,000 are garbage afterwards). */
function ninetyDaysCapped() {
  say(`generating 90 days × ${PER_DAY.toLocaleString('en-US')} syncs (900,000 entries)`);
  const all = ninetyDays();
  say('without the cap: the 90 days in one segment');
  const full = store.serializeSegment(all, ORIGIN);
  rows.push(row('history', 'uncapped: 900,000 entries on disk', 'B', [Buffer.byteLength(full)], { note }));
  rows.push(
    row(
      'history',
      'uncapped: JSON.parse alone',
      'ms',
      timeRuns(() => JSON.parse(full), 3),
    ),
  );
  say(`prune 900,000 → ${cap.toLocaleString('en-US')} (the cap)`);
  let capped;
  rows.push(
    row(
      'history',
      'prune 900,000 entries (90 days) to the cap',
      'ms',
      timeRuns(() => (capped = store.pruneEntries(all, NOW, DAYS))),
    ),
  );
  if (capped.length !== cap) throw new Error(`expected ${cap} entries after pruning, got ${capped.length}`);
  return capped;
}
const capped = ninetyDaysCapped();
say('a second window: the same runs, its polls 5 s later');
const cappedB = store.pruneEntries(ninetyDays(5_000), NOW, DAYS);

const text = store.serializeSegment(capped, ORIGIN);
rows.push(
  row(
    'history',
    `segment on disk at the cap (${cap.toLocaleString('en-US')} entries)`,
    'B',
    [Buffer.byteLength(text)],
    { target: { max: 4 * 1024 * 1024, text: '≤ 4 MB' } },
  ),
);
rows.push(
  row(
    'history',
    'serialize the segment',
    'ms',
    timeRuns(() => store.serializeSegment(capped, ORIGIN)),
  ),
);
// 0.2.0's two windows on disk. Settled: window B wrote only its share, the runs window A's segment (the smaller name)
// did not hold (0.2.0's entriesToWrite; a run is its sync id and its created_at); A's segment holds every run. Before
// they settle, both segments hold every run, and the merge makes each run one.
const runKey = (e) => `${e.id} ${e.createdAt}`;
const heldByA = new Set(capped.map(runKey));
const textB = store.serializeSegment(
  cappedB.filter((e) => !heldByA.has(runKey(e))),
  ORIGIN,
);
const textBoth = store.serializeSegment(cappedB, ORIGIN);
rows.push(
  row('history', 'two windows: both segments on disk (0.2.0)', 'B', [
    Buffer.byteLength(text) + Buffer.byteLength(textB),
  ]),
);

say('load: parse + merge');
const load = (...texts) => store.mergeSegments(texts.map((t) => store.parseSegment(t, ORIGIN).entries));
const check = load(text, textB);
if (check.length !== cap) throw new Error(`two windows' segments merged to ${check.length} entries, expected ${cap}`);
if (load(text, textBoth).length !== cap) throw new Error('two unsettled segments did not merge to the cap');
rows.push(
  row(
    'history',
    'parse one segment (validate every field)',
    'ms',
    timeRuns(() => store.parseSegment(text, ORIGIN)),
  ),
);
rows.push(
  row(
    'history',
    'parse one segment (validate every field) (2 keys)',
    'ms',
    twoKeys(() => timeRuns(() => store.parseSegment(text, ORIGIN))),
  ),
);
for (const [name, texts, max] of [
  ['one window', [text], 50],
  ['two windows', [text, textB], 50], // settled: B's segment holds its share
  ['two windows before they settle (both hold every run)', [text, textBoth], 100],
]) {
  rows.push(
    row(
      'history',
      `load = parse + merge, ${name}`,
      'ms',
      timeRuns(() => load(...texts)),
      { target: { max, text: `< ${max} ms` } },
    ),
  );
  rows.push(
    row(
      'history',
      `load = parse + merge, ${name} (2 keys)`,
      'ms',
      twoKeys(() => timeRuns(() => load(...texts))),
      { target: { max, text: `< ${max} ms` } },
    ),
  );
}

say('views at the cap');
const entries = check;
rows.push(
  row(
    'history',
    'flowStats (cap)',
    'ms',
    timeRuns(() => history.flowStats(entries)),
    { target: { max: 50, text: '< 50 ms' } },
  ),
);
rows.push(
  row(
    'history',
    'historyGroups by day (cap)',
    'ms',
    timeRuns(() => history.historyGroups(entries, NOW)),
    { target: { max: 50, text: '< 50 ms' } },
  ),
);
rows.push(
  row(
    'history',
    'activitySeries, week (cap)',
    'ms',
    timeRuns(() => history.activitySeries(entries, [], NOW, 'week')),
    { target: { max: 50, text: '< 50 ms' } },
  ),
);

say('observer: a poll of 2,000 processing syncs, 100 of them leaving');
{
  const observer = new history.ProcessingObserver();
  const items = Array.from({ length: 2_100 }, (_, i) => {
    const value = {
      id: i + 1,
      flow_id: 1 + (i % FLOWS),
      status: 'pending',
      created_at: new Date(NOW - i * 1000).toISOString(),
      updated_at: new Date(NOW).toISOString(),
      errors: null,
      webhook: false,
      flow: { id: 1 + (i % FLOWS), name: `Flow ${i % FLOWS}` },
    };
    return { value, raw: value };
  });
  let at = NOW;
  const samples = timeRuns(() => {
    observer.observe('bench', (at += POLL), { items, complete: true });
    const { left } = observer.observe('bench', (at += POLL), { items: items.slice(100), complete: true });
    if (left.length !== 100) throw new Error(`expected 100 to leave, got ${left.length}`);
  });
  rows.push(row('history', 'observe 2 polls of ~2,000 syncs', 'ms', samples, { target: { max: 10, text: '< 10 ms' } }));
}

// ------------------------------------------------------------ the store (format 2: a log per day and window, on disk)
/** A temporary History root with `entries` as one window's day files (what its appends would have written). */
function diskStore(entries) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-bench-history-'));
  fs.mkdirSync(path.join(root, 'origin'));
  const byDay = new Map();
  for (const e of entries) {
    const name = store.logFileName(store.dayOf(e.leftAt), store.windowTag('bench-a'));
    const list = byDay.get(name);
    if (list) list.push(store.logRecord(e));
    else byDay.set(name, [store.logRecord(e)]);
  }
  for (const [name, records] of byDay) fs.writeFileSync(path.join(root, 'origin', name), records.join(''));
  return root;
}
const open = (root, windowId = 'bench-b') =>
  new LogStore({ files: nodeFiles(root), folder: 'origin', windowId, now: () => NOW });
/** CPU of the extension host's thread (see threadCpuMs); where it cannot be read, the whole process's (user + system). */
const cpuNow = threadCpuSource()
  ? threadCpuMs
  : () => {
      const c = process.cpuUsage();
      return (c.user + c.system) / 1000;
    };
const cpuNote = `CPU time: this thread's (${threadCpuSource() ?? "not readable here: the whole process's, process.cpuUsage()"}), as the start rows measure it`;
/**
 * Wall-clock and CPU samples of `fn`, gc() before each; `batch` calls per sample (each sample is the mean of its calls:
 * the thread's CPU figure moves in clock ticks).
 */
async function timeAsync(fn, runs = RUNS, cpu = [], batch = 1) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const c0 = cpuNow();
    const t0 = performance.now();
    for (let k = 0; k < batch; k++) await fn(i * batch + k);
    samples.push(ms(t0) / batch);
    cpu.push((cpuNow() - c0) / batch);
  }
  return samples;
}
const oneRun = (i) =>
  history.makeEntry({
    id: 90_000_000 + i,
    flowId: 7,
    flowName: 'Flow 7 · Payroll',
    createdAt: new Date(NOW - 20 * MIN).toISOString(),
    firstSeen: NOW - 19 * MIN,
    lastSeen: NOW - POLL,
    leftAt: NOW,
    raw: {
      id: 90_000_000 + i,
      flow_id: 7,
      status: 'pending',
      created_at: new Date(NOW - 20 * MIN).toISOString(),
      updated_at: new Date(NOW - POLL).toISOString(),
      errors: null,
      webhook: false,
      flow: { id: 7, name: 'Flow 7 · Payroll' },
    },
  });
const POLLS = 20;
const storeNote = `format 2 on the real disk (node:fs, a temporary folder): one window's day files; a poll = what History does when one run leaves: the runs held (at the cap) and the flow stats updated (HeldRuns.depart), then LogStore.append; ${POLLS} polls per sample; ${cpuNote}`;
const roots = [];
try {
  for (const [label, entries] of [
    ['50,000', capped],
    ['900,000', null],
  ]) {
    say(`store on disk: ${label} runs`);
    const root = diskStore(entries ?? ninetyDays());
    roots.push(root);
    const w = open(root);
    await w.read(DAYS, 10_000);
    await w.append([oneRun(9_999 + (label === '50,000' ? 0 : 1000))]); // the first append of a window is not a steady poll
    let bytes = 0;
    const cpu = [];
    // The window holds the newest runs up to the cap (whatever the disk holds): each departure pushes the oldest out.
    const held = new HeldRuns();
    let window = { entries: capped, stats: history.flowStats(capped) };
    const poll = async (i) => {
      const left = [oneRun(i + (label === '50,000' ? 0 : 100_000))];
      window = held.depart(window.entries, history.NO_OLDER_DAYS, left, NOW, DAYS);
      bytes = (await w.append(left)).bytes;
    };
    await poll(-1); // the first departure indexes the runs held (once after each load)
    const samples = await timeAsync(poll, RUNS, cpu, POLLS);
    rows.push(
      row('history', `a poll with one run leaving, store of ${label} runs: bytes written`, 'B', [bytes], {
        target: { max: 1024, text: '≤ 1 KB' },
        ...(label === '50,000' ? { note: storeNote } : {}),
      }),
    );
    rows.push(
      row('history', `a poll with one run leaving, store of ${label} runs: CPU time`, 'ms', cpu, {
        target: { max: 5, text: '≤ 5 ms' },
      }),
    );
    rows.push(row('history', `a poll with one run leaving, store of ${label} runs: wall time`, 'ms', samples));
  }
  say('start-up at 900,000 runs: History ready (the newest day files, 10,000 runs)');
  const big = roots[1];
  const startUp = async (i) => {
    const result = await open(big, `bench-start-${i}`).read(DAYS, 10_000);
    const kept = store.pruneEntries(result.entries, NOW, DAYS);
    history.flowStats(kept);
    if (!kept.length) throw new Error('nothing read');
    return kept;
  };
  const readyCpu = [];
  const ready = await timeAsync(startUp, RUNS, readyCpu);
  // Memory: what the window holds once ready: three windows' results kept alive, heap after gc, per window.
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const held = [await startUp(101), await startUp(102), await startUp(103)];
  globalThis.gc?.();
  const heldMb = (process.memoryUsage().heapUsed - before) / 1048576 / held.length;
  rows.push(
    row(
      'history',
      'start-up to History ready at 900,000 runs (read newest days + prune + stats): CPU time',
      'ms',
      readyCpu,
      { target: { max: 50, text: '≤ 50 ms' }, note: cpuNote },
    ),
  );
  rows.push(row('history', 'start-up to History ready at 900,000 runs: wall time', 'ms', ready));
  rows.push(
    row(
      'history',
      `start-up to History ready at 900,000 runs: memory held (${held[0].length.toLocaleString('en-US')} runs)`,
      'MB',
      [heldMb],
      { target: { max: 50, text: '≤ 50 MB' } },
    ),
  );
  const readyCpu2 = [];
  hideEverywhere(() => TWO_KEYS.slice());
  const ready2 = await timeAsync(startUp, RUNS, readyCpu2);
  hideEverywhere(() => ONE_KEY.slice());
  rows.push(
    row('history', 'start-up to History ready at 900,000 runs: CPU time (2 keys)', 'ms', readyCpu2, {
      target: { max: 50, text: '≤ 50 ms' },
    }),
  );
  rows.push(row('history', 'start-up to History ready at 900,000 runs: wall time (2 keys)', 'ms', ready2));
  const restToCap = async () =>
    store.pruneEntries((await open(big, 'bench-cap').read(DAYS, store.HISTORY_CAP)).entries, NOW, DAYS);
  rows.push(
    row('history', 'then the rest up to the cap in the background (50,000 runs)', 'ms', await timeAsync(restToCap, 3)),
  );
  hideEverywhere(() => TWO_KEYS.slice());
  const restToCap2 = await timeAsync(restToCap, 3);
  hideEverywhere(() => ONE_KEY.slice());
  rows.push(row('history', 'then the rest up to the cap in the background (50,000 runs) (2 keys)', 'ms', restToCap2));

  say('one sync id listed 50,000 times, recorded by two windows');
  const flood = (lag) =>
    Array.from({ length: 50_000 }, (_, k) => NOW - DAY + k * MIN + lag).map((leftAt) =>
      history.makeEntry({
        id: 42,
        flowId: 1,
        flowName: 'Flood',
        createdAt: '2026-11-21T00:00:00.000Z',
        firstSeen: leftAt - 20_000,
        lastSeen: leftAt - POLL,
        leftAt,
      }),
    );
  const floodRoot = diskStore(flood(0));
  roots.push(floodRoot);
  for (const e of flood(1_000))
    fs.appendFileSync(
      path.join(floodRoot, 'origin', store.logFileName(store.dayOf(e.leftAt), store.windowTag('bench-c'))),
      store.logRecord(e),
    );
  let merged;
  rows.push(
    row(
      'history',
      'one-id flood: read + merge 2 × 50,000 runs of one sync id',
      'ms',
      await timeAsync(async () => (merged = (await open(floodRoot, 'bench-d').read(DAYS)).entries), 3),
      { target: { max: 1000, text: '< 1 s (linear)' } },
    ),
  );
  if (merged.length !== 50_000) throw new Error(`flood merged to ${merged.length}`);
} finally {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
}

// ------------------------------------------------------------ Export History... (issue #31): 900,000 runs to a file
{
  say('export: 900,000 runs to a file, streamed (a temporary file, then renamed)');
  const { writeExport } = outModule('export/exportRun.js');
  const { nodePieceFile } = outModule('env/node/pieceFile.js');
  const { bounded } = outModule('base/inert.js');
  const all = ninetyDays();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-bench-export-'));
  try {
    for (const format of ['csv', 'jsonl']) {
      const target = path.join(dir, `history.${format}`);
      const heap = [];
      const samples = [];
      let size = 0;
      for (let i = 0; i < 3; i++) {
        fs.rmSync(target, { force: true });
        globalThis.gc?.();
        const base = process.memoryUsage().heapUsed;
        let peak = base;
        const t0 = performance.now();
        const outcome = await writeExport(() => nodePieceFile(target, false), {
          format,
          sources: [{ service: 'Production', entries: all }],
          mask: (text, max) => bounded(text, max, 'fs_live_bench_key_0123456789'),
          cancelled: () => false,
          progress: () => (peak = Math.max(peak, process.memoryUsage().heapUsed)),
        });
        samples.push(ms(t0));
        heap.push((peak - base) / 1048576);
        if (outcome.rows !== all.length) throw new Error(`exported ${outcome.rows} rows`);
        size = fs.statSync(target).size;
      }
      rows.push(
        row(
          'history',
          `export 900,000 runs as ${format === 'csv' ? 'CSV' : 'JSON Lines'}: wall time (${(size / 1048576).toFixed(0)} MB file)`,
          'ms',
          samples,
          { target: { max: 10_000, text: '≤ 10 s' } },
        ),
      );
      rows.push(
        row(
          'history',
          `export 900,000 runs as ${format === 'csv' ? 'CSV' : 'JSON Lines'}: extra heap at its peak`,
          'MB',
          heap,
          { target: { max: 100, text: '≤ 100 MB' } },
        ),
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
// ------------------------------------------------------------ Show Flow Insights (issue #31): opening the page
{
  say('insights: 90 days × 20 flows of summaries, and the runs in memory at the cap');
  const { flowInsights } = outModule('history/insights.js');
  const { insightsPage } = outModule('insights/insightsPage.js');
  const random = mulberry32(31);
  const FLOWS20 = 20;
  const days = [];
  for (let d = 90; d >= 1; d--) {
    const dayStart = Math.floor(NOW / DAY) * DAY - d * DAY;
    const flows = [];
    for (let f = 1; f <= FLOWS20; f++) {
      const durations = [];
      let bucket = history.durationBucket(30_000 + random() * 60_000);
      for (let k = 0; k < 24; k++, bucket += 1 + Math.floor(random() * 3))
        durations.push(bucket, 1 + Math.floor(random() * 40));
      flows.push({ flowId: f, label: `Flow ${f} · Invoices`, labelAt: dayStart + DAY - 1, durations, hours: [] });
    }
    days.push({ day: new Date(dayStart).toISOString().slice(0, 10), runs: 500, flows });
  }
  const older = { before: Math.floor(NOW / DAY) * DAY, days };
  const inMemory = capped.filter((e) => e.leftAt >= older.before);
  const open = () =>
    JSON.stringify({
      type: 'page',
      page: insightsPage([{ service: 'Production', flows: flowInsights(inMemory, older, NOW) }], false, 90, NOW),
    });
  rows.push(
    row(
      'history',
      `Show Flow Insights opens: numbers + page message, 90 days × ${FLOWS20} flows of summaries (+ ${inMemory.length.toLocaleString('en-US')} runs of today in memory)`,
      'ms',
      timeRuns(open),
      {
        target: { max: 300, text: '≤ 300 ms' },
      },
    ),
  );
  const openAll = () =>
    JSON.stringify({
      type: 'page',
      page: insightsPage([{ service: 'Production', flows: flowInsights(capped, older, NOW) }], false, 90, NOW),
    });
  rows.push(
    row(
      'history',
      'Show Flow Insights opens: the same with every run at the cap in memory (50,000)',
      'ms',
      timeRuns(openAll),
      { target: { max: 300, text: '≤ 300 ms' } },
    ),
  );
}
emitRows(rows);
