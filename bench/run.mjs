#!/usr/bin/env node
// `npm run bench`: a benchmark, not a timed test. Compiles (npm run compile: out/src, and the tests' fake clock
// out/test/unit/helpers/fakeClock.js), runs each section in its own Node process, prints one table (median, min, max
// over repeated runs; the target beside each row that has one; each row's median of the previous bench/results.json
// beside it, with the change and REGRESSION when worse by more than 10 %) and writes bench/results.json (gitignored,
// keeping the run it was compared with under `previous`). Exits 1 only
// when a section could not run; missed targets are reported, not failed. ~3-5 min on 2 cores.
//
//   npm run bench
//   npm run bench -- --only pipeline,tree      sections: bundle, activation, pipeline, tree, memory, network, worst, history, text, services, bounds, fleet, teamHistory, timeline, treeDrawn
//   npm run bench -- --starts 10 --memory-runs 3 --no-compile
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT, RESULT_MARK, median } from './lib/common.mjs';

const { values: opts } = parseArgs({
  options: {
    only: { type: 'string' },
    starts: { type: 'string', default: '10' },
    'memory-runs': { type: 'string', default: '3' },
    compile: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
const say = (m) => console.log(`[bench] ${m} (${elapsed()})`);

/** Runs a section script; its progress lines pass through, its result line is parsed. */
function runSection(script, { args = [], nodeArgs = [] } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, path.join('bench', script), ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let rows;
    let stderr = '';
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.startsWith(RESULT_MARK)) rows = JSON.parse(line.slice(RESULT_MARK.length));
        else console.log(`  ${line}`);
      }
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      process.stderr.write(chunk);
    });
    child.on('close', (code) =>
      resolve(
        code === 0 && rows
          ? { rows }
          : { error: `${script} failed (exit ${code})${stderr ? `: ${lastLine(stderr)}` : ''}` },
      ),
    );
  });
}

const lastLine = (text) => text.trim().split('\n').filter(Boolean).slice(-1)[0] ?? '';

/** Memory: one fresh process per run; the table shows the median, min and max over runs of each checkpoint. */
async function memorySection(runs) {
  const results = [];
  for (let i = 1; i <= runs; i++) {
    say(`memory run ${i}/${runs}: 1,000 refresh cycles of 10,000 connections`);
    const r = await runSection('memory.mjs', { nodeArgs: ['--expose-gc'] });
    if (r.error) return r;
    results.push(r.rows[0]);
  }
  const mb = (bytes) => bytes / 1048576;
  const at = (c) => results.map((r) => mb(r.heaps[c]));
  const growth = results.map((r) => mb(r.heaps[1000] - r.heaps[10]));
  const stat = (samples) => ({
    median: median(samples),
    min: Math.min(...samples),
    max: Math.max(...samples),
    runs: samples.length,
  });
  const note = `Explorer.connections.refresh() against the mock in a worker thread, ${runs} fresh processes; heap after gc()`;
  say('memory: what a filter keeps per connection (50,000)');
  const find = await runSection('findMemory.mjs', { nodeArgs: ['--expose-gc'] });
  if (find.error) return find;
  const [perRow] = find.rows;
  const one = (value) => ({ median: value, min: value, max: value, runs: 1 });
  return {
    rows: [
      { section: 'memory', name: 'heap after 10 refreshes (10,000 items)', unit: 'MB', ...stat(at(10)), note },
      { section: 'memory', name: 'heap after 1,000 refreshes', unit: 'MB', ...stat(at(1000)) },
      {
        section: 'memory',
        name: 'growth 10 → 1,000 refreshes',
        unit: 'MB',
        ...stat(growth),
        target: '< 2 MB',
        ok: median(growth) < 2,
      },
      {
        section: 'memory',
        name: 'Find: heap per connection a filtered list keeps (50,000; filtered once)',
        unit: 'B',
        ...one(perRow.folded),
        note: 'FilterSubjects: each row folded (src/filter/filterMatch.ts); heap after gc(), one process',
      },
      {
        section: 'memory',
        name: 'Find: the same, filtered again (with the list index)',
        unit: 'B',
        ...one(perRow.indexed),
      },
    ],
    raw: results,
  };
}

