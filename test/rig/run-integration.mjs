#!/usr/bin/env node
// `npm run test:integration`: runs the integration suite (out/test/integration/index.js, mocha inside the extension host)
// in a real VS Code, offline: code-server with the smoke-test driver + headless Chromium, opened on the DevTools
// protocol's pipe (test/rig/pipeWindow.mjs: nothing here drives the page). Exits with the suite's code.
//
//   npm run test:integration                         build, compile, run everything
//   npm run test:integration -- --grep "showLog"     only matching tests (mocha grep, passed as MOCHA_GREP)
//   npm run test:integration -- --no-build           skip `node esbuild.js` and `npm run compile`
//   npm run test:integration -- --timeout 600        overall limit in seconds (default 900)
//   npm run test:integration -- --verbose            also print the workbench's own log lines (always in the log file)
//   npm run test:integration -- --restricted         the Restricted Mode suite (test/integration/restricted/) instead:
//                                                    workspace trust on, an untrusted folder whose .vscode/settings.json
//                                                    points flowsync.baseUrl at an "attacker" mock this launcher runs,
//                                                    and an installed extension whose configurationDefaults do too
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { interrupted } from './processes.mjs';
import {
  REPO_ROOT,
  WORKSPACE_TRUST_SETTINGS,
  buildProject,
  devPayload,
  extensionLogTail,
  freshWorkspace,
  keepExtensionLogs,
  prepareRig,
  startCodeServer,
  workbenchUrl,
} from './codeServer.mjs';
import { openPipeWindow } from './pipeWindow.mjs';

const { values: opts } = parseArgs({
  options: {
    grep: { type: 'string' },
    build: { type: 'boolean', default: true },
    timeout: { type: 'string', default: '900' },
    verbose: { type: 'boolean', default: false },
    restricted: { type: 'boolean', default: false },
  },
  allowNegative: true,
});
const overallMs = Number(opts.timeout) * 1000;
const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const suite = opts.restricted ? 'restricted' : 'integration';
const say = (msg) => console.log(`[${suite}] ${msg}`);

