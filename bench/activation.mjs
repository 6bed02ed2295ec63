#!/usr/bin/env node
// Activation time in the real extension host: VS Code 1.139 (code-server) + headless Chromium, from test/rig.
//
// Each start is fresh (new code-server, new user-data-dir and extensions dir, new browser context). The extension is
// loaded as an extension under development from a throwaway copy in the OS temp dir whose package.json is the real one
// except `main`, which points at bench/activation/shim.js: the shim require()s the real production dist/extension.js
// (timing the code load) and calls its activate(context) with the context VS Code passes (timing the call). Activation
// events are untouched, so VS Code activates the extension itself (onStartupFinished); if the suite
// (bench/activation/index.js, run by the smoke-test driver) gets there first, it calls ext.activate() and also times
// that from outside.
//
//   node bench/activation.mjs [--starts 10]     builds dist/extension.js (production); needs the rig (npm run rig:prepare);
//                                               each start twice, alternately: no settings, and a service URL set
//   node bench/activation.mjs --profile         also says, per start, which VS Code API calls activate() spent its time in
//                                               (the timing wrappers cost a little: not for the figures of record)
//   node bench/activation.mjs --floor           the floor of a start: bench/activation/floor.js in place of the bundle,
//                                               making only the VS Code calls activate() makes (its rows' section is
//                                               `activation floor`): VS Code's part of the figures, the rest is ours
//   node bench/activation.mjs --cpu-profile DIR  also writes each start's V8 CPU profile of the code load and activate()
//                                               to DIR/start-<time>.cpuprofile (sampled every 50 µs; not for the figures of
//                                               record either); bench/lib/cpuProfile.mjs DIR sums them by function and file
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  devPayload,
  freshWorkspace,
  launchBrowser,
  openWorkbench,
  prepareRig,
  startCodeServer,
} from '../test/rig/codeServer.mjs';
import { interrupted } from '../test/rig/processes.mjs';
import { buildProduction } from '../scripts/check-budgets.mjs';
import { REPO_ROOT, emitRows, progress, row } from './lib/common.mjs';

const { values: opts } = parseArgs({
  options: {
    starts: { type: 'string', default: '10' },
    profile: { type: 'boolean', default: false },
    floor: { type: 'boolean', default: false },
    'cpu-profile': { type: 'string' },
  },
});
const STARTS = Math.max(1, Number(opts.starts));
/** The rows' section: --floor's are apart, never compared with the real start's. */
const SECTION = opts.floor ? 'activation floor' : 'activation';
const START_TIMEOUT_MS = 120_000;
const say = (m) => progress('activation', m);

/**
 * A fresh production build into `dir` (its start bundle at `copy`, its chunks beside it), copied at once and checked: on
 * a shared work tree another build (the test rig makes development builds) may rewrite dist/ at any moment.
 */
function copyProductionBundle(dir, copy) {
  for (let attempt = 1; ; attempt++) {
    buildProduction({ sourceMap: Boolean(opts['cpu-profile']) });
    fs.copyFileSync(path.join(REPO_ROOT, 'dist', 'extension.js'), copy);
    if (opts['cpu-profile']) {
      fs.mkdirSync(path.resolve(opts['cpu-profile']), { recursive: true });
      // the bundle profiled and its source map, to read a sample's place in the minified code
      for (const name of ['extension.js', 'extension.js.map'])
        fs.copyFileSync(path.join(REPO_ROOT, 'dist', name), path.join(path.resolve(opts['cpu-profile']), name));
    }
    fs.cpSync(path.join(REPO_ROOT, 'dist', 'chunks'), path.join(dir, 'dist', 'chunks'), { recursive: true }); // required on first use
    if (!fs.readFileSync(copy, 'utf8').includes('//# sourceMappingURL=')) return;
    if (attempt >= 3)
      throw new Error('dist/extension.js keeps being replaced by a development build (another build running?)');
  }
}

/** The throwaway extension folder: real manifest and assets, real bundle (--floor: the floor start), `main` = the timing shim. */
function makeExtensionCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-bench-ext-'));
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  manifest.main = './bench-main.js';
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  for (const name of fs.readdirSync(REPO_ROOT)) {
    if (/^package\.nls.*\.json$/.test(name)) fs.copyFileSync(path.join(REPO_ROOT, name), path.join(dir, name));
  }
  for (const sub of ['l10n', 'media']) {
    if (fs.existsSync(path.join(REPO_ROOT, sub)))
      fs.cpSync(path.join(REPO_ROOT, sub), path.join(dir, sub), { recursive: true });
  }
  fs.mkdirSync(path.join(dir, 'dist'));
  const copy = path.join(dir, 'dist', 'extension.js');
  if (opts.floor) fs.copyFileSync(path.join(REPO_ROOT, 'bench', 'activation', 'floor.js'), copy);
  else copyProductionBundle(dir, copy);
  say(`${opts.floor ? 'the floor start' : 'production bundle'} ${fs.statSync(copy).size} bytes copied to ${dir}`);
  fs.copyFileSync(path.join(REPO_ROOT, 'bench', 'activation', 'shim.js'), path.join(dir, 'bench-main.js'));
  fs.copyFileSync(path.join(REPO_ROOT, 'bench', 'activation', 'index.js'), path.join(dir, 'bench-suite.js'));
  if (opts.profile) fs.writeFileSync(path.join(dir, 'bench-profile.json'), '{}\n');
  if (opts['cpu-profile']) {
    const out = path.resolve(opts['cpu-profile']);
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(dir, 'bench-cpuprofile.json'), JSON.stringify({ dir: out }));
  }
  return dir;
}