const SECTIONS = {
  bundle: () => runSection('bundle.mjs'),
  activation: () => runSection('activation.mjs', { args: ['--starts', opts.starts] }),
  pipeline: () => runSection('pipeline.mjs', { nodeArgs: ['--expose-gc'] }),
  tree: () => runSection('tree.mjs', { nodeArgs: ['--expose-gc'] }),
  memory: () => memorySection(Number(opts['memory-runs'])),
  network: () => runSection('network.mjs'),
  worst: () => runSection('worst.mjs', { nodeArgs: ['--expose-gc'] }),
  history: () => runSection('history.mjs', { nodeArgs: ['--expose-gc'] }),
  text: () => runSection('text.mjs', { nodeArgs: ['--expose-gc'] }),
  services: () => runSection('services.mjs', { nodeArgs: ['--expose-gc'] }),
  bounds: () => runSection('bounds.mjs', { nodeArgs: ['--expose-gc'] }),
  fleet: () => runSection('fleet.mjs'),
  teamHistory: () => runSection('teamHistory.mjs', { nodeArgs: ['--expose-gc'] }),
  timeline: () => runSection('timeline.mjs', { nodeArgs: ['--expose-gc'] }),
  treeDrawn: () => runSection('treeDrawn.mjs'),
};

function formatValue(value, unit) {
  if (value === undefined || Number.isNaN(value)) return '';
  if (unit === 'B' || unit === 'req' || unit === 'items') return `${Math.round(value).toLocaleString('en-US')} ${unit}`;
  if (unit === 'x') return `${value.toFixed(2)}x`;
  const digits = Math.abs(value) < 1 ? 3 : Math.abs(value) < 100 ? 2 : 1;
  return `${value.toFixed(digits)} ${unit}`;
}

/** A change of a row's median beyond this share counts as a regression (rows with a target or a time only). */
const REGRESSION = 0.1;

/** The previous run's results (bench/results.json before this run overwrites it), or undefined. */
function readPrevious(file) {
  try {
    const previous = JSON.parse(fs.readFileSync(file, 'utf8'));
    return Array.isArray(previous?.rows) ? previous : undefined;
  } catch {
    return undefined;
  }
}

const rowKey = (r) => `${r.section}\u0000${r.name}`;

/**
 * The change of each row against the previous run: its previous median, the change in percent and whether it is a
 * regression (worse by more than REGRESSION on a row with a target or a time; for every unit here, lower is better).
 */
function compareRows(rows, previous) {
  const before = new Map((previous?.rows ?? []).map((r) => [rowKey(r), r]));
  return rows.map((r) => {
    const old = before.get(rowKey(r));
    if (!old || typeof old.median !== 'number' || typeof r.median !== 'number') return undefined;
    const change = old.median === 0 ? (r.median === 0 ? 0 : Infinity) : (r.median - old.median) / Math.abs(old.median);
    const watched = r.target !== undefined || r.unit === 'ms' || r.unit === 'x';
    return { median: old.median, change, regression: watched && change > REGRESSION };
  });
}

/** A row as measured, without the comparison fields a results file adds. */
function withoutComparison(r) {
  const copy = { ...r };
  delete copy.previous;
  delete copy.change;
  delete copy.regression;
  return copy;
}

