#!/usr/bin/env node
// `npm run test:integration`: runs the integration suite (out/test/integration/index.js, mocha inside the extension host)
// in a real VS Code, offline: code-server with the smoke-test driver + headless Chromium. Exits with the suite's code.
//
//   npm run test:integration                         build, compile, run everything
//   npm run test:integration -- --grep "showLog"     only matching tests (mocha grep, passed as MOCHA_GREP)
//   npm run test:integration -- --no-build           skip `node esbuild.js` and `npm run compile`
//   npm run test:integration -- --timeout 600        overall limit in seconds (default 300)
//   npm run test:integration -- --verbose            also print the workbench's own log lines (always in the log file)
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { interrupted } from './processes.mjs';
import { REPO_ROOT, buildProject, devPayload, freshWorkspace, launchBrowser, openWorkbench, prepareRig, startCodeServer } from './codeServer.mjs';

const { values: opts } = parseArgs({
  options: {
    grep: { type: 'string' },
    build: { type: 'boolean', default: true },
    timeout: { type: 'string', default: '300' },
    verbose: { type: 'boolean', default: false },
  },
  allowNegative: true,
});
const overallMs = Number(opts.timeout) * 1000;
const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const say = (msg) => console.log(`[integration] ${msg}`);

async function main() {
  const rig = await prepareRig();
  if (opts.build) {
    say('building dist/extension.js (node esbuild.js) and compiling the tests (npm run compile)');
    buildProject();
  }
  const testsPath = path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js');
  if (!fs.existsSync(testsPath)) throw new Error(`${testsPath} is missing: run npm run compile`);
  if (opts.grep) process.env.MOCHA_GREP = opts.grep; // inherited by code-server's extension host

  // Log at Trace: the sentinel check below then covers the most verbose logs VS Code and the extension can write.
  const server = await startCodeServer({ rig, name: 'integration', smokeTestDriver: true, logLevel: 'trace' });
  let browser;
  let wb;
  let timer;
  const workspace = freshWorkspace('integration');
  try {
    browser = await launchBrowser(rig);
    say(`workspace ${workspace}; running the suite in the extension host (${secs()} so far)`);
    wb = await openWorkbench({
      server,
      browser,
      name: 'integration',
      folder: workspace,
      payload: devPayload(server, { extensionDevelopmentPath: REPO_ROOT, extensionTestsPath: testsPath }),
      waitReady: false,
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
      const shot = path.join(REPO_ROOT, 'test-results', 'screenshots', 'integration-timeout.png');
      fs.mkdirSync(path.dirname(shot), { recursive: true });
      await wb.page.screenshot({ path: shot }).catch(() => {});
      console.error(
        `[integration] TIMEOUT: the suite did not finish within ${opts.timeout} s (no codeAutomationExit).` +
          `\n  workbench log: ${path.relative(REPO_ROOT, wb.logFile)}\n  code-server log: ${path.relative(REPO_ROOT, server.logFile)}` +
          `\n  screenshot: ${path.relative(REPO_ROOT, shot)}`,
      );
      return 124;
    }
    say(`${outcome === 0 ? 'passed' : `FAILED (exit ${outcome})`} in ${secs()}; workbench log: ${path.relative(REPO_ROOT, wb.logFile)}`);
    // The window is closed first so VS Code flushes its state databases to the user-data folder.
    const workbenchLog = wb.logFile;
    await wb.close();
    wb = undefined;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const leaks = findSentinel([server.dirs.userDataDir, server.dirs.extensionsDir, server.logFile, workbenchLog]);
    if (leaks.length) {
      console.error(`[integration] FAILED: the test API key was written to:\n  ${leaks.join('\n  ')}`);
      return 1;
    }
    say(`sentinel key absent from the user-data and extensions folders and the logs (${countFiles} files checked)`);
    return outcome;
  } finally {
    clearTimeout(timer);
    await wb?.close();
    await browser?.close();
    await server.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

/** Every test key contains this; it must never be written anywhere but SecretStorage (the browser's keyring). */
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
    console.error(`[integration] ERROR: ${error?.stack ?? error}`);
    process.exit(1);
  },
);
