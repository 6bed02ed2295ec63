#!/usr/bin/env node
// `npm run test:e2e`: the UI suites (mocha, test/e2e/.mocharc.json) in three lanes side by side, one mocha process each.
//
//   session       the session's window (product, services, Show Log)
//   own-windows   suites whose every window is their own and that draw more than they wait: German (a code-server in
//                 another display language), Team History (two profiles, two code-servers, a real PostgreSQL), and the
//                 short suites with a window of their own (accessibility with Find, a level's pages, and the pages drawn
//                 from History: Flow Insights with the Run Timeline). Suites that need the same window share it: each
//                 window opened costs about 8 s of CPU (Chromium's 6, code-server's 2)
//   sharing       two windows on one profile and the service's request rate, read from when several polls arrive:
//                 about a minute of waiting, little drawing, so it runs beside the others from the start and its waits
//                 cost no time of their own
// The build (unless E2E_NO_BUILD=1), the VSIX (unless E2E_PACKAGED=1: npm test's package stage made it) and the
// screenshot folder are made once, here, before the lanes start.
// Each lane's output is printed whole when it ends; the run fails when any lane fails.
//   npm run test:e2e                          the three lanes
//   npm run test:e2e -- --grep "<title>"      mocha's options go to every lane (a lane with no match passes with none)
//   npm run test:e2e -- --lane own-windows    one lane (`npm test` runs each as a stage of its own: sharing from the
//                                             start, own-windows beside the integration suite, session after it); the
//                                             screenshot folder is left as is
//   npx mocha --config test/e2e/.mocharc.json every suite in one process, one after another (no lanes)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT, prepareRig } from '../rig/codeServer.mjs';
import { SCREENSHOT_DIR, buildAndPackage } from './workbench.mjs';

const E2E_DIR = path.join(REPO_ROOT, 'test', 'e2e');
/** The suites of the lanes without the session's window; the session lane runs every other `*.test.mjs` of test/e2e. */
const OWN_WINDOWS = [
  'german.test.mjs',
  'teamHistory.test.mjs',
  'accessibility.test.mjs',
  'paging.test.mjs',
  'historyPages.test.mjs',
];
const SHARING = ['sharing.test.mjs'];

/** Every suite mocha's config runs (each `*.test.mjs` under test/e2e), as paths from the repository's root. */
const suites = fs
  .readdirSync(E2E_DIR, { recursive: true })
  .filter((f) => f.endsWith('.test.mjs'))
  .map((f) => path.posix.join('test/e2e', f.split(path.sep).join('/')))
  .sort();
const missing = [...OWN_WINDOWS, ...SHARING].filter((f) => !suites.includes(`test/e2e/${f}`));
if (missing.length) fail(`no suite ${missing.join(', ')} in test/e2e (OWN_WINDOWS, SHARING in test/e2e/run.mjs)`);
const named = (names) => suites.filter((f) => names.includes(path.posix.relative('test/e2e', f)));
/** Each suite in exactly one lane. */
const LANES = [
  { name: 'session', files: suites.filter((f) => !named([...OWN_WINDOWS, ...SHARING]).includes(f)), env: {} },
  // No session window: the lane's suites open their own (E2E_SESSION_WINDOW=0, test/e2e/hooks.mjs).
  { name: 'own-windows', files: named(OWN_WINDOWS), env: { E2E_SESSION_WINDOW: '0' } },
  { name: 'sharing', files: named(SHARING), env: { E2E_SESSION_WINDOW: '0' } },
];

/** `--lane NAME` or `--lane=NAME`, at most once; every other argument goes to mocha. */
const args = [];
let only;
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg !== '--lane' && !arg.startsWith('--lane=')) {
    args.push(arg);
    continue;
  }
  const value = arg === '--lane' ? process.argv[++i] : arg.slice('--lane='.length);
  if (only !== undefined) fail('--lane given twice');
  if (!LANES.some((l) => l.name === value))
    fail(`--lane needs one of ${LANES.map((l) => l.name).join(', ')}${value ? ` (not "${value}")` : ''}`);
  only = value;
}
const lanes = LANES.filter((l) => only === undefined || l.name === only);
for (const lane of lanes) if (!lane.files.length) fail(`lane ${lane.name} has no suite`);

function fail(message) {
  console.error(`[e2e] ${message}`);
  process.exit(2);
}

const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

await prepareRig();
buildAndPackage();
if (only === undefined) fs.rmSync(SCREENSHOT_DIR, { recursive: true, force: true });
console.log(
  `[e2e] VSIX ${process.env.E2E_PACKAGED ? 'of the package stage' : 'packaged'}; lane${lanes.length > 1 ? 's' : ''} ${lanes.map((l) => `${l.name} (${l.files.length} suites)`).join(', ')} (${secs()})`,
);

const mocha = path.join(REPO_ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
/** Runs one lane's mocha; its output kept in a file and printed whole when it ends. Resolves to its exit code. */
function runLane(lane) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `flowsync-e2e-${lane.name}-`));
  const logFile = path.join(dir, 'out.log');
  const out = fs.openSync(logFile, 'w');
  const others = suites.filter((f) => !lane.files.includes(f)).flatMap((f) => ['--ignore', f]);
  const child = spawn(
    process.execPath,
    [mocha, '--config', 'test/e2e/.mocharc.json', ...(process.stdout.isTTY ? ['--color'] : []), ...others, ...args],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', out, out],
      env: { ...process.env, ...lane.env, E2E_PREPARED: '1' },
      detached: process.platform !== 'win32',
    },
  );
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child.pid);
      killGroup(child.pid); // whatever the lane left behind in its process group
      fs.closeSync(out);
      const status = code ?? (signal ? 1 : 0);
      console.log(`\n[e2e] lane ${lane.name}: ${status === 0 ? 'passed' : `FAILED (exit ${status})`} at ${secs()}`);
      process.stdout.write(fs.readFileSync(logFile, 'utf8'));
      fs.rmSync(dir, { recursive: true, force: true });
      resolve(status);
    }),
  );
  running.set(child.pid, exited);
  return exited;
}

/** The lanes still running: their mocha's pid, and when it has exited. */
const running = new Map();

/** SIGKILL to a lane's process group (its own: spawned detached); nothing when the group is gone. */
function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // gone
  }
}

// Ctrl+C, or npm test stopping this stage: each lane is told to stop and given the time to stop what it started (its
// rig stops its code-servers and browsers on SIGTERM, within 5 s: test/rig/processes.mjs), then whatever is left of
// it is killed.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  process.once(signal, async () => {
    for (const pid of running.keys()) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone
      }
    }
    await Promise.race([Promise.all(running.values()), sleep(8000)]);
    for (const pid of running.keys()) killGroup(pid);
    process.exit(code);
  });
}
process.on('exit', () => {
  for (const pid of running.keys()) killGroup(pid);
});

const progress = setInterval(() => console.log(`[e2e] ... lanes running (${secs()})`), 30_000);
const codes = await Promise.all(lanes.map(runLane));
clearInterval(progress);
const failed = codes.some((c) => c !== 0);
console.log(`\n[e2e] ${failed ? 'FAILED' : 'passed'}: ${lanes.map((l) => l.name).join(' and ')} ended (${secs()})`);
process.exit(failed ? 1 : 0);
