#!/usr/bin/env node
// `npm test`: every suite CI runs, with the time each stage took. Stops at the first failing stage.
//
// Each stage starts as soon as the stages it needs have passed, so the machine's cores are kept busy:
//   lint                      (ESLint and Prettier: on its own, from the start)
//   typecheck -> contract     (the sources alone, without the test types)
//   build                     (one production build and one compile of the tests: every later stage uses these)
//   build -> package          (the VSIXs the UI stages install, packaged once: test/rig/package.mjs)
//   build -> unit             (mocha --parallel, one worker per core; its slowest test takes 1.2 s of its 10 s)
//   rig                       (code-server, Node 24, Chromium under .vscode-test/: installed from the start)
//   rig + package -> e2e-sharing (the e2e sharing lane: two windows mostly waiting for the service's polls), beside
//                  the unit tests -> restricted -> e2e (its session lane)
//   rig + unit -> the suites in a real VS Code that draw most, in two lanes:
//                  integration
//                  e2e-windows (its own-windows lane) -> web
// The stages nothing waits for (lint, typecheck, contract, budgets: `filler`) run at a lower CPU priority (nice 5), as
// do the UI suites, and the build's followers that the drawing lanes wait for (package, unit: `first`) at a higher
// one (a root user's run), so that they end first: Linux shares the CPU between scheduling groups, not processes, and
// the unit tests' two workers, one group, got one core of two beside the sharing lane (46 - 53 s; 27 s alone).
// The suites in a real VS Code are never all side by side: each keeps a core busy drawing its workbench (Chromium's
// renderer is most of their CPU), so on 2 cores the four heavy ones side by side took about as long as one after the
// other (warm: 788 s side by side, load 6-7; 740 s one after another; again on a faster machine: 299 s side by side,
// 324 s one after another, the machine 99 % busy while they overlapped) and every UI step waited on a machine at twice
// the load. The e2e suites' sharing lane (test/e2e/run.mjs), which mostly waits for the service's polls, runs from the
// start beside the unit tests, followed in its lane by Restricted Mode and the e2e session lane; the integration suite
// in one lane, the e2e own-windows lane and then the web build in the other, after the unit tests (beside the drawing
// lanes the unit tests took 198 - 210 s instead of about 40, and met their 10 s timeouts). The lanes end within
// about 20 s of each other (docs/performance.md: at 2026-11-29's main, quiet, 242.8 - 296.9 s, the machine's CPU
// divided by its two cores).
// The screenshot folder is emptied once, at the start, when an
// e2e stage is part of the run. Each stage's output is kept and printed whole when it ends, so the log
// reads stage by stage; a line every 30 s says what is still running; the stage times close the run.
//   node scripts/test-all.mjs                 everything
//   node scripts/test-all.mjs unit e2e        only these stages (with the build and the rig when they need them)
//   node scripts/test-all.mjs --serial        every stage one after another, its output as it comes (to compare, or
//                                             on a 1-core machine)
//   node scripts/test-all.mjs --busy          with a CPU hog keeping one core busy for the whole run (a child process
//                                             spinning, stopped at the end): flakes show up here as on a loaded laptop
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** TypeScript's compiler, run by node: `npx tsc` starts npm first (a second of CPU on a loaded 2-core machine). */
const TSC = 'node node_modules/typescript/bin/tsc';
/**
 * The CPU priority (nice: 0 is the default, 19 the lowest) of a filler stage and of a suite in a real VS Code (`ui`):
 * below the build and the unit tests, which they start beside (the unit tests' property tests have 10 s timeouts; a UI
 * step waits for what it waits for, however long), and alike, so that neither starves the other: at nice 10 below the
 * UI stages, a clean clone's lint (no cache) got a tenth of a core and ended last (321 s at load 13-17).
 */
