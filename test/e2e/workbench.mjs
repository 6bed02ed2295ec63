// UI (end-to-end) test helpers: a real VS Code workbench (code-server) in headless Chromium, driven like a person would.
// The session is started once by the root hooks (test/e2e/hooks.mjs); tests use the helpers, one module per thing they
// drive: this one (the session, its windows, waiting, screenshots and logs), palette.mjs (the command palette and the
// quick input), views.mjs (the activity bar, the side bar's trees, the status bar, the Output panel, notifications),
// menus.mjs (a view's or a row's menu) and webviews.mjs (a webview's page, its focus, axe).
//
//   import { screenshot, waitFor, session } from './workbench.mjs';
//   import { runCommand } from './palette.mjs';
//   import { openView, treeRows, statusBarText } from './views.mjs';
//
// A suite that needs a window of its own (a fresh profile: no key yet) opens one with openOwnWindow(name) in its
// before() and closes it in its after(); setKeyByKeyboard() (palette.mjs) then sets the demo key as a person would.
//
// session: { page, server, browser, workbench, workspace, mock } — `mock` is the embedded Flow Sync mock API
// (out/src/mock/server.js, in this process) whose url is the `flowsync.baseUrl` user setting; null if not built.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  E2E_VSIX,
  REPO_ROOT,
  buildProject,
  freshWorkspace,
  keepExtensionLogs,
  launchBrowser,
  openWorkbench,
  packageVsix,
  prepareRig,
  startCodeServer,
} from '../rig/codeServer.mjs';

/** A window's extension log, its last lines, for a failure's message (the rig's: what the extension did meanwhile). */
export { extensionLogTail } from '../rig/codeServer.mjs';

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'screenshots');
export const DEMO_API_KEY = 'fs_demo_0123456789abcdef';

/** No session: what `session` holds before startSession() and after stopSession(). */
const NO_SESSION = Object.freeze({
  page: undefined,
  server: undefined,
  rig: undefined,
  browser: undefined,
  workbench: undefined,
  workspace: undefined,
  mock: null,
  /** The window the helpers drive: the session's, or openOwnWindow's while it is open (its name, code-server, workbench). */
  window: undefined,
});

/** @type {{page: import('playwright-core').Page, server: any, rig: any, browser: any, workbench: any, workspace: string, mock: any, window: {name: string, server: any, workbench: any} | undefined}} */
export const session = { ...NO_SESSION };

/**
 * Builds the extension (unless E2E_NO_BUILD=1), packages a VSIX (both skipped when test/e2e/run.mjs did them:
 * E2E_PREPARED=1), starts the mock API, code-server with the VSIX installed (no smoke-test driver: the workbench
 * behaves as for a person, notifications included), Chromium, and opens the workbench on a fresh workspace folder.
 * `window: false`: the mock, Chromium and the VSIX only (no code-server, no window), for suites that open every window
 * they use.
 */
export async function startSession({ settings = {}, window = true } = {}) {
  const rig = await prepareRig();
  if (!process.env.E2E_PREPARED) buildAndPackage();
  session.rig = rig;

  const mockModule = path.join(REPO_ROOT, 'out', 'src', 'mock', 'server.js');
  if (fs.existsSync(mockModule)) {
    const { MockFlowSyncServer } = createRequire(import.meta.url)(mockModule);
    // The mock's syncs end on its clock. Frozen, no sync a test picks (to watch, open or finish) can end on its own
    // while a loaded machine runs the steps in between: a clean-clone CI run met that (a watched sync ended during a
    // window reload). A test that wants time to pass moves the clock itself (mock.advance).
    const startedAt = Date.now();
    session.mock = await MockFlowSyncServer.start({ port: 0, now: () => startedAt });
  }
  session.browser = await launchBrowser(rig);
  if (!window) return session;
  session.server = await startCodeServer({
    rig,
    name: 'e2e',
    smokeTestDriver: false,
    vsix: [E2E_VSIX],
    settings: {
      ...(session.mock
        ? {
            'flowsync.baseUrl': session.mock.url,
            // Where the service's pages are (Open in Browser): the person's user settings, read at the start (this
            // machine's code-server does not tell the extension of a settings file written while it runs)
            'flowsync.webUrl': { sync: `${session.mock.url}/web/flows/{flow_id}/syncs/{id}` },
          }
        : {}),
      ...settings,
    },
    quiet: true,
  });
  session.workspace = freshWorkspace('e2e');
  session.workbench = await openWorkbench({
    server: session.server,
    browser: session.browser,
    folder: session.workspace,
    name: 'e2e',
  });
  session.page = session.workbench.page;
  session.window = { name: 'e2e', server: session.server, workbench: session.workbench };
  await waitForExtensionsReady();
  return session;
}

/**
 * Builds the extension (unless E2E_NO_BUILD=1) and packages it into E2E_VSIX: written beside it, then renamed over it,
 * so a window another process starts meanwhile installs a whole VSIX, never one being written. E2E_PACKAGED=1: neither,
 * E2E_VSIX is there already (npm test's package stage, test/rig/package.mjs, made it for both e2e stages).
 */