function formatChange(c) {
  if (!c) return '';
  if (!Number.isFinite(c.change)) return 'new > 0';
  const pct = c.change * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(Math.abs(pct) < 10 ? 1 : 0)} %`;
}

function printTable(rows, failures, previous) {
  const changes = compareRows(rows, previous);
  const header = ['section', 'measure', 'median', 'min', 'max', 'runs', 'target', '', 'previous', 'change', ''];
  const lines = rows.map((r, i) => [
    r.section,
    r.name,
    formatValue(r.median, r.unit),
    formatValue(r.min, r.unit),
    formatValue(r.max, r.unit),
    String(r.runs),
    r.target ?? '',
    r.target ? (r.ok ? 'ok' : 'MISSED') : '',
    changes[i] ? formatValue(changes[i].median, r.unit) : '',
    formatChange(changes[i]),
    changes[i]?.regression ? 'REGRESSION' : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const right = new Set([2, 3, 4, 5, 8, 9]);
  const fmt = (cells) =>
    cells
      .map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  console.log('');
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  let lastSection;
  for (const [i, line] of lines.entries()) {
    if (lastSection !== undefined && rows[i].section !== lastSection) console.log('');
    lastSection = rows[i].section;
    console.log(fmt(line));
  }
  const notes = rows.filter((r) => r.note);
  if (notes.length) {
    console.log('\nnotes:');
    for (const r of notes) console.log(`  ${r.section}: ${r.note}`);
  }
  if (previous) {
    const regressions = changes.filter((c) => c?.regression).length;
    const compared = changes.filter(Boolean).length;
    console.log(
      `\nprevious: bench/results.json of ${previous.date ?? '?'} (commit ${previous.commit ?? '?'}); ${compared} of ${rows.length} rows compared, ` +
        `${regressions} regression${regressions === 1 ? '' : 's'} (median worse by more than ${REGRESSION * 100} % on a row with a target or a time)`,
    );
  } else {
    console.log('\nprevious: no earlier bench/results.json to compare with');
  }
  for (const [name, error] of failures) console.log(`\n${name}: NOT MEASURED — ${error}`);
}

function gitHead() {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

async function main() {
  const wanted = opts.only ? opts.only.split(',').map((s) => s.trim()) : Object.keys(SECTIONS);
  for (const name of wanted)
    if (!SECTIONS[name]) throw new Error(`unknown section "${name}" (known: ${Object.keys(SECTIONS).join(', ')})`);
  if (opts.compile) {
    say('compiling src and tests to out/ (npm run compile)');
    const r = spawnSync('npm', ['run', 'compile', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
    if (r.status !== 0) {
      if (!fs.existsSync(path.join(REPO_ROOT, 'out', 'src', 'lists', 'explorer.js')))
        throw new Error('npm run compile failed and out/src is missing');
      say('WARNING: npm run compile reported errors (above); benchmarking the JavaScript it emitted anyway');
    }
  }
  const rows = [];
  const failures = [];
  const raw = {};
  for (const name of wanted) {
    say(`section ${name}`);
    const started = Date.now();
    const result = await SECTIONS[name]();
    if (result.error) {
      failures.push([name, result.error]);
      say(`section ${name} FAILED: ${result.error}`);
      continue;
    }
    rows.push(...result.rows);
    if (result.raw) raw[name] = result.raw;
    say(`section ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const resultsFile = path.join(REPO_ROOT, 'bench', 'results.json');
  const previous = readPrevious(resultsFile);
  printTable(rows, failures, previous);
  const changes = compareRows(rows, previous);
  const results = {
    date: new Date().toISOString(),
    commit: gitHead(),
    node: process.version,
    cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}`,
    loadavg: os.loadavg(),
    seconds: Math.round((Date.now() - t0) / 1000),
    rows: rows.map((r, i) =>
      changes[i]
        ? {
            ...r,
            previous: changes[i].median,
            change: changes[i].change,
            ...(changes[i].regression ? { regression: true } : {}),
          }
        : r,
    ),
    raw,
    failures: Object.fromEntries(failures),
    // The run compared with; its rows without their own `previous`, so the file does not grow run after run.
    ...(previous
      ? {
          previous: {
            date: previous.date,
            commit: previous.commit,
            node: previous.node,
            loadavg: previous.loadavg,
            rows: previous.rows.map(withoutComparison),
          },
        }
      : {}),
  };
  fs.writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n');
  console.log(`\nwrote bench/results.json; whole run ${elapsed()}`);
  return failures.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[bench] ERROR: ${error?.stack ?? error}`);
    process.exit(1);
  },
);