const BACKGROUND_NICE = 5;
/**
 * The scheduling group's nice of the stages the drawing lanes wait for (`first`: the package and the unit tests; a root
 * user's run only, as nothing else may raise a priority). Linux shares the CPU between scheduling groups by their nice,
 * whatever the number of processes in each: the unit tests' two mocha workers at 0 beside the e2e sharing lane's groups
 * (its mocha, Chromium and code-server) and the fillers at 5 got one core of two (46 - 53 s; 27 s alone), and the
 * suites that wait for them started that much later (at -10: 30 - 34 s).
 */
const FIRST_NICE = -10;
/** The unit tests' mocha workers: one per core, at least two (mocha's default, one less than the cores, is one here). */
const UNIT_JOBS = Math.max(2, os.availableParallelism?.() ?? os.cpus().length);

/**
 * Every stage: its name, its command, the stages it needs (run with it, and it starts once they have passed), `after`:
 * stages it waits for when they are part of the run (the one before it in its lane: e2e-sharing, restricted and e2e
 * share one; e2e-windows and web another, after the unit tests), `with`: stages run with it when it is asked for alone, its env.
 * `filler`: no later stage waits for it (but the end of the run), so it runs at a lower CPU priority (nice 5): on 2
 * cores the build and the unit tests, which every suite in a real VS Code waits for, get a core whenever they want one,
 * and the checks beside them take the rest.
 */
const STAGES = [
  { name: 'lint', command: 'npm run lint --silent', needs: [], filler: true },
  // The sources alone (tsconfig.json: no mocha types); the tests with them are type-checked by `compile` in `build`.
  // Incremental: a second run re-checks what changed (the state file is tsc's own; a clean clone has none).
  {
    name: 'typecheck',
    command: `${TSC} --noEmit -p tsconfig.json --incremental --tsBuildInfoFile out/.tsbuildinfo-src`,
    needs: [],
    filler: true,
  },
  { name: 'contract', command: 'node scripts/check-contract.mjs', needs: ['typecheck'], filler: true },
  // `npm run build && npm run compile`, without npm's start-up on the critical path.
  { name: 'build', command: `node esbuild.js --production && ${TSC} -p tsconfig.test.json`, needs: [] },
  // --check: docs/performance.md's now table must be what it measures (npm run check:budgets writes it)
  // --vsix: the VSIX the package stage made from the same dist/ (checked: it holds the bundle measured), not another
  {
    name: 'budgets',
    command: 'node scripts/check-budgets.mjs --no-build --check --vsix out/flowsync-explorer.vsix',
    needs: ['build', 'package'],
    filler: true,
  },
  // The VSIXs the UI stages install (the e2e lanes' and the web stage's web-only one), packaged once beside the unit
  // tests: no stage in a real VS Code packages one (test/rig/package.mjs). Not a filler: the UI stages wait for it.
  { name: 'package', command: 'node test/rig/package.mjs', needs: ['build'], first: true },
  // Before the suites in a real VS Code, never beside them: its property tests have 10 s timeouts, which two runs at
  // load 20-29 on 2 cores met with e2e running beside them (the slowest test takes 1.2 s alone). One mocha worker per
  // core (the files spread over them), the fillers beside it at a lower priority. The store tests of team History need
  // a PostgreSQL (test/rig/postgres.mjs starts one): installed first where missing.
  // `first`: its scheduling group above the others (FIRST_NICE), as the two suites that draw most wait for it.
  {
    name: 'unit',
    command: `node test/rig/postgres.mjs prepare && node node_modules/mocha/bin/mocha.js --parallel --jobs ${UNIT_JOBS}`,
    needs: ['build'],
    first: true,
  },
  // ~2-3 min on a clean machine, mostly downloads; instant after.
  { name: 'rig', command: 'node test/rig/prepare.mjs', needs: [] },
  {
    name: 'integration',
    command: 'node test/rig/run-integration.mjs --no-build',
    needs: ['build', 'rig'],
    after: ['unit'],
    ui: true,
  },
  // The same rig with workspace trust on: an untrusted folder (Restricted Mode), test/integration/restricted/. In the
  // sharing lane's line, after it.
  {
    name: 'restricted',
    command: 'node test/rig/run-integration.mjs --no-build --restricted',
    needs: ['build', 'rig'],
    after: ['e2e-sharing'],
    ui: true,
  },
  // The browser build (package.json "browser") alone, in code-server's web worker extension host; after the e2e
  // own-windows lane, in its lane (the integration suite, without Playwright since, ends later: docs/performance.md).
  {
    name: 'web',
    command: 'node test/rig/run-web.mjs --no-build --no-package',
    needs: ['build', 'rig', 'package'],
    after: ['e2e-windows'],
    ui: true,
  },
  // The e2e suites' three lanes (test/e2e/run.mjs) as three stages: the sharing lane (two windows on one profile: it
  // mostly waits for the service's polls) from the start, beside the unit tests; the own-windows lane beside the
  // integration suite; the session lane after Restricted Mode, in the sharing lane's line.
  {
    name: 'e2e-sharing',
    command: 'node test/e2e/run.mjs --lane sharing',
    needs: ['build', 'rig', 'package'],
    env: { E2E_PACKAGED: '1' },
    ui: true,
  },
  {
    name: 'e2e-windows',
    command: 'node test/e2e/run.mjs --lane own-windows',
    needs: ['build', 'rig', 'package'],
    after: ['unit'],
    env: { E2E_PACKAGED: '1' },
    ui: true,
  },
  {
    name: 'e2e',
    command: 'node test/e2e/run.mjs --lane session',
    needs: ['build', 'rig', 'package'],
    after: ['restricted'],
    env: { E2E_PACKAGED: '1' },
    with: ['e2e-windows', 'e2e-sharing'],
    ui: true,
  },
];

