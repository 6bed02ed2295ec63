// The shared rig: a real VS Code (code-server, its Node extension host) in headless Chromium, fully offline.
//
//   const rig = await prepareRig();
//   const server = await startCodeServer({ rig, name: 'e2e', smokeTestDriver: false, settings: {...}, vsix });
//   const browser = await launchBrowser(rig);
//   const wb = await openWorkbench({ server, browser, folder, payload: devPayload(server, { extensionDevelopmentPath }) });
//   ... wb.page ...
//   await wb.close(); await browser.close(); await server.stop();
//
// All state (user data, extensions, XDG dirs, the browser profile) lives in a fresh dir under .vscode-test/runs/,
// removed on stop; logs go to .vscode-test/logs/.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { format } from 'node:util';
import { chromium } from 'playwright-core';
import { LOG_DIR, REPO_ROOT, RIG_DIR, prepareRig, rigEnv, xdgEnv } from './prepare.mjs';
import { putExtensions } from './extensions.mjs';
import { onInterrupt, stopGroup, trackGroup } from './processes.mjs';

export { prepareRig, REPO_ROOT, RIG_DIR, LOG_DIR };
export const EXTENSION_ID = 'flowsync-tools.flowsync-explorer';
/** Prefix of the integration suite's console lines (keep in sync with LINE_MARK in test/integration/index.ts). */
export const LINE_MARK = '\u200b';

export const BASE_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'npm.autoDetect': 'off',
  // Nothing drawn again and again while a test waits: no blinking cursor, no animations (a person may choose the same).
  'editor.cursorBlinking': 'solid',
  'workbench.reduceMotion': 'on',
};

/**
 * User settings for a window with workspace trust on (with `startCodeServer({ workspaceTrust: true })`): a folder not
 * yet trusted opens in Restricted Mode (banner and status bar item). `startupPrompt: never` so that no modal "Do you
 * trust the authors" dialog waits for a click (measured: code-server 4.139.1 shows none even with the default `once`;
 * desktop VS Code does); `untrustedFiles: open` so a file from outside the folder opens without asking.
 */
export const WORKSPACE_TRUST_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.untrustedFiles': 'open',
};

export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * What keeps a test window drawing while nothing happens: the workbench's endless animations (the spinning codicons of
 * a processing sync's row and of the status bar, a view's endless progress bar). Each spins at 20 - 60 frames a second
 * for as long as it is shown: measured on an idle window with the status bar's spinner, 1.5 s of CPU in 20 s
 * (renderer 1.0, GPU process 0.45), 0.1 s with them still. Only endless ones are stilled (an `animationend` that a
 * finite animation's code waits for still comes); the rows keep their classes, so what a test reads is the same.
 */
const STILL_SPINNERS_CSS =
  [
    '[class*="codicon-modifier-spin"]',
    '.codicon-loading',
    '.codicon-tree-item-loading::before',
    '.monaco-progress-container.infinite .progress-bit',
  ].join(',') + '{animation:none!important}';
/** The page script that adds STILL_SPINNERS_CSS to the workbench's own document (not to a webview's frame). */
const STILL_SPINNERS_SCRIPT = `(() => {
  if (window !== window.top) return;
  const add = () => {
    const style = document.createElement('style');
    style.textContent = ${JSON.stringify(STILL_SPINNERS_CSS)};
    document.documentElement.append(style);
  };
  if (document.documentElement) add();
  else addEventListener('DOMContentLoaded', add, { once: true });
})();`;

/** A free TCP port on 127.0.0.1 (preferred one first when given and free). */
export async function freePort(preferred) {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(undefined));
      srv.listen(port, '127.0.0.1', () => {
        const { port: got } = srv.address();
        srv.close(() => resolve(got));
      });
    });
  if (preferred) {
    const p = await tryPort(preferred);
    if (p) return p;
  }
  return tryPort(0);
}

function httpGetStatus(url) {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', () => resolve(undefined));
    req.setTimeout(2000, () => req.destroy());
  });
}

