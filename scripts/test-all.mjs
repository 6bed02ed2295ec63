#!/usr/bin/env node
// `npm test`: every suite CI runs, with the time each stage took. Stops at the first failing stage.
//
// First the quick checks, one after another, each building on the one before: lint, type check, the contract, one
// production build and one compile of the tests (every later stage uses these: nothing is built twice), the size
// budgets and the unit tests; the rig (code-server, Node 24, Chromium) installs beside them. Then the four suites in a
// real VS Code, in two lanes that run side by side (integration, restricted and web; e2e, the longest): most of their
// time is spent waiting (a workbench starting, a backoff running out, a page drawing), not computing, so two of them
// share the machine's cores well. Each lane's output is kept and printed whole when its stage ends, so the log reads
// stage by stage; a line every 30 s says what is still running.
//   node scripts/test-all.mjs                 everything
//   node scripts/test-all.mjs unit e2e        only these stages (with the build when a later stage needs it)
//   node scripts/test-all.mjs --serial        the rig suites one after another (to compare, or on a 1-core machine)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The quick checks, in order. */
const checks = [
  ['lint', 'npm run lint --silent'],
  // The sources alone (tsconfig.json); the tests with them are type-checked by `compile` in the build stage.
  ['typecheck', 'npx tsc --noEmit -p tsconfig.json'],
  ['contract', 'node scripts/check-contract.mjs'],
  ['build', 'npm run build --silent && npm run compile --silent'],
  ['budgets', 'node scripts/check-budgets.mjs --no-build'],
  ['unit', 'npx mocha'],
];
/**
 * code-server, Node 24 and Chromium under .vscode-test/ (~2-3 min on a clean machine, mostly downloads; instant
 * after): started beside the quick checks, awaited before the lanes.
 */
const RIG = ['rig', 'npm run rig:prepare --silent'];

/** The suites in a real VS Code (code-server + headless Chromium), each lane in order, the lanes side by side. */
const lanes = [
  [
    ['integration', 'npm run test:integration --silent -- --no-build'],
    // The same rig with workspace trust on: an untrusted folder (Restricted Mode), test/integration/restricted/.
    ['restricted', 'npm run test:integration --silent -- --no-build --restricted'],
    // The browser build (package.json "browser") alone, in code-server's web worker extension host.
    ['web', 'npm run test:web --silent -- --no-build'],
  ],
  [['e2e', 'npm run test:e2e --silent', { E2E_NO_BUILD: '1' }]],
];

const args = process.argv.slice(2);
const serial = args.includes('--serial');
const only = args.filter((a) => !a.startsWith('--'));
const wanted = (name) =>
  !only.length ||
  only.includes(name) ||
  (name === 'build' && only.some((n) => n !== 'lint' && n !== 'typecheck' && n !== 'contract'));
const results = [];
const started = Date.now();

function record(name, ok, ms) {
  results.push(`${name.padEnd(12)} ${ok ? 'ok  ' : 'FAIL'} ${(ms / 1000).toFixed(1).padStart(7)} s`);
}

function finish(failed) {
  console.log('\n=== stage times');
  for (const line of results) console.log(line);
  console.log(
    `${'total'.padEnd(12)}      ${((Date.now() - started) / 1000).toFixed(1).padStart(7)} s${serial ? '' : ' (the rig suites in two lanes side by side)'}`,
  );
  process.exit(failed ? 1 : 0);
}

/** Runs one stage with its output in a file; resolves to its exit status. */
function runQuietly(name, command, env) {
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-test-')), `${name}.log`);
  const out = fs.openSync(logFile, 'w');
  const child = spawn(command, {
    shell: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...env },
    detached: process.platform !== 'win32',
  });
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  };
  process.once('exit', stop);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      process.off('exit', stop);
      fs.closeSync(out);
      resolve({ status: code ?? (signal ? 1 : 0), logFile });
    }),
  );
}

/** Prints a quietly run stage's output whole, then removes it. */
function printLog(name, command, logFile, env) {
  console.log(
    `\n=== ${name}: ${command}${
      env
        ? ` (${Object.entries(env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')})`
        : ''
    }`,
  );
  process.stdout.write(fs.readFileSync(logFile, 'utf8'));
  fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
}

const rigWanted = lanes.flat().some(([name]) => wanted(name));
const rigStarted = Date.now();
const rig = rigWanted ? runQuietly(RIG[0], RIG[1]) : undefined;
if (rig) console.log(`\n=== ${RIG[0]}: ${RIG[1]} (beside the quick checks; its output follows them)`);

for (const [name, command] of checks) {
  if (!wanted(name)) continue;
  console.log(`\n=== ${name}: ${command}`);
  const t0 = Date.now();
  const { status } = spawnSync(command, { shell: true, stdio: 'inherit' });
  record(name, status === 0, Date.now() - t0);
  if (status !== 0) finish(true);
}

if (rig) {
  const waiting = setInterval(
    () => console.log(`... ${RIG[0]}: still installing, ${Math.round((Date.now() - rigStarted) / 1000)} s`),
    30_000,
  );
  const { status, logFile } = await rig;
  clearInterval(waiting);
  printLog(RIG[0], RIG[1], logFile);
  record(RIG[0], status === 0, Date.now() - rigStarted);
  if (status !== 0) finish(true);
}

const running = new Map();
let failed = false;

async function runLane(lane) {
  for (const [name, command, env] of lane) {
    if (!wanted(name) || failed) continue;
    const t0 = Date.now();
    running.set(name, t0);
    const { status, logFile } = serial
      ? { status: spawnSync(command, { shell: true, stdio: 'inherit', env: { ...process.env, ...env } }).status }
      : await runQuietly(name, command, env);
    running.delete(name);
    if (logFile) printLog(name, command, logFile, env);
    record(name, status === 0, Date.now() - t0);
    if (status !== 0) failed = true;
  }
}

if (serial) {
  for (const lane of lanes) for (const stage of lane) await runLane([stage]);
} else {
  const progress = setInterval(() => {
    const now = Date.now();
    const names = [...running].map(([name, t0]) => `${name} ${Math.round((now - t0) / 1000)} s`);
    if (names.length) console.log(`... running: ${names.join(', ')}`);
  }, 30_000);
  await Promise.all(lanes.map(runLane));
  clearInterval(progress);
}
finish(failed);