const args = process.argv.slice(2);
const serial = args.includes('--serial');
const busy = args.includes('--busy');
const only = args.filter((a) => !a.startsWith('--'));
const unknown = only.filter((n) => !STAGES.some((s) => s.name === n));
if (unknown.length) {
  console.error(`unknown stage(s): ${unknown.join(', ')} (stages: ${STAGES.map((s) => s.name).join(', ')})`);
  process.exit(2);
}
const wanted = (name) =>
  !only.length ||
  only.includes(name) ||
  // what a wanted stage needs, or runs with (`with`: the e2e stage's other lane)
  STAGES.some((s) => only.includes(s.name) && (s.needs.includes(name) || s.with?.includes(name)));
const stages = STAGES.filter((s) => wanted(s.name));
// Each e2e stage runs one lane and leaves the screenshot folder as it is (test/e2e/run.mjs --lane): emptied here, once.
if (stages.some((s) => s.name.startsWith('e2e')))
  fs.rmSync(path.join(import.meta.dirname, '..', 'test-results', 'screenshots'), { recursive: true, force: true });
const started = Date.now();
const results = [];

/** A child process spinning on one core until the run ends (--busy). */
const hog = busy
  ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore', detached: process.platform !== 'win32' })
  : undefined;
if (hog) console.log(`=== --busy: a CPU hog (pid ${hog.pid}) keeps one core busy until the end of the run`);