function timestamp() {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/** A fresh scratch dir under .vscode-test/runs/. */
export function scratchDir(name) {
  const base = path.join(RIG_DIR, 'runs');
  fs.mkdirSync(base, { recursive: true });
  return fs.mkdtempSync(path.join(base, `${name}-`));
}

/**
 * A fresh copy of test/fixtures/workspace (or an empty folder) in the OS temp dir: the folder VS Code opens.
 * Kept outside the repo so VS Code's file watcher does not crawl node_modules.
 */
export function freshWorkspace(name = 'workspace') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `flowsync-${name}-`));
  const fixture = path.join(REPO_ROOT, 'test', 'fixtures', 'workspace');
  if (fs.existsSync(fixture)) fs.cpSync(fixture, dir, { recursive: true });
  else fs.writeFileSync(path.join(dir, 'README.md'), '# Flow Sync test workspace\n');
  return dir;
}

/** Keeps the newest `keep` run logs in .vscode-test/logs/ (the prepare-* logs stay). */
function pruneLogs(keep = 60) {
  try {
    const files = fs
      .readdirSync(LOG_DIR)
      .filter((f) => !f.startsWith('prepare-'))
      .map((f) => ({ f, t: fs.statSync(path.join(LOG_DIR, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of files.slice(keep)) fs.rmSync(path.join(LOG_DIR, f), { force: true });
  } catch {
    // best effort
  }
}

function codeServerArgs(dirs) {
  return ['--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir];
}

/**
 * Starts code-server with a fresh user-data-dir and extensions dir.
 * @param {object} o
 * @param {object} o.rig                 from prepareRig()
 * @param {string} o.name                used for dir and log names
 * @param {boolean} [o.smokeTestDriver]  `--vscode-option enable-smoke-test-driver`: needed to run an extensionTestsPath suite
 * @param {object} [o.settings]          user settings on top of BASE_SETTINGS
 * @param {string[]} [o.vsix]            extensions to install first: VSIX files, or unpacked extension folders
 *                                       (test/rig/extensions.mjs: a VSIX's CLI install is made once and copied)
 * @param {number} [o.port]              preferred port (falls back to a free one)
 * @param {boolean} [o.keepState]        keep the scratch dir on stop (also: RIG_KEEP_STATE=1)
 * @param {string} [o.locale]            display language (`--locale`, e.g. `de`)
 * @param {object} [o.userDataFiles]     more files to write into the user-data-dir first: { relativePath: content }
 * @param {string} [o.logLevel]          code-server/VS Code log level (`trace` makes every log channel verbose)
 * @param {boolean} [o.workspaceTrust]   leave workspace trust on (no `--disable-workspace-trust`); the settings must then
 *                                       also turn it on (`WORKSPACE_TRUST_SETTINGS`), BASE_SETTINGS turn it off
 */
export async function startCodeServer({
  rig,
  name = 'code-server',
  smokeTestDriver = false,
  settings = {},
  vsix = [],
  port,
  keepState = false,
  quiet = false,
  logLevel = 'info',
  locale,
  userDataFiles = {},
  workspaceTrust = false,
}) {
  rig ??= await prepareRig();
  pruneLogs();
  const root = scratchDir(name);
  const dirs = {
    root,
    userDataDir: path.join(root, 'user-data'),
    extensionsDir: path.join(root, 'extensions'),
    xdgDir: path.join(root, 'xdg'),
  };
  fs.mkdirSync(path.join(dirs.userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(dirs.extensionsDir, { recursive: true });
  fs.writeFileSync(
    path.join(dirs.userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...BASE_SETTINGS, ...settings }, null, 2) + '\n',
  );
  for (const [relative, content] of Object.entries(userDataFiles)) {
    fs.mkdirSync(path.dirname(path.join(dirs.userDataDir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dirs.userDataDir, relative), content);
  }
  if (vsix.length) {
    const t0 = Date.now();
    const how = putExtensions(rig, dirs.extensionsDir, vsix);
    if (!quiet) {
      const what = vsix.map((file, i) => `${path.relative(REPO_ROOT, file)} (${how[i]})`);
      console.log(`[rig] installed ${what.join(', ')} in ${Date.now() - t0} ms`);
    }
  }

  const chosen = await freePort(port);
  const host = `127.0.0.1:${chosen}`;
  const logFile = path.join(LOG_DIR, `${name}-code-server-${timestamp()}.log`);
  const out = fs.openSync(logFile, 'w');
  const args = [
    rig.codeServerEntry,
    ...codeServerArgs(dirs),
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--auth',
    'none',
    '--bind-addr',
    host,
    '--ignore-last-opened',
    '--log',
    logLevel,
  ];
  if (smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  if (locale) args.push('--locale', locale);
  const child = spawn(rig.nodeBin, args, {
    cwd: root,
    env: rigEnv(xdgEnv(dirs.xdgDir)),
    stdio: ['ignore', out, out],
    detached: true, // own process group: stop() kills the extension host and helpers with it
  });
  fs.closeSync(out);
  trackGroup(child.pid, `code-server ${name}`);
  let exited;
  let resolveExited;
  const exitedPromise = new Promise((r) => (resolveExited = r));
  child.on('exit', (code, signal) => {
    exited = signal ?? `exit ${code}`;
    resolveExited(exited);
  });

  const server = {
    rig,
    dirs,
    port: chosen,
    host,
    url: `http://${host}`,
    logFile,
    pid: child.pid,
    smokeTestDriver,
    /** Resolves (with "exit N" or the signal) when code-server's main process ends. */
    exited: exitedPromise,
    /** Stops code-server's whole process group and removes its scratch dir. */
    async stop() {
      unregister();
      await stopGroup(child.pid);
      if (!keepState && !process.env.RIG_KEEP_STATE) fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    },
  };
  const unregister = onInterrupt(() => server.stop());

  const deadline = Date.now() + 60000;
  for (;;) {
    if (exited) {
      await server.stop();
      throw new Error(`code-server exited at start (${exited}); log ${logFile}:\n${tail(logFile)}`);
    }
    if ((await httpGetStatus(`${server.url}/healthz`)) === 200) break;
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`code-server did not answer /healthz within 60 s; log ${logFile}:\n${tail(logFile)}`);
    }
    await sleep(150);
  }
  if (!quiet)
    console.log(`[rig] code-server ${server.url} (pid ${child.pid}, log ${path.relative(REPO_ROOT, logFile)})`);
  return server;
}

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * The extension's "Flow Sync" log files (its output channel's) in a code-server's user data, oldest window first: a
 * failing suite shows and keeps them, since the user data is removed when the server stops.
 */
export function extensionLogs(server) {
  const found = [];
  const walk = (dir, depth) => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < 4) walk(full, depth + 1);
      else if (/(^|[^\w ])Flow Sync\.log$/.test(entry.name)) found.push(full);
    }
  };
  walk(path.join(server.dirs.userDataDir, 'logs'), 0);
  return found.sort();
}

/** The last `lines` lines of each of the extension's log files (extensionLogs); '' when there is none yet. */
export function extensionLogTail(server, lines = 40) {
  return extensionLogs(server)
    .map((f) => tail(f, lines))
    .join('\n');
}

/** Copies the extension's log files (extensionLogs) into the rig's log folder; their new paths. */
export function keepExtensionLogs(server, name) {
  return extensionLogs(server).map((file, i) => {
    const kept = path.join(LOG_DIR, `${name}-flowsync-${timestamp()}${i ? `-${i}` : ''}.log`);
    fs.copyFileSync(file, kept);
    return kept;
  });
}

/** Headless Chromium (the system one, never a downloaded build), with a throwaway profile. */
export async function launchBrowser(rig, { headless = !process.env.RIG_HEADED } = {}) {
  rig ??= await prepareRig();
  const browser = await chromium.launch({
    executablePath: rig.browser,
    headless,
    args: BROWSER_ARGS,
    env: { ...process.env, ...xdgEnv(path.join(RIG_DIR, 'runs', 'browser-xdg')) },
    handleSIGINT: false, // processes.mjs decides; the browser is closed by the interrupt cleanup below
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const pid = browser.process?.()?.pid;
  if (pid) trackGroup(pid, 'chromium');
  const unregister = onInterrupt(() => browser.close().catch(() => {}));
  const close = browser.close.bind(browser);
  browser.close = async () => {
    unregister();
    await close().catch(() => {});
    if (pid) await stopGroup(pid, 1000);
  };
  return browser;
}

/** vscode-remote URI of an absolute path on the code-server host (the host must be exactly the page's host). */
export function remoteUri(server, absPath) {
  const p = absPath.split(path.sep).map(encodeURIComponent).join('/');
  return `vscode-remote://${server.host}${p.startsWith('/') ? '' : '/'}${p}`;
}

/** The `payload` pairs for an extension under development and, optionally, its test suite (needs smokeTestDriver). */
export function devPayload(server, { extensionDevelopmentPath = REPO_ROOT, extensionTestsPath } = {}) {
  const payload = [['extensionDevelopmentPath', remoteUri(server, extensionDevelopmentPath)]];
  if (extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(server, extensionTestsPath)]);
  return payload;
}

export function workbenchUrl(server, { folder, payload } = {}) {
  const q = [];
  if (folder) q.push(`folder=${encodeURIComponent(folder)}`);
  if (payload) q.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return `${server.url}/${q.length ? `?${q.join('&')}` : ''}`;
}

/**
 * Opens the workbench in a new browser context. Every workbench / extension-host log line (the smoke-test driver's
 * codeAutomationLog channel, and the page console otherwise) goes to a file under .vscode-test/logs/ and to
 * `onLog(line, {fromTests})`, fromTests telling the integration suite's own console lines from the workbench's.
 * @returns {Promise<{page, context, logFile, exitCode: Promise<number>, close(): Promise<void>}>}
 */
export async function openWorkbench({
  server,
  browser,
  folder,
  payload,
  name = 'workbench',
  onLog,
  viewport = { width: 1400, height: 900 },
  waitReady = true,
}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  // still spinners (STILL_SPINNERS_CSS), unless a person watches the run
  if (!process.env.RIG_HEADED) await context.addInitScript({ content: STILL_SPINNERS_SCRIPT });
  const page = await context.newPage();
  const log = workbenchLog(name, onLog);
  const { logFile, exitCode } = log;
  await page.exposeFunction('codeAutomationLog', log.automationLog);
  await page.exposeFunction('codeAutomationExit', log.automationExit);
  // With the smoke-test driver the workbench log arrives through codeAutomationLog; the browser console adds errors
  // and warnings (with it) or everything (without it: e2e, demo).
  page.on('console', (msg) => {
    if (!server.smokeTestDriver || msg.type() === 'error' || msg.type() === 'warning')
      log.file(`[console.${msg.type()}] ${msg.text()}`);
  });
  page.on('pageerror', (err) => log.file(`[pageerror] ${err.message}`));
  // Until the document is there, not its 'load' (every script of the workbench, which took over Playwright's 30 s
  // on a machine at load 20); then what a person waits for: the workbench laid out.
  await page.goto(workbenchUrl(server, { folder, payload }), { waitUntil: 'domcontentloaded', timeout: 120000 });
  if (waitReady) await waitForWorkbench(page);
  return {
    page,
    context,
    logFile,
    exitCode,
    async close() {
      await context.close().catch(() => {});
      await log.end();
    },
  };
}

/**
 * The log of one workbench window, a file under .vscode-test/logs/: `file(line)` writes a line to it only; `automationLog`
 * and `automationExit` are the smoke-test driver's two functions (`codeAutomationLog(type, args)`,
 * `codeAutomationExit(code)`), whose lines also go to `onLog(line, { fromTests })`: `fromTests` for the integration
 * suite's own lines, which carry LINE_MARK (test/integration/index.ts). `exitCode` resolves with the exit's code.
 */
export function workbenchLog(name, onLog) {
  const logFile = path.join(LOG_DIR, `${name}-workbench-${timestamp()}.log`);
  const stream = fs.createWriteStream(logFile);
  stream.on('error', (error) => console.error(`[rig] ${logFile}: ${error.message}`));
  // A line that comes after the end (the browser still talking while its window closes) is dropped, not an error.
  const file = (line) => void (stream.writableEnded || stream.write(line + '\n'));
  const write = (line, fromTests = false) => {
    file(line);
    onLog?.(line, { fromTests });
  };
  let resolveExit;
  const exitCode = new Promise((r) => (resolveExit = r));
  return {
    logFile,
    exitCode,
    file,
    automationLog(type, args) {
      const list = Array.isArray(args) ? args : [args];
      const text =
        typeof list[0] === 'string'
          ? format(...list)
          : list.map((a) => (typeof a === 'string' ? a : a instanceof Error ? a.stack : safeJson(a))).join(' ');
      if (text.startsWith(LINE_MARK)) write(text.slice(LINE_MARK.length), true);
      else write(type === 'log' || type === undefined ? text : `[${type}] ${text}`);
    },
    automationExit(code) {
      write(`[codeAutomationExit] ${code}`);
      resolveExit(typeof code === 'number' ? code : Number(code) || 0);
    },
    /** The window ended otherwise (its browser gone): the code the run ends with, and why, in the log. */
    ended(code, why) {
      write(why);
      resolveExit(code);
    },
    end: () => new Promise((r) => stream.end(r)),
  };
}

function safeJson(v) {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

/** Waits until the workbench is laid out (activity bar and status bar shown). */
export async function waitForWorkbench(page, timeout = 60000) {
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout });
}

/**
 * Compiles the tests and the mock (`npm run compile`) and bundles the extension (`node esbuild.js`, with
 * `--production` when asked). Throws, naming the command, when a step fails.
 */
export function buildProject({ production = false } = {}) {
  const steps = [
    ['npm', ['run', 'compile', '--silent']],
    [process.execPath, ['esbuild.js', ...(production ? ['--production'] : [])]],
  ];
  for (const [cmd, args] of steps) {
    const r = spawnSync(cmd, args, { cwd: REPO_ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
    if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(' ')} failed (exit ${r.status})`);
  }
}

/**
 * Where the UI tests' VSIX is packaged: in this checkout (out/, like the compiled tests), not in .vscode-test/, which
 * several checkouts of one machine may share (a worktree's rig is often a link to another's): one checkout's run must
 * never install another's build.
 */
export const E2E_VSIX = path.join(REPO_ROOT, 'out', 'flowsync-explorer.vsix');

/**
 * Packages the extension (the production bundle must already be in dist/), by default into E2E_VSIX. `from`: the
 * folder packaged (the repository; packageWebOnlyVsix's stage, which has no repository field or LICENSE: `flags`).
 */
export function packageVsix({ out = E2E_VSIX, from = REPO_ROOT, flags = [] } = {}) {
  // Exactly what `npm run package` ships (the project's .vscodeignore), so the UI tests run the released artifact.
  const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', ...flags, '--out', out], {
    cwd: from,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120000,
  });
  if (r.status !== 0) throw new Error(`vsce package failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return out;
}

/** Where the web stage's web-only VSIX is packaged (packageWebOnlyVsix), beside E2E_VSIX. */
export const WEB_VSIX = path.join(REPO_ROOT, 'out', 'flowsync-explorer-web.vsix');

/**
 * The VSIX of a web-only extension: exactly the files `vsce package` ships (the project's .vscodeignore), with
 * package.json's "main", its "extensionKind" and dist/extension.js removed; by default into WEB_VSIX. The production
 * build must already be in dist/.
 */
export function packageWebOnlyVsix({ out = WEB_VSIX } = {}) {
  const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const ls = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 120000,
  });
  if (ls.status !== 0) throw new Error(`vsce ls failed (exit ${ls.status}):\n${ls.stdout}${ls.stderr}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-web-vsix-'));
  try {
    const stage = path.join(dir, 'extension');
    for (const file of ls.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)) {
      fs.mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
      fs.copyFileSync(path.join(REPO_ROOT, file), path.join(stage, file));
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(stage, 'package.json'), 'utf8'));
    if (!manifest.browser) throw new Error('package.json has no "browser" entry');
    if (!fs.existsSync(path.join(stage, manifest.browser)))
      throw new Error(`${manifest.browser} is not in the packaged files: run npm run build`);
    delete manifest.main;
    // And its extensionKind, which names the Node hosts (["workspace", "ui"]): vscode.dev has none, so VS Code runs the
    // browser entry in its web worker there; this rig's workbench has a remote Node host, which that order would pick
    // even without "main" (measured: "extension kinds: [workspace, ui, web] ... => Remote").
    delete manifest.extensionKind;
    fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
    fs.rmSync(path.join(stage, 'dist', 'extension.js'), { force: true });
    // Written beside `out`, then renamed over it: a stage that installs it meanwhile gets a whole VSIX.
    const packaged = `${out}.${process.pid}`;
    packageVsix({ out: packaged, from: stage, flags: ['--allow-missing-repository', '--skip-license'] });
    fs.renameSync(packaged, out);
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
