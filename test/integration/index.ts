/**
 * Entry point of the integration suite, loaded by VS Code's extension host (extensionTestsPath =
 * out/test/integration/index.js): runs every out/test/integration/**\/*.test.js with mocha (bdd) inside the host, where
 * the test files can `import * as vscode from 'vscode'`.
 *
 * Launchers: `npm run test:integration` (offline: code-server + headless Chromium, test/rig/run-integration.mjs) and
 * `npm run test:electron` (desktop VS Code via @vscode/test-electron, needs the internet to download VS Code).
 * The reporter writes through console.log; the launchers forward the extension host's console to the terminal.
 *
 * Environment: MOCHA_GREP filters tests by title (set by the launchers from `-- --grep <pattern>`). FLOWSYNC_SUITE picks
 * a separate suite: the subfolders named in SEPARATE_SUITES need a window set up for them (e.g. `restricted`: workspace
 * trust on, an untrusted folder; `npm run test:integration -- --restricted`), so the default run leaves them out and
 * FLOWSYNC_SUITE=<name> runs only out/test/integration/<name>/**\/*.test.js.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';

/**
 * Prefix of every console line printed by the extension host while the suite runs (invisible in a terminal). The
 * offline launcher receives the workbench's and the extension host's log lines on one channel and uses it to show
 * only the suite's output (mocha's reporter, tests' and the extension's console output).
 */
export const LINE_MARK = '\u200b';

function markConsole(): () => void {
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const saved = methods.map((m) => Object.getOwnPropertyDescriptor(console, m));
  for (const m of methods) {
    const forward = console[m]; // VS Code's forwarder (the extension host defines console methods as getters)
    const marked = (...args: unknown[]) => forward.call(console, LINE_MARK + format(...args));
    try {
      Object.defineProperty(console, m, { configurable: true, enumerable: true, get: () => marked, set: () => {} });
    } catch {
      // not redefinable: lines go unmarked (shown with --verbose only)
    }
  }
  // mocha's reporters keep the console.log they saw when mocha was loaded
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  const baseLog = base.consoleLog;
  base.consoleLog = (...args: unknown[]) => console.log(...args);
  return () => {
    base.consoleLog = baseLog;
    methods.forEach((m, i) => {
      const descriptor = saved[i];
      if (descriptor) {
        try {
          Object.defineProperty(console, m, descriptor);
        } catch {
          // leave it
        }
      }
    });
  };
}

/** Subfolders holding suites that run only in their own window (FLOWSYNC_SUITE=<name>), never in the default run. */
export const SEPARATE_SUITES = ['restricted'];

function findTests(dir: string, skip: readonly string[] = []): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skip.includes(entry.name)) found.push(...findTests(full));
    } else if (entry.name.endsWith('.test.js')) found.push(full);
  }
  return found.sort();
}

/** The test files of the suite FLOWSYNC_SUITE names (default: the main suite, without the separate ones). */
function suiteFiles(): string[] {
  const suite = process.env.FLOWSYNC_SUITE?.trim();
  if (!suite) return findTests(__dirname, SEPARATE_SUITES);
  if (!SEPARATE_SUITES.includes(suite)) {
    throw new Error(`FLOWSYNC_SUITE=${suite}: not one of ${SEPARATE_SUITES.join(', ')}`);
  }
  const files = findTests(path.join(__dirname, suite));
  if (!files.length) throw new Error(`FLOWSYNC_SUITE=${suite}: no *.test.js in ${path.join(__dirname, suite)}`);
  return files;
}

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    // colors when the launcher's terminal supports them (mocha's own detection; escape codes pass through intact)
    timeout: Number(process.env.MOCHA_TIMEOUT ?? 20000),
    slow: 2000,
  });
  if (process.env.MOCHA_GREP) mocha.grep(process.env.MOCHA_GREP);

  const restoreConsole = markConsole();
  return new Promise<void>((resolve, reject) => {
    try {
      for (const file of suiteFiles()) mocha.addFile(file);
      const runner = mocha.run((failures) => {
        // A closing line in the plain 'N passed, N failed' shape.
        const { passes = 0, pending = 0 } = runner.stats ?? {};
        const suite = process.env.FLOWSYNC_SUITE ? ` (${process.env.FLOWSYNC_SUITE})` : '';
        console.log(
          `integration${suite}: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`,
        );
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else resolve();
      });
    } catch (error) {
      console.error(error);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  }).finally(restoreConsole);
}