export function buildAndPackage() {
  if (process.env.E2E_PACKAGED) {
    if (!fs.existsSync(E2E_VSIX))
      throw new Error(`E2E_PACKAGED=1 but ${E2E_VSIX} is missing: node test/rig/package.mjs`);
    return;
  }
  if (!process.env.E2E_NO_BUILD) {
    console.log('    [e2e] building: npm run compile, node esbuild.js --production, vsce package');
    buildProject({ production: true });
  }
  const packaged = `${E2E_VSIX}.${process.pid}`;
  packageVsix({ out: packaged });
  fs.renameSync(packaged, E2E_VSIX);
}

export async function stopSession() {
  await session.workbench?.close();
  await session.browser?.close();
  await session.server?.stop();
  await session.mock?.close();
  if (session.workspace) fs.rmSync(session.workspace, { recursive: true, force: true });
  Object.assign(session, NO_SESSION);
}

/**
 * A window of its own for one suite: a second code-server on a fresh profile (no key yet) with the VSIX the session
 * packaged, `flowsync.baseUrl` the session's mock (`settings` adds to or overrides it), and a workbench on a fresh
 * folder. Until `close()`, the helpers (and the root hooks' screenshots) drive this window. `countMousePresses`: every
 * mouse press in it is counted (mousePresses()), for a test that must need none; `keepState`: its folder (user data,
 * extensions, logs) outlives close(), for a test that reads what it wrote. Call it in before(), close in after().
 */
export async function openOwnWindow(name, { settings = {}, countMousePresses = false, keepState = false } = {}) {
  const saved = { page: session.page, window: session.window };
  let server;
  let workbench;
  const close = async () => {
    Object.assign(session, saved);
    await workbench?.close();
    await server?.stop();
  };
  try {
    server = await startCodeServer({
      rig: session.rig,
      name,
      vsix: [E2E_VSIX], // packaged by test/e2e/run.mjs or the session's start
      settings: { 'flowsync.baseUrl': session.mock.url, ...settings },
      quiet: true,
      keepState, // its folder kept after close(): the caller reads it, then removes server.dirs.root
    });
    workbench = await openWorkbench({ server, browser: session.browser, folder: freshWorkspace(name), name });
    session.page = workbench.page;
    session.window = { name, server, workbench };
    if (countMousePresses) {
      await workbench.page.evaluate(() => {
        globalThis.__mousePresses = 0;
        globalThis.addEventListener('mousedown', () => globalThis.__mousePresses++, true);
      });
    }
    await workbench.page.locator('.part.statusbar').waitFor({ state: 'visible', timeout: 30000 });
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
  return { server, workbench, page: workbench.page, close };
}

/** How many mouse presses the window of openOwnWindow(name, { countMousePresses: true }) has had (undefined: not counted). */
export async function mousePresses() {
  return page().evaluate(() => globalThis.__mousePresses);
}

/** The page of the window the helpers drive (the session's, or openOwnWindow's while it is open). */
export function page() {
  if (!session.page) throw new Error('no workbench: the e2e root hooks (test/e2e/hooks.mjs) did not start a session');
  return session.page;
}

/**
 * Waits until the extension host has started and the extension is active: its status bar item is shown (it activates
 * on startup finished, and says "Set API Key" or what is processing).
 */
export async function waitForExtensionsReady(timeout = 60000) {
  const p = page();
  await p.locator('.part.statusbar').waitFor({ state: 'visible', timeout });
  await p
    .locator('.part.statusbar .statusbar-item', { hasText: /Flow Sync|processing/ })
    .first()
    .waitFor({ state: 'visible', timeout });
}

/** Polls `check` until it returns a truthy value; throws `message` (with the last value seen) after `timeout` ms. */
export async function waitFor(check, { timeout = 10000, interval = 100, message = 'condition' } = {}) {
  const until = Date.now() + timeout;
  let last;
  let lastError;
  for (;;) {
    try {
      last = await check();
      if (last) return last;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > until) {
      throw new Error(
        `timed out after ${timeout} ms waiting for ${message}` +
          (lastError ? ` (last error: ${lastError.message})` : ` (last value: ${JSON.stringify(last)})`),
      );
    }
    await sleep(interval);
  }
}

/** Saves a PNG of the window to test-results/screenshots/<name>.png; returns its path. */
export async function screenshot(name) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${safeFileName(name)}.png`);
  await page().screenshot({ path: file });
  return file;
}

export function safeFileName(name) {
  return (
    name
      .replace(/[^\w.-]+/g, ' ')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 120) || 'screenshot'
  );
}

/**
 * Copies the extension logs of the window the helpers drive into the rig's log folder; a line naming them and that
 * window's workbench log ('' before there is a window).
 */
export function keptLogs() {
  if (!session.window) return '';
  const { name, server, workbench } = session.window;
  const kept = keepExtensionLogs(server, name).map((f) => path.relative(REPO_ROOT, f));
  return `    [e2e] workbench log: ${path.relative(REPO_ROOT, workbench.logFile)}; extension logs: ${kept.join(', ') || 'none'}`;
}

/** True once `locator` is in `state` within `timeout` ms, false after it (never throws for the timeout). */
export async function becomes(locator, state, timeout) {
  return locator.waitFor({ state, timeout }).then(
    () => true,
    () => false,
  );
}