/**
 * The two starts measured, alternately: a profile without Flow Sync settings (the first start after installing: the
 * first configuration runs inside activate()), and one with a service URL (every later start: the key is read from
 * SecretStorage, so the first configuration runs after activate() returns). No key is stored: nothing is requested.
 */
const SCENARIOS = [
  { name: 'fresh', label: 'no settings', settings: {} },
  { name: 'setUp', label: 'service URL set', settings: { 'flowsync.baseUrl': 'https://127.0.0.1:9' } },
];

async function oneStart(rig, browser, extDir, index, scenario) {
  const started = Date.now();
  const server = await startCodeServer({
    rig,
    name: 'bench-activation',
    smokeTestDriver: true,
    quiet: true,
    settings: scenario.settings,
  });
  const workspace = freshWorkspace('bench-activation');
  let wb;
  let timer;
  let figures;
  try {
    wb = await openWorkbench({
      server,
      browser,
      name: 'bench-activation',
      folder: workspace,
      payload: devPayload(server, {
        extensionDevelopmentPath: extDir,
        extensionTestsPath: path.join(extDir, 'bench-suite.js'),
      }),
      waitReady: false,
      onLog: (line) => {
        const at = line.indexOf('FLOWSYNC_BENCH_ACTIVATION ');
        if (at >= 0) figures = JSON.parse(line.slice(at + 'FLOWSYNC_BENCH_ACTIVATION '.length));
      },
    });
    const timeout = new Promise((r) => (timer = setTimeout(() => r('timeout'), START_TIMEOUT_MS)));
    const outcome = await Promise.race([wb.exitCode, timeout]);
    if (outcome === 'timeout')
      throw new Error(`start ${index}: no result within ${START_TIMEOUT_MS / 1000} s (workbench log ${wb.logFile})`);
    if (outcome !== 0 || !figures)
      throw new Error(`start ${index}: the bench suite failed (exit ${outcome}); workbench log ${wb.logFile}`);
  } finally {
    clearTimeout(timer);
    await wb?.close();
    await server.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  const how = figures.wasActive
    ? 'already active when the suite ran (onStartupFinished)'
    : figures.startedByVsCode
      ? `VS Code had begun activating it (onStartupFinished) ${figures.askedAt - figures.loadStartedAt} ms before the suite's ext.activate(), which waited ${figures.outerMs.toFixed(1)} ms`
      : `activated by the suite's ext.activate(): ${figures.outerMs.toFixed(1)} ms from outside`;
  const cpu = figures.cpuMs === undefined ? '' : ` (CPU ${figures.cpuMs.toFixed(2)} ms)`;
  const loadCpu = figures.loadCpuMs === undefined ? '' : ` (CPU ${figures.loadCpuMs.toFixed(2)} ms)`;
  const gc = figures.gcMs ? `, GC ${figures.gcMs.toFixed(2)} ms of them` : '';
  const made =
    figures.madeMs === undefined ? '' : `, services made ${figures.madeMs.toFixed(2)} ms after the load began`;
  say(
    `start ${index}/${STARTS} (${scenario.label}): activate() ${figures.activateMs.toFixed(2)} ms${cpu}, code load ${figures.loadMs.toFixed(2)} ms${loadCpu}${gc}${made}; ${how} [${((Date.now() - started) / 1000).toFixed(1)} s]`,
  );
  if (figures.profile) {
    const calls = Object.entries(figures.profile).sort((a, b) => b[1].ms - a[1].ms);
    const inApi = calls.reduce((sum, [, c]) => sum + c.ms, 0);
    say(`  in VS Code API calls ${inApi.toFixed(2)} ms, in our own code ${(figures.activateMs - inApi).toFixed(2)} ms`);
    for (const [name, c] of calls.slice(0, 15)) say(`  ${name} x${c.count}: ${c.ms.toFixed(2)} ms`);
  }
  return figures;
}

/** The load average (1 minute) of the machine now, and its cores: what the CPU rows ran under. */
const loadNow = () => os.loadavg()[0];

async function main() {
  const loads = [loadNow()];
  say(`load average ${loads[0].toFixed(2)} (1 min) on ${os.cpus().length} cores`);
  const rig = await prepareRig();
  const extDir = makeExtensionCopy();
  let browser;
  const runs = [];
  const setUpRuns = [];
  try {
    browser = await launchBrowser(rig);
    for (let i = 1; i <= STARTS; i++) {
      runs.push(await oneStart(rig, browser, extDir, i, SCENARIOS[0]));
      setUpRuns.push(await oneStart(rig, browser, extDir, i, SCENARIOS[1]));
      loads.push(loadNow());
    }
  } finally {
    await browser?.close();
    fs.rmSync(extDir, { recursive: true, force: true });
  }
  const vscodeVersion = runs[0]?.vscode;
  const byVsCode = runs.filter((r) => r.startedByVsCode).length;
  const note = `VS Code ${vscodeVersion} (code-server) extension host, ${STARTS} fresh starts; ${opts.floor ? 'the floor start (--floor)' : 'production bundle'}, no flowsync settings; VS Code triggered the activation itself in ${byVsCode} of ${STARTS}`;
  const rows = [
    row(
      SECTION,
      'activate() call (real context)',
      'ms',
      runs.map((r) => r.activateMs),
      { target: { max: 8, text: '<= 8 ms' }, note },
    ),
    ...(runs.every((r) => r.cpuMs !== undefined)
      ? [
          row(
            SECTION,
            '  of which on the CPU (main thread; the rest it waited for a core)',
            'ms',
            runs.map((r) => r.cpuMs),
          ),
        ]
      : []),
    row(
      SECTION,
      'code load: require(dist/extension.js)',
      'ms',
      runs.map((r) => r.loadMs),
    ),
    ...(runs.every((r) => r.loadCpuMs !== undefined)
      ? [
          row(
            SECTION,
            '  code load on the CPU (main thread)',
            'ms',
            runs.map((r) => r.loadCpuMs),
          ),
        ]
      : []),
    row(
      SECTION,
      'code load + activate()',
      'ms',
      runs.map((r) => r.loadMs + r.activateMs),
      {
        target: { max: 8, text: '<= 8 ms' },
        note: 'the eager bundle only: the chunks (dist/chunks) are required on first use, after activate()',
      },
    ),
    ...(runs.every((r) => r.loadCpuMs !== undefined && r.cpuMs !== undefined)
      ? [
          row(
            SECTION,
            '  code load + activate() on the CPU (main thread)',
            'ms',
            runs.map((r) => r.loadCpuMs + r.cpuMs),
            {
              // issue #50: a bench row, not a test (a loaded machine is slower, not wrong); the load it ran under is said
              target: { max: 6, text: '<= 6 ms' },
              note: `median of ${STARTS} fresh starts, under a load average (1 min) of ${Math.min(...loads).toFixed(2)} – ${Math.max(...loads).toFixed(2)} on ${os.cpus().length} cores (a quiet machine is under 1)`,
            },
          ),
        ]
      : []),
    ...(runs.every((r) => r.gcMs !== undefined)
      ? [
          row(
            SECTION,
            "  of which garbage collection (the extension host's one heap: any code's allocations)",
            'ms',
            runs.map((r) => r.gcMs),
          ),
          row(
            SECTION,
            '  code load + activate() without the garbage collection',
            'ms',
            runs.map((r) => r.loadMs + r.activateMs - r.gcMs),
          ),
        ]
      : []),
    ...(runs.every((r) => r.madeMs !== undefined)
      ? [
          row(
            SECTION,
            'code load + activate() + the services made (their chunk loaded after activate() returns)',
            'ms',
            runs.map((r) => r.madeMs),
            {
              note: 'wall time from the start of the code load until the registry has made the services (its first change event), including whatever the extension host ran in between (other extensions activating): what a start takes until there is something to show',
            },
          ),
          ...(runs.every((r) => r.madeCpuMs !== undefined)
            ? [
                row(
                  SECTION,
                  '  on the CPU (main thread)',
                  'ms',
                  runs.map((r) => r.madeCpuMs),
                ),
              ]
            : []),
        ]
      : []),
    row(
      SECTION,
      'activate() with a service URL set (later starts; key read after it returns)',
      'ms',
      setUpRuns.map((r) => r.activateMs),
      {
        note: `the same ${STARTS} starts alternated with a profile whose user settings hold flowsync.baseUrl (no key stored, nothing requested)`,
      },
    ),
    ...(setUpRuns.every((r) => r.cpuMs !== undefined)
      ? [
          row(
            SECTION,
            '  of which on the CPU',
            'ms',
            setUpRuns.map((r) => r.cpuMs),
          ),
        ]
      : []),
  ];
  emitRows(rows);
}

main().then(
  () => process.exit(0),
  (error) => {
    if (interrupted()) return;
    console.error(`[bench:activation] ERROR: ${error?.stack ?? error}`);
    process.exit(1);
  },
);
