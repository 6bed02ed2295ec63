#!/usr/bin/env node
// Heap growth across refresh cycles of 10,000 connections through the real Explorer / ListRefresher (out/src/lists),
// against the mock on loopback running in a worker thread (its heap is separate). One process = one run; bench/run.mjs
// repeats it in fresh processes. Needs --expose-gc.
//
//   node --expose-gc bench/memory.mjs [--cycles 1000] [--connections 10000]
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';
import { Worker } from 'node:worker_threads';
import { parseArgs } from 'node:util';
import { emitRows, outModule, progress } from './lib/common.mjs';

const { values: opts } = parseArgs({
  options: { cycles: { type: 'string', default: '1000' }, connections: { type: 'string', default: '10000' } },
});
const CYCLES = Number(opts.cycles);
const CONNECTIONS = Number(opts.connections);
const CHECKPOINTS = [10, 100, 250, 500, 1000].filter((c) => c <= CYCLES);
const API_KEY = 'fs_bench_0123456789abcdef';
const say = (m) => progress('memory', m);

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const { Explorer } = outModule('lists/explorer.js');
const { systemClock } = outModule('base/clock.js');

/** Heap used after full collections: the median of 5 gc()+read pairs (each gc() is run twice). */
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

const worker = new Worker(new URL('./lib/mockWorker.mjs', import.meta.url), {
  workerData: { connections: CONNECTIONS, teams: 50, apiKey: API_KEY },
});
const { url } = await new Promise((resolve, reject) => {
  worker.once('message', resolve);
  worker.once('error', reject);
});

const explorer = new Explorer(systemClock);
explorer.configure({
  baseUrl: url,
  apiKey: API_KEY,
  teamId: '',
  allowHttp: false,
  timeoutMs: 15_000,
  autoRefresh: false, // no processing polls: only the refreshes this bench asks for
  refreshIntervalMs: 30_000,
  userAgent: 'flowsync-bench',
});
await explorer.lists.processing.refresh(); // the load configure() started
const heaps = {};
const started = performance.now();
for (let cycle = 1; cycle <= CYCLES; cycle++) {
  await explorer.lists.connections.refresh();
  const state = explorer.lists.connections.state;
  if (state.error) throw new Error(`cycle ${cycle}: ${state.error.message}`);
  if (state.items?.length !== CONNECTIONS) throw new Error(`cycle ${cycle}: ${state.items?.length} items`);
  if (CHECKPOINTS.includes(cycle)) {
    heaps[cycle] = await heapUsed();
    say(
      `after ${cycle} cycles: heap ${(heaps[cycle] / 1048576).toFixed(2)} MB (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
}
explorer.dispose();
worker.postMessage('close');
await new Promise((r) => worker.once('exit', r));
emitRows([{ section: 'memory-run', heaps, cycles: CYCLES, connections: CONNECTIONS }]);