/** Process groups of the stages running now, stopped if the run ends early (a failure, Ctrl+C). */
const children = new Set();
function stopAll() {
  for (const child of [...children, ...(hog ? [hog] : [])]) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  }
}
process.once('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

function finish(failed) {
  const secs = (ms) => (ms / 1000).toFixed(1).padStart(7);
  console.log('\n=== stage times (start, end: seconds since the run began)');
  for (const r of results)
    console.log(
      `${r.name.padEnd(12)} ${r.ok ? 'ok  ' : 'FAIL'} ${secs(r.end - r.start)} s   ${secs(r.start - started)} ${secs(r.end - started)}`,
    );
  const load = os.loadavg().map((l) => l.toFixed(2));
  console.log(
    `${'total'.padEnd(12)}      ${secs(Date.now() - started)} s${serial ? ' (one stage at a time)' : ''}${busy ? ' (--busy: one core kept busy)' : ''}; load average ${load.join(' ')} on ${os.cpus().length} cores`,
  );
  process.exitCode = failed ? 1 : 0;
  stopAll();
  process.exit(failed ? 1 : 0);
}

/** Runs one stage; its output in a file (printed whole when it ends), or as it comes with --serial. */
function run({ name, command, env, filler, ui, first }) {
  const logDir = serial ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-test-'));
  const logFile = logDir && path.join(logDir, `${name}.log`);
  const out = logFile ? fs.openSync(logFile, 'w') : 'inherit';
  const envText = env
    ? ` (${Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')})`
    : '';
  if (serial) console.log(`\n=== ${name}: ${command}${envText}`);
  const start = Date.now();
  // A filler's or a UI suite's command is one command, so `nice` runs all of it (and what it starts); Windows has no nice.
  const nice = !serial && (filler || ui) ? BACKGROUND_NICE : 0;
  const niced = nice > 0 && process.platform !== 'win32';
  const child = spawn(niced ? `nice -n ${nice} ${command}` : command, {
    shell: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...env },
    detached: process.platform !== 'win32',
  });
  if (nice > 0 && process.platform === 'win32') os.setPriority(child.pid, nice);
  // A stage runs in a session of its own (detached), and Linux schedules each session as one group (autogroup) with an
  // equal share of the CPU whatever nice its processes have: the group's own nice is what ranks the stages.
  const groupNice = first && !serial && process.getuid?.() === 0 ? FIRST_NICE : niced ? nice : 0;
  if (groupNice !== 0 && process.platform === 'linux') {
    try {
      fs.writeFileSync(`/proc/${child.pid}/autogroup`, String(groupNice));
    } catch {
      // no autogroup (a kernel without it): the processes' nice above is what counts
    }
  }
  children.add(child);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (logFile) {
        fs.closeSync(out);
        console.log(`\n=== ${name}: ${command}${envText}`);
        process.stdout.write(fs.readFileSync(logFile, 'utf8'));
        fs.rmSync(logDir, { recursive: true, force: true });
      }
      const ok = (code ?? (signal ? 1 : 0)) === 0;
      results.push({ name, ok, start, end: Date.now() });
      resolve(ok);
    }),
  );
}

if (serial) {
  for (const stage of stages) if (!(await run(stage))) finish(true);
  finish(false);
} else {
  const done = new Map(); // name -> Promise<boolean>
  const running = new Map();
  const progress = setInterval(() => {
    const now = Date.now();
    const names = [...running].map(([name, t0]) => `${name} ${Math.round((now - t0) / 1000)} s`);
    if (names.length) console.log(`... running: ${names.join(', ')}`);
  }, 30_000);
  const start = (stage) => {
    if (done.has(stage.name)) return done.get(stage.name);
    const before = [...stage.needs, ...(stage.after ?? [])].filter((n) => stages.some((s) => s.name === n));
    const promise = Promise.all(before.map((n) => start(stages.find((s) => s.name === n)))).then(async (oks) => {
      if (!oks.every(Boolean)) return false;
      running.set(stage.name, Date.now());
      const ok = await run(stage);
      running.delete(stage.name);
      if (!ok) {
        clearInterval(progress);
        finish(true); // stops the stages still running
      }
      return ok;
    });
    done.set(stage.name, promise);
    return promise;
  };
  console.log(
    `=== ${stages.map((s) => s.name).join(', ')}: each starts when what it needs has passed; output follows as each ends`,
  );
  const oks = await Promise.all(stages.map(start));
  clearInterval(progress);
  finish(!oks.every(Boolean));
}