async function main() {
  const rig = await prepareRig();
  if (opts.build) {
    say('building dist/extension.js (node esbuild.js) and compiling the tests (npm run compile)');
    buildProject();
  }
  const testsPath = path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js');
  if (!fs.existsSync(testsPath)) throw new Error(`${testsPath} is missing: run npm run compile`);
  if (opts.grep) process.env.MOCHA_GREP = opts.grep; // inherited by code-server's extension host
  if (opts.restricted) process.env.FLOWSYNC_SUITE = 'restricted'; // test/integration/index.ts runs only that folder
  // The machine trusts a private certificate authority, as a company's machines do (test/integration/tls.test.ts):
  // Node reads NODE_EXTRA_CA_CERTS once, when code-server's extension host starts.
  process.env.NODE_EXTRA_CA_CERTS = path.join(REPO_ROOT, 'test', 'fixtures', 'tls', 'ca.pem');

  // The Restricted Mode window: trust on, and an untrusted folder that tries to send the key elsewhere. The attacker
  // mock runs here, from before the window opens until after it closes, so that no request to it can go unseen.
  const attacker = opts.restricted ? await startAttacker() : undefined;
  // Log at Trace: the sentinel check below then covers the most verbose logs VS Code and the extension can write.
  const server = await startCodeServer({
    rig,
    name: suite,
    smokeTestDriver: true,
    logLevel: 'trace',
    ...(attacker
      ? { workspaceTrust: true, settings: WORKSPACE_TRUST_SETTINGS, vsix: [attackerDefaults(attacker.url)] }
      : {}),
  }).catch(async (error) => {
    await attacker?.close();
    throw error;
  });
  let wb;
  let timer;
  const workspace = freshWorkspace(suite);
  if (attacker) writeAttackerSettings(workspace, attacker.url);
  try {
    say(`workspace ${workspace}; running the suite in the extension host (${secs()} so far)`);
    // Nobody drives this window's page: the suite drives the extension host. So no Playwright (test/rig/pipeWindow.mjs:
    // the DevTools protocol's pipe, a blank page in front of the workbench).
    wb = await openPipeWindow({
      rig,
      name: suite,
      url: workbenchUrl(server, {
        folder: workspace,
        payload: devPayload(server, { extensionDevelopmentPath: REPO_ROOT, extensionTestsPath: testsPath }),
      }),
      // The suite's lines (mocha's reporter, console output of tests and extension) are shown; the workbench's own
      // chatter (failing Open VSX look-ups offline, ...) only goes to the log file unless --verbose.
      onLog: (line, { fromTests }) => {
        if (fromTests) console.log(line);
        else if (opts.verbose) console.log(`  [workbench] ${line}`);
      },
    });
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve('timeout'), Math.max(overallMs - (Date.now() - t0), 1000));
    });
    const outcome = await Promise.race([wb.exitCode, timeout]);
    if (outcome === 'timeout') {
      const shot = path.join(REPO_ROOT, 'test-results', 'screenshots', `${suite}-timeout.png`);
      fs.mkdirSync(path.dirname(shot), { recursive: true });
      await wb.screenshot(shot).catch(() => {}); // from behind the blank page
      console.error(
        `[${suite}] TIMEOUT: the suite did not finish within ${opts.timeout} s (no codeAutomationExit).` +
          `\n  workbench log: ${path.relative(REPO_ROOT, wb.logFile)}\n  code-server log: ${path.relative(REPO_ROOT, server.logFile)}` +
          `\n  screenshot: ${path.relative(REPO_ROOT, shot)}`,
      );
      return 124;
    }
    say(
      `${outcome === 0 ? 'passed' : `FAILED (exit ${outcome})`} in ${secs()}; workbench log: ${path.relative(REPO_ROOT, wb.logFile)}`,
    );
    if (outcome !== 0) showExtensionLog(server, suite);
    // The window is closed first so VS Code flushes its state databases to the user-data folder.
    const workbenchLog = wb.logFile;
    await wb.close();
    wb = undefined;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const leaks = findSentinel([server.dirs.userDataDir, server.dirs.extensionsDir, server.logFile, workbenchLog]);
    if (leaks.length) {
      console.error(`[${suite}] FAILED: the test API key was written to:\n  ${leaks.join('\n  ')}`);
      return 1;
    }
    say(`sentinel key absent from the user-data and extensions folders and the logs (${countFiles} files checked)`);
    if (attacker) {
      // Checked again here, after the window closed: also covers requests after the suite's own check.
      if (attacker.requests.length) {
        const seen = attacker.requests.map(
          (r) => `${r.method} ${r.path}${r.headers.authorization ? ' (with an Authorization header)' : ''}`,
        );
        console.error(
          `[${suite}] FAILED: the workspace's flowsync.baseUrl received ${seen.length} request(s):\n  ${seen.join('\n  ')}`,
        );
        return 1;
      }
      say(`the untrusted workspace's service (${attacker.url}) received no request`);
    }
    return outcome;
  } finally {
    clearTimeout(timer);
    await wb?.close();
    await server.stop();
    await attacker?.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

/**
 * A failed suite: the last lines of the extension's own log (a command that failed says so there: the tests see only
 * that nothing happened), and the whole of it kept in the rig's log folder, since the user data goes with the server.
 */
function showExtensionLog(server, suite) {
  const tail = extensionLogTail(server, 80).split('\n');
  console.error(`[${suite}] the extension's log, its last lines:\n  ${tail.join('\n  ')}`);
  const kept = keepExtensionLogs(server, suite).map((f) => path.relative(REPO_ROOT, f));
  console.error(`[${suite}] the extension's log, kept: ${kept.join(', ') || '(none found)'}`);
}

/** The mock API (out/src/mock/server.js, compiled by `npm run compile`) as the service an untrusted workspace names. */
async function startAttacker() {
  const require = createRequire(import.meta.url);
  const { MockFlowSyncServer } = require(path.join(REPO_ROOT, 'out', 'src', 'mock', 'server.js'));
  const attacker = await MockFlowSyncServer.start({ port: 0, apiKey: 'fs_attacker_0123456789abcdef' });
  process.env.FLOWSYNC_ATTACKER_URL = attacker.url; // for the suite's own checks (its /__mock/requests)
  return attacker;
}

/**
 * The untrusted folder's .vscode/settings.json: the two settings Restricted Mode must ignore (they decide where the
 * key goes) and two harmless ones it keeps applying.
 */
function writeAttackerSettings(workspace, attackerUrl) {
  const file = path.join(workspace, '.vscode', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const settings = {
    'flowsync.baseUrl': attackerUrl,
    'flowsync.allowHttp': true,
    'flowsync.teamId': '3',
    'flowsync.refreshIntervalSeconds': 3600,
  };
  fs.writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
}

/**
 * Another extension, installed in the Restricted Mode window, that tries to choose where the key goes without code:
 * its `configurationDefaults` set flowsync.baseUrl, flowsync.allowHttp and flowsync.services to the attacker mock.
 * Measured (VS Code 1.139.1): VS Code applies them although the three are application-scoped, because it checks the
 * scope of a default only against settings already registered, and at the start it handles every extension's
 * defaults before any extension's settings. Declarative (no code), so Restricted Mode leaves it enabled. Returns the
 * extension's folder (in a temporary folder, removed when the process exits), installed as it is: no VSIX, no vsce.
 */
function attackerDefaults(attackerUrl) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-attacker-defaults-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const manifest = {
    name: 'attacker-defaults',
    displayName: 'Attacker defaults (test)',
    description: 'Sets defaults of flowsync.* settings: the Restricted Mode suite checks they are ignored.',
    publisher: 'flowsync-tests',
    version: '0.0.1',
    engines: { vscode: '^1.95.0' },
    contributes: {
      configurationDefaults: {
        'flowsync.baseUrl': attackerUrl,
        'flowsync.allowHttp': true,
        'flowsync.services': [{ name: 'Attacker', url: attackerUrl }],
      },
    },
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  fs.writeFileSync(path.join(dir, 'README.md'), '# Attacker defaults (test)\n');
  return dir;
}

/**
 * Every test key contains this, and so does the team store's password of the Team History suite
 * (test/integration/teamHistory.test.ts): neither may be written anywhere but SecretStorage (the browser's keyring).
 */
const SENTINEL = 'SENTINEL_4c1d2e3f';
let countFiles = 0;

/** Files under `roots` (files or folders) whose bytes contain the sentinel key. */
function findSentinel(roots) {
  const needle = Buffer.from(SENTINEL);
  const hits = [];
  const visit = (p) => {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    } else if (stat.isFile()) {
      countFiles++;
      if (fs.readFileSync(p).includes(needle)) hits.push(path.relative(REPO_ROOT, p));
    }
  };
  roots.forEach(visit);
  return hits;
}

main().then(
  (code) => {
    if (!interrupted()) process.exit(code);
  },
  (error) => {
    if (interrupted()) return; // the interrupt handler is stopping everything and exits with 128+signal
    console.error(`[${suite}] ERROR: ${error?.stack ?? error}`);
    process.exit(1);
  },
);
