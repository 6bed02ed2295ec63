// Shared by the bench sections: statistics, the result protocol between a section process and bench/run.mjs, paths.
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
export const sleep = (t) => new Promise((r) => setTimeout(r, t));
