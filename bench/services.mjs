#!/usr/bin/env node
// Many services in one window (issue #28): 20 real Explorers (out/src/lists/explorer.js) sharing one WindowBudget and
// one PollSpread, as ServiceRegistry gives them, against the mock on loopback in a worker thread (its CPU and heap are
// not ours). Three measures, each in this fresh process:
// - one round of polls: 20 services × 500 processing syncs, a 5 s interval, on the unit tests' fake clock; the CPU
//   time of this process's main thread (the extension host's thread: /proc/<pid>/task/<pid>/schedstat, Linux) per
//   round, over ROUNDS rounds, and how many polls start at the same moment;
// - the heap (after gc()) with 20 services holding 10,000 connections each (200,000: the window's budget, exactly);
// - 20 services offered 20,000 connections each (400,000): what the window holds, and its heap;
// - 8 services offered 60,000 connections each with ETags (the mock's --etag): the items the clients keep for
//   conditional requests (never more than the window holds, #5), and the heap.
// Needs --expose-gc.
//
//   node --expose-gc bench/services.mjs [--no-window]   (--no-window: Explorers without the budget and the spread)
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';
import { Worker } from 'node:worker_threads';
import { parseArgs } from 'node:util';
import { emitRows, outModule, outTestHelper, progress, row } from './lib/common.mjs';

const { values: opts } = parseArgs({ options: { window: { type: 'boolean', default: true } }, allowNegative: true });
const { Explorer } = outModule('lists/explorer.js');
const { WindowBudget } = outModule('lists/windowBudget.js');
const { PollSpread } = outModule('lists/pollSpread.js');
const { systemClock } = outModule('base/clock.js');
const { FakeClock } = outTestHelper('fakeClock.js');
const { explorerConfig } = outTestHelper('explorerConfig.js');

const API_KEY = 'fs_bench_0123456789abcdef';
const SERVICES = 20;
const INTERVAL_MS = 5_000;
const ROUNDS = 5;
const say = (m) => progress('services', m);
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

/** CPU time of this process's main thread so far, in ms (the worker's is not in it). */
const SCHEDSTAT = `/proc/${process.pid}/task/${process.pid}/schedstat`;
function mainThreadCpuMs() {
  return Number(fs.readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
}

async function heapUsed() {
  const reads = [];
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setImmediate(r));
    globalThis.gc();
    globalThis.gc();
    reads.push(process.memoryUsage().heapUsed);
  }
  return reads.sort((a, b) => a - b)[2];
}

async function startMock(options) {
  const worker = new Worker(new URL('./lib/mockWorker.mjs', import.meta.url), {
    workerData: { apiKey: API_KEY, teams: 50, ...options },
  });
  const { url } = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    url,
    close: async () => {
      worker.postMessage('close');
      await new Promise((r) => worker.once('exit', r));
    },
  };
}

/** SERVICES Explorers of one window (with its budget and spread, unless --no-window), each told of its requests. */
function window(clock, onRequest) {
  const budget = new WindowBudget();
  const spread = new PollSpread(0);
  const ids = Array.from({ length: SERVICES }, (_, i) => `service-${i}`);
  spread.order(ids);
  const explorers = ids.map(
    (id) =>
      new Explorer(clock, {
        onRequest,
        window: opts.window ? { budget, pollPhase: () => spread.fraction(id) } : {},
      }),
  );
  return { budget, explorers };
}

const settleAll = (explorers, id) => async () => {
  for (const e of explorers) if (e.lists[id].isLoading) await e.lists[id].refresh();
};

async function pollRounds() {
  const mock = await startMock({ connections: 100, processing: 500 });
  const clock = new FakeClock();
  const starts = [];
  const { explorers } = window(clock, (r) => r.error && say(`request failed: ${r.error.message}`));
  // Every request a timer starts is told here first (the load starts synchronously in the timer).
  for (const e of explorers)
    e.lists.processing.onDidChange(() => e.lists.processing.state.loading && starts.push(clock.now()));
  try {
    for (const e of explorers)
      e.configure(
        explorerConfig(mock.url, API_KEY, {
          timeoutMs: 15_000,
          refreshIntervalMs: INTERVAL_MS,
          userAgent: 'flowsync-bench',
        }),
      );
    await settleAll(explorers, 'processing')(); // the first loads, at once (not measured)
    const items = explorers.map((e) => e.lists.processing.state.items?.length ?? 0);
    say(`first loads: ${items.reduce((a, b) => a + b, 0)} processing syncs over ${SERVICES} services`);
    const settle = settleAll(explorers, 'processing');
    // Warm-up round (the code's first run is compiled), then the measured ones.
    await clock.advance(1.5 * INTERVAL_MS, settle);
    const cpu = [];
    const together = [];
    let polls = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      starts.length = 0;
      globalThis.gc();
      const c0 = mainThreadCpuMs();
      await clock.advance(INTERVAL_MS, settle);
      cpu.push(mainThreadCpuMs() - c0);
      polls += starts.length;
      // Each poll moves by a jitter of up to ±POLL_JITTER of the interval (src/lists/pollSpread.ts): a service's poll
      // near a round's edge falls in the round before or after, so a round holds one or two polls of each service
      // at most, and the rounds together SERVICES per round, give or take one per service.
      if (starts.length < SERVICES / 2 || starts.length > 2 * SERVICES)
        throw new Error(`round ${round}: ${starts.length} polls, about ${SERVICES} expected`);
      const byTime = new Map();
      for (const at of starts) byTime.set(at, (byTime.get(at) ?? 0) + 1);
      together.push(Math.max(...byTime.values()));
      say(
        `round ${round}: ${starts.length} polls, ${cpu.at(-1).toFixed(1)} ms CPU, at most ${together.at(-1)} at one moment`,
      );
      const failed = explorers.filter((e) => e.lists.processing.state.error);
      if (failed.length) throw new Error(`round ${round}: ${failed[0].lists.processing.state.error.message}`);
    }
    if (Math.abs(polls - ROUNDS * SERVICES) > SERVICES)
      throw new Error(`${polls} polls in ${ROUNDS} rounds, ${ROUNDS * SERVICES} ± ${SERVICES} expected`);
    return { cpu, together };
  } finally {
    for (const e of explorers) e.dispose();
    await mock.close();
  }
}

