// Shared by the bench sections: statistics, the result protocol between a section process and bench/run.mjs, paths.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** require() for the compiled product code under out/src (CommonJS). */
export const requireOut = createRequire(path.join(REPO_ROOT, 'out', 'src', 'index.js'));
export const outModule = (rel) => requireOut(path.join(REPO_ROOT, 'out', 'src', rel));
/** The unit tests' helpers, compiled to out/test/unit/helpers by the same `npm run compile`: the fake clock is shared. */
export const outTestHelper = (rel) => requireOut(path.join(REPO_ROOT, 'out', 'test', 'unit', 'helpers', rel));

/** Prefix of the line a section prints its rows on; bench/run.mjs parses it. */
export const RESULT_MARK = '@@BENCH_ROWS ';

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * One table row. `samples`: every run's figure. `target` (optional), checked on the median: { max: n, text: '< 15 ms' }
 * or { equals: n, text: '120 expected' }.
 */
export function row(section, name, unit, samples, { target, note } = {}) {
  const m = median(samples);
  return {
    section,
    name,
    unit,
    median: m,
    min: Math.min(...samples),
    max: Math.max(...samples),
    runs: samples.length,
    ...(target ? { target: target.text, ok: target.equals !== undefined ? m === target.equals : m <= target.max } : {}),
    ...(note ? { note } : {}),
  };
}

export function emitRows(rows) {
  process.stdout.write(`${RESULT_MARK}${JSON.stringify(rows)}\n`);
}

export function progress(section, message) {
  console.log(`[bench:${section}] ${message}`);
}

export const ms = (t0) => performance.now() - t0;

/** `runs` samples of fn(i) in ms, a full collection (with --expose-gc) before each. */
export function timeSamples(runs, fn) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const t0 = performance.now();
    fn(i);
    samples.push(ms(t0));
  }
  return samples;
}
export const sleep = (t) => new Promise((r) => setTimeout(r, t));

/**
 * CPU time of this thread in ms, or undefined where it cannot be read: process.threadCpuUsage (Node 23.9+, what the
 * start rows' shim uses), else on Linux this thread's run time from /proc/thread-self/schedstat (ns). Unlike
 * process.cpuUsage it leaves out the other threads of the process (V8's concurrent GC and compiler helpers, libuv's
 * file system pool), which run beside the extension host's thread and, on a loaded machine, were most of a small
 * row's figure. The kernel brings the figure up to date at each switch and clock tick (4 ms here), so a sample of a
 * millisecond is read within a tick: time a batch and divide.
 */
export function threadCpuMs() {
  if (typeof process.threadCpuUsage === 'function') {
    const { user, system } = process.threadCpuUsage();
    return (user + system) / 1000;
  }
  if (schedstat === undefined)
    schedstat = fs.existsSync('/proc/thread-self/schedstat') ? '/proc/thread-self/schedstat' : null;
  if (!schedstat) return undefined;
  return Number(fs.readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6;
}
let schedstat;
/** How threadCpuMs reads, for a row's note. */
export const threadCpuSource = () =>
  typeof process.threadCpuUsage === 'function'
    ? 'process.threadCpuUsage()'
    : threadCpuMs() !== undefined
      ? '/proc/thread-self/schedstat'
      : undefined;

/** A seeded random in [0, 1) (the same data on every run). */
export function seeded(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Heap used after full collections (needs --expose-gc): the median of 5 reads. */
export function heapUsed() {
  const reads = [];
  for (let i = 0; i < 5; i++) {
    globalThis.gc();
    globalThis.gc();
    reads.push(process.memoryUsage().heapUsed);
  }
  return reads.sort((a, b) => a - b)[2];
}