async function heldConnections(connections) {
  const mock = await startMock({ connections, processing: 0 });
  const base = await heapUsed();
  const { budget, explorers } = window(systemClock, () => undefined);
  try {
    const t0 = performance.now();
    for (const e of explorers) {
      e.configure(
        explorerConfig(mock.url, API_KEY, { autoRefresh: false, timeoutMs: 60_000, userAgent: 'flowsync-bench' }),
      );
      e.want('connections');
    }
    for (const e of explorers) await e.lists.connections.refresh(); // joins the load want() started
    const held = explorers.reduce((sum, e) => sum + (e.lists.connections.state.items?.length ?? 0), 0);
    const refused = explorers.filter((e) => e.lists.connections.state.error).length;
    const heap = await heapUsed();
    say(
      `${SERVICES} × ${connections.toLocaleString('en-US')} connections: ${held.toLocaleString('en-US')} held, ${refused} refused, heap ${(heap / 1048576).toFixed(1)} MB (${((heap - base) / 1048576).toFixed(1)} MB of it the services'), ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    return { held, refused, heap, budgetHeld: budget.held };
  } finally {
    for (const e of explorers) e.dispose();
    await mock.close();
  }
}

/**
 * TAGGED services offered 60,000 connections each, with ETags, in one window (budget 200,000): the items the window
 * holds and those its clients keep with their answers for conditional requests (Explorer.keptItems), and the heap.
 */
const TAGGED = 8;
async function keptForConditionals() {
  const mock = await startMock({ connections: 60_000, processing: 0, etag: true });
  const base = await heapUsed();
  const budget = new WindowBudget();
  const explorers = Array.from({ length: TAGGED }, () => new Explorer(systemClock, { window: { budget } }));
  try {
    for (const e of explorers) {
      e.configure(
        explorerConfig(mock.url, API_KEY, { autoRefresh: false, timeoutMs: 60_000, userAgent: 'flowsync-bench' }),
      );
      e.want('connections');
      await e.lists.connections.refresh(); // one at a time: the first two fit, the others are refused
    }
    const held = explorers.reduce((sum, e) => sum + (e.lists.connections.state.items?.length ?? 0), 0);
    const kept = explorers.reduce((sum, e) => sum + e.keptItems, 0);
    const heap = (await heapUsed()) - base;
    say(
      `${TAGGED} × 60,000 connections with ETags: ${held.toLocaleString('en-US')} held, ${kept.toLocaleString('en-US')} kept for conditional requests, ${(heap / 1048576).toFixed(1)} MB of heap`,
    );
    return { held, kept, heap };
  } finally {
    for (const e of explorers) e.dispose();
    await mock.close();
  }
}

const rounds = await pollRounds();
const tenThousand = await heldConnections(10_000);
if (tenThousand.held !== SERVICES * 10_000)
  throw new Error(`${tenThousand.held} connections held, ${SERVICES * 10_000} expected`);
const over = await heldConnections(20_000);
const tagged = await keptForConditionals();
const mb = (bytes) => bytes / 1048576;
const setup = opts.window ? 'one WindowBudget and PollSpread' : 'NO window budget or spread (--no-window)';
emitRows([
  row('services', `one round of polls, ${SERVICES} services × 500 processing syncs: CPU`, 'ms', rounds.cpu, {
    target: { max: 50, text: '≤ 50 ms' },
    note: `${SERVICES} Explorers with ${setup}, mock in a worker; main thread CPU (schedstat) per ${INTERVAL_MS / 1000} s round on a fake clock, ${ROUNDS} rounds`,
  }),
  row('services', 'polls starting at the same moment in a round (most)', 'req', rounds.together, {
    target: { max: 1, text: '1 (spread)' },
  }),
  row('services', `heap, ${SERVICES} services × 10,000 connections held`, 'MB', [mb(tenThousand.heap)], {
    target: { max: 300, text: '≤ 300 MB' },
  }),
  row('services', `items held, ${SERVICES} services offered 20,000 connections each`, 'items', [over.held], {
    target: { max: 200_000, text: '≤ 200,000' },
  }),
  row('services', `heap, ${SERVICES} services offered 20,000 connections each`, 'MB', [mb(over.heap)]),
  row(
    'services',
    `items kept for conditional requests, ${TAGGED} services offered 60,000 connections each with ETags`,
    'items',
    [tagged.kept],
    { target: { max: tagged.held, text: '≤ the items held' } },
  ),
  row('services', `heap, ${TAGGED} services offered 60,000 connections each with ETags`, 'MB', [mb(tagged.heap)]),
]);
