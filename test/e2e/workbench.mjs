/* global document, requestAnimationFrame -- page functions run in the browser (frame.evaluate) */
// UI (end-to-end) test helpers: a real VS Code workbench (code-server) in headless Chromium, driven like a person would.
// The session is started once by the root hooks (test/e2e/hooks.mjs); tests use the helpers below.
//
//   import { runCommand, openView, treeRows, statusBarText, screenshot, outputText, waitFor, session } from './workbench.mjs';
//
// A suite that needs a window of its own (a fresh profile: no key yet) opens one with openOwnWindow(name) in its
// before() and closes it in its after(); setKeyByKeyboard() then sets the demo key as a person would.
//
// session: { page, server, browser, workbench, workspace, mock } — `mock` is the embedded Flow Sync mock API
// (out/src/mock/server.js, in this process) whose url is the `flowsync.baseUrl` user setting; null if not built.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
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
 * so a window another process starts meanwhile (npm test's two e2e stages) installs a whole VSIX, never one being written.
 */
export function buildAndPackage() {
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
 * mouse press in it is counted (mousePresses()), for a test that must need none. Call it in before(), close in after().
 */
export async function openOwnWindow(name, { settings = {}, countMousePresses = false } = {}) {
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

function page() {
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

/** Closes whatever quick input is open. */
export async function closeQuickInput() {
  const p = page();
  if (await p.locator('.quick-input-widget').isVisible()) await p.keyboard.press('Escape');
}

/**
 * Runs a command from the command palette (F1) by its title as shown there, e.g. "Flow Sync: Show Log". The palette
 * lists the commands known when it opens, so while the title is missing (extensions still starting) it is reopened.
 * `opensInput`: the command asks for input (input box or quick pick), so the widget stays open.
 */
export async function runCommand(title, { timeout = 15000, opensInput = false } = {}) {
  const p = page();
  const rows = p.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  const input = p.locator('.quick-input-widget input');
  const until = Date.now() + timeout;
  let labels = [];
  for (;;) {
    await closeQuickInput();
    await p.keyboard.press('F1');
    // A key press can land while the workbench moves the focus (a quick pick closing, a view drawn): no palette then.
    // A person presses F1 again; so do we, until the whole timeout is spent.
    if (!(await becomes(input, 'visible', 3000))) {
      if (Date.now() > until) throw new Error(`the command palette did not open for "${title}" in ${timeout} ms`);
      console.log(`      [e2e] F1 opened no command palette for "${title}": again`);
      continue;
    }
    await input.fill(`>${title}`);
    const row = await waitFor(
      async () => {
        labels = await rows.evaluateAll((els) =>
          els.map((el) => el.querySelector('.label-name')?.textContent?.trim() ?? el.textContent?.trim() ?? ''),
        );
        const i = labels.findIndex((l) => l === title);
        return i >= 0 ? rows.nth(i) : undefined;
      },
      { timeout: 2000, message: 'row' },
    ).catch(() => undefined);
    if (row) {
      await row.click();
      if (opensInput) {
        // The command opens its own input box or quick pick in the same widget: wait until the palette text is gone.
        await waitFor(
          async () =>
            (await p.locator('.quick-input-widget').isVisible()) && !(await input.inputValue()).startsWith('>'),
          {
            timeout,
            message: `the input of "${title}"`,
          },
        );
      } else {
        await p.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout });
      }
      return;
    }
    if (Date.now() > until) {
      await closeQuickInput();
      throw new Error(
        `command "${title}" not found in the command palette after ${timeout} ms (it listed: ${labels.join('; ') || 'nothing'})`,
      );
    }
  }
}

/** Opens a view container from the activity bar by its title (e.g. "Flow Sync"); leaves it open if it already is. */
export async function openView(containerTitle, { timeout = 10000 } = {}) {
  const p = page();
  const item = p.locator(`.part.activitybar .action-item:has([aria-label^="${cssString(containerTitle)}"])`).first();
  await item.waitFor({ state: 'visible', timeout });
  const shown = async () =>
    (await p.locator('.part.sidebar').isVisible()) &&
    (await p.locator('.part.sidebar .composite.title').innerText())
      .toLowerCase()
      .includes(containerTitle.toLowerCase());
  // The icon toggles: a click while the workbench is still restoring the same container (after a reload) closes it
  // again. So: click only when it is not the active container, and check again until it stays shown.
  let clickedAt = 0;
  await waitFor(
    async () => {
      if (await shown()) return true;
      const checked = await item.evaluate((el) => el.classList.contains('checked'));
      if (!checked && Date.now() - clickedAt > 1000) {
        clickedAt = Date.now();
        // top left: the count badge sits on the icon's lower right and takes the clicks there. `force`: the badge's
        // box can still cover the point (Playwright then waits for it to move, which it never does); a click on the
        // badge reaches the activity bar item all the same, as it does for a person.
        await item
          .locator(`[aria-label^="${cssString(containerTitle)}"]`)
          .first()
          .click({ position: { x: 6, y: 6 }, force: true });
      }
      return false;
    },
    { timeout, interval: 200, message: `side bar showing "${containerTitle}"` },
  );
}

function cssString(s) {
  return s.replace(/["\\]/g, '\\$&');
}

/**
 * The rows of the trees/lists in the side bar, top to bottom: [{ label, description, level, expanded, selected, ariaLabel }].
 * `label` is the row's visible main text; `description` its dimmed text.
 */
export async function treeRows() {
  return page()
    .locator('.part.sidebar .monaco-list-row')
    .evaluateAll((found) => {
      // In the order a person reads them: a list reuses its row elements, so the document's order is not the rows'
      // (a flow pinned to the top kept its element further down: a run read another flow as the first). Each list in
      // the side bar's order, its rows by their index in it.
      const lists = [...new Set(found.map((el) => el.closest('.monaco-list')))];
      const at = (el) => [lists.indexOf(el.closest('.monaco-list')), Number(el.getAttribute('data-index') ?? 0)];
      const els = found
        .map((el) => ({ el, key: at(el) }))
        .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1])
        .map(({ el }) => el);
      return els.map((el) => ({
        label:
          el.querySelector('.label-name, .monaco-icon-label .label-name')?.textContent?.trim() ??
          el.textContent?.trim() ??
          '',
        description: el.querySelector('.label-description')?.textContent?.trim() ?? '',
        level: Number(el.getAttribute('aria-level') ?? 0),
        expanded: el.getAttribute('aria-expanded') === null ? undefined : el.getAttribute('aria-expanded') === 'true',
        selected: el.classList.contains('selected'),
        ariaLabel: el.getAttribute('aria-label') ?? '',
      }));
    });
}

/** Whether a row of treeRows() is a flow sync's ("#<id>"), not a flow's, team's or service's. */
export const isSyncRow = (row) => /^#\d+$/.test(row.label);

/** Waits until the side bar's rows (treeRows) are what `wanted` asks for; returns the rows then. */
export async function waitForRows(wanted, { timeout = 20000, message = 'rows in the side bar' } = {}) {
  return waitFor(
    async () => {
      const rows = await treeRows();
      return wanted(rows) ? rows : undefined;
    },
    { timeout, message },
  );
}

/** Waits until the side bar shows a flow sync's row; returns the rows then. */
export function waitForSyncRows({ timeout = 20000, message = 'sync rows in the Processing view' } = {}) {
  return waitForRows((rows) => rows.some(isSyncRow), { timeout, message });
}

/** The status bar's text, items separated by " | " (what a person reads at the bottom of the window). */
export async function statusBarText() {
  const items = await page()
    .locator('.part.statusbar .statusbar-item')
    .evaluateAll((els) => els.map((el) => el.textContent?.trim() ?? '').filter(Boolean));
  return items.join(' | ');
}

/** Text of the visible Output channel, and its name as picked in the panel. */
export async function outputPanel() {
  const p = page();
  const panel = p.locator('.part.panel');
  if (!(await panel.isVisible())) return { channel: undefined, text: '' };
  const channel = await panel
    .locator('select.monaco-select-box, .monaco-select-box')
    .first()
    .evaluate((el) =>
      (el.tagName === 'SELECT'
        ? el.options[el.selectedIndex]?.text
        : (el.getAttribute('title') ?? el.textContent)
      )?.trim(),
    )
    .catch(() => undefined);
  const text = await panel
    .locator('.monaco-editor .view-lines')
    .first()
    .innerText()
    .catch(() => '');
  return { channel, text: text.replace(/\u00a0/g, ' ') };
}

/** Texts of the notifications (toasts and the notification center's list). */
export async function notifications() {
  return page()
    .locator(
      '.notification-toast-container .notification-list-item-message, .notifications-center .notification-list-item-message',
    )
    .allInnerTexts();
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
 * Runs a command from the command palette with the keyboard alone: F1, the title typed, Enter once the highlighted
 * row is that command (no mouse). `opensInput`: the command opens its own input box or quick pick.
 */
export async function runCommandByKeyboard(title, { timeout = 15000, opensInput = false } = {}) {
  const p = page();
  const input = p.locator('.quick-input-widget input');
  const focusedLabel = () =>
    p
      .locator('.quick-input-widget:visible .quick-input-list .monaco-list-row.focused .label-name')
      .first()
      .innerText()
      .catch(() => '');
  const until = Date.now() + timeout;
  for (;;) {
    if (await p.locator('.quick-input-widget').isVisible()) await p.keyboard.press('Escape');
    await p.keyboard.press('F1');
    // A key press can land while the workbench moves the focus (a quick pick closing, a view drawn): no palette then.
    // A person presses F1 again; so do we, until the whole timeout is spent.
    if (!(await becomes(input, 'visible', 3000))) {
      if (Date.now() > until) throw new Error(`the command palette did not open for "${title}" in ${timeout} ms`);
      console.log(`      [e2e] F1 opened no command palette for "${title}": again`);
      continue;
    }
    await p.keyboard.press('ControlOrMeta+A');
    // The whole text as one input (what a paste or an IME sends), not a key press per character: the palette filters
    // and redraws its list of every command once, not once per character (a cost a loaded 2-core machine feels).
    await p.keyboard.insertText(`>${title}`);
    // The palette lists the commands known when it opens: reopen until the command is listed; the arrow keys
    // move the highlight to it (a better match, e.g. "… in Marketplace", may be listed first).
    const labels = p.locator('.quick-input-widget:visible .quick-input-list .monaco-list-row .label-name');
    const listed = await waitFor(async () => (await labels.allInnerTexts()).some((l) => l.trim() === title), {
      timeout: 2000,
      message: `"${title}" listed`,
    }).catch(() => false);
    let found = false;
    for (let i = 0; listed && i < 20 && !(found = (await focusedLabel()).trim() === title); i++)
      await p.keyboard.press('ArrowDown');
    // Enter goes to the palette only while it is open with the text and has the focus: a palette that closed (lost the
    // focus) leaves its last rows in the page, hidden, and an Enter then lands in the workbench, running nothing.
    const palette =
      found &&
      (await p.evaluate((text) => {
        const el = document.activeElement;
        const widget = el?.closest('.quick-input-widget');
        return !!widget && widget.getClientRects().length > 0 && el.matches('input') && el.value === text;
      }, `>${title}`));
    if (found && !palette)
      console.log(`      [e2e] the command palette lost the focus before Enter on "${title}": again`);
    if (found && palette) {
      await p.keyboard.press('Enter');
      if (opensInput) {
        await waitFor(
          async () =>
            (await p.locator('.quick-input-widget').isVisible()) && !(await input.inputValue()).startsWith('>'),
          { timeout, message: `the input of "${title}"` },
        );
      } else {
        await p.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout });
      }
      return;
    }
    if (Date.now() > until) {
      await p.keyboard.press('Escape');
      throw new Error(`command "${title}" was not the highlighted row of the command palette after ${timeout} ms`);
    }
  }
}

/**
 * Types into the open quick input with the keyboard and presses Enter once the input shows the text and, in a pick
 * list, the highlighted row is one the text matches (the list filters as you type; Enter picks the highlighted row).
 */
export async function typeAndEnter(text) {
  const p = page();
  const input = p.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await p.keyboard.press('ControlOrMeta+A');
  await p.keyboard.insertText(text); // one input, as in runCommandByKeyboard
  const rows = p.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await waitFor(
    async () => {
      if ((await input.inputValue()) !== text) return false;
      if (!(await rows.count())) return true; // an input box: it validates the value it has when Enter is pressed
      const focused = await p
        .locator('.quick-input-widget .quick-input-list .monaco-list-row.focused')
        .first()
        .innerText()
        .catch(() => '');
      return focused.toLowerCase().includes(text.toLowerCase());
    },
    { message: `"${text}" typed, and the row it matches highlighted` },
  );
  const inputBox = (await rows.count()) === 0;
  await p.keyboard.press('Enter');
  if (!inputBox) return;
  // An input box validates as the text changes, and Enter that meets the answer for an earlier text (a key cut short)
  // is ignored: the box stays open with the text. A person sees it still open and presses Enter again; so do we, at
  // most three times, each time once the box has had the time to close (what we wait for), never after a fixed pause.
  const widget = p.locator('.quick-input-widget');
  for (let attempt = 1; ; attempt++) {
    const closed = await waitFor(async () => !(await widget.isVisible()), {
      timeout: 5000,
      message: 'the input box closed',
    }).then(
      () => true,
      () => false,
    );
    if (closed) return;
    if (attempt === 3 || (await input.inputValue()) !== text) {
      throw new Error(`the input box stayed open after Enter (${attempt} times): ${await widget.innerText()}`);
    }
    console.log(`      [e2e] the input box is still open after Enter: Enter again (${attempt + 1} of 3)`);
    await p.keyboard.press('Enter');
  }
}

/**
 * Sets the demo key with the keyboard alone, as a person would (Set API Key..., a password box, the key, Enter), then
 * focuses the Processing view and waits for its sync rows; returns the rows then.
 */
export async function setKeyByKeyboard() {
  await runCommandByKeyboard('Flow Sync: Set API Key...', { opensInput: true });
  assert.equal(await page().locator('.quick-input-widget input').getAttribute('type'), 'password');
  await typeAndEnter(DEMO_API_KEY);
  await runCommandByKeyboard('Flow Sync: Focus on Processing View');
  return waitForSyncRows({ timeout: 30000, message: 'sync rows' }).catch(async (error) => {
    // Mostly called in a before() hook, which gets no screenshot from the root hooks: what the window showed, and logs.
    await screenshot('set-key-no-rows').catch(() => {});
    throw new Error(
      `${error.message}; the side bar: ${JSON.stringify(await treeRows().catch(() => []))}\n${keptLogs()}`,
    );
  });
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
async function becomes(locator, state, timeout) {
  return locator.waitFor({ state, timeout }).then(
    () => true,
    () => false,
  );
}

/**
 * Opens a menu with `open()` and waits until it lists `title` (a string or RegExp for the item's label); returns
 * { menu, item }. A busy machine can draw the row or the view's title bar again between the press and the menu (a
 * refresh, its context keys), and no menu comes, or one without the item (an older row's): a person opens it again,
 * and so do we, at most 3 times, each bounded by the menu's appearance, and the log says so (`what` names the menu).
 */
export async function openMenu(open, title, what) {
  const p = page();
  const menu = p.locator('.context-view .monaco-menu');
  const item = menu.locator('.action-label', { hasText: title });
  for (let attempt = 1; ; attempt++) {
    await open();
    if (await becomes(item, 'visible', 5000)) return { menu, item };
    const shown = await menu.isVisible().catch(() => false);
    // Which menu came (the items it lists), for the log: another row's, or one drawn before its context keys.
    const items = shown
      ? await menu
          .locator('.action-label')
          .allInnerTexts()
          .catch(() => [])
      : [];
    const state = shown ? `open: ${JSON.stringify(items.filter(Boolean))}` : 'closed';
    console.log(`    [e2e] ${what} did not show ${title} (menu ${state}): again`);
    if (attempt === 3) throw new Error(`${what} did not show ${title} after 3 tries`);
    if (shown) await p.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden', timeout: 5000 });
  }
}

/** Right-clicks `row` and waits until its context menu lists `title` (openMenu). */
export function openContextMenu(row, title) {
  return openMenu(() => row.click({ button: 'right' }), title, 'the context menu');
}

/**
 * Clicks `item` of the open `menu` and waits until the menu has closed. A menu runs an item on the mouse release; a
 * menu drawn again under the pointer between press and release (the view's actions follow its context keys, a refresh
 * redraws a row's) can lose that click and stay open with the item highlighted (seen for the whole 10 s): a person
 * then presses Enter on the highlighted item, and so do we (the log says so).
 */
export async function clickMenuItem(menu, item) {
  await item.hover();
  await item.click();
  if (await becomes(menu, 'hidden', 3000)) return;
  console.log(`    [e2e] the menu stayed open after the click on "${await item.innerText().catch(() => '?')}": Enter`);
  await item.hover().catch(() => {});
  if (await menu.isVisible()) await page().keyboard.press('Enter');
  await menu.waitFor({ state: 'hidden', timeout: 10000 });
}

/** Runs `title` from `row`'s context menu, as a person does (openContextMenu, then clickMenuItem). */
export async function runFromContextMenu(row, title) {
  const { menu, item } = await openContextMenu(row, title);
  await clickMenuItem(menu, item);
}

/** The four default colour themes (VS Code 1.139's labels in the "Preferences: Color Theme" picker). */
export const DEFAULT_THEMES = [
  { name: 'dark', label: 'Dark 2026', bodyClass: 'vs-dark', webviewKind: 'vscode-dark' },
  { name: 'light', label: 'Light 2026', bodyClass: 'vs', webviewKind: 'vscode-light' },
  {
    name: 'high-contrast-dark',
    label: 'Dark High Contrast',
    bodyClass: 'hc-black',
    webviewKind: 'vscode-high-contrast',
  },
  {
    name: 'high-contrast-light',
    label: 'Light High Contrast',
    bodyClass: 'hc-light',
    webviewKind: 'vscode-high-contrast-light',
  },
];

/** Picks a colour theme by its label with the keyboard ("Preferences: Color Theme") and waits until it applies. */
export async function setColorTheme(theme) {
  const p = page();
  await runCommandByKeyboard('Preferences: Color Theme', { opensInput: true });
  await typeAndEnter(theme.label);
  await p.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10000 });
  await waitFor(
    async () => p.locator('.monaco-workbench').evaluate((el, cls) => el.classList.contains(cls), theme.bodyClass),
    { message: `the ${theme.label} theme` },
  );
}

/**
 * A webview checked in one colour theme, reached with the keyboard alone: picks `theme`, runs `command` (it shows the
 * webview), waits for the frame whose document matches `selector`, and hands it to `check`, which does the page's own
 * checks and screenshots and returns what axe found there (axeViolations). Every violation is logged; a serious or
 * critical one fails.
 */
export async function axeInTheme(theme, { command, selector, check }) {
  await setColorTheme(theme);
  await runCommandByKeyboard(command);
  const violations = await check(await webviewFrame(selector));
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (violations.length)
    console.log(
      `    [axe ${theme.name}] ${violations.map((v) => `${v.id} (${v.impact}): ${v.targets.join(' | ')}`).join('\n      ')}`,
    );
  assert.deepEqual(blocking, [], `serious or critical axe violations in ${theme.label}`);
}

/**
 * The frame of a webview whose document matches `selector` (webviews are an iframe holding another iframe, the
 * extension's page); waits until it is there.
 */
export async function webviewFrame(selector, { timeout = 15000 } = {}) {
  const p = page();
  return waitFor(
    async () => {
      for (const frame of p.frames()) {
        if (frame === p.mainFrame()) continue;
        if (
          await frame
            .locator(selector)
            .count()
            .catch(() => 0)
        )
          return frame;
      }
      return undefined;
    },
    { timeout, message: `a webview frame with ${selector}` },
  );
}

/**
 * Waits until the keyboard focus is in a webview's page (`frame`), as a person waits to see it there before pressing
 * Tab: VS Code moves it there once the page has loaded (a press before that moves the focus through the workbench
 * instead). Says where the focus is when it does not come.
 */
export async function focusInPage(frame, { timeout = 15000 } = {}) {
  await waitFor(() => frame.evaluate(() => document.hasFocus()), { timeout, message: 'the focus in the page' }).catch(
    async (error) => {
      const where = await page()
        .evaluate(() => {
          const el = document.activeElement;
          return el
            ? `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${el.getAttribute('aria-label') ?? ''}"`
            : 'nothing';
        })
        .catch(() => 'unknown');
      throw new Error(`${error.message}; the workbench's focus is on ${where}`);
    },
  );
}

/**
 * Presses Tab in a webview's page, once the focus is in it, until the element with the focus is `target` (its
 * `tagName`, its `text`, or both), at most `presses` times; fails saying what Tab did not reach.
 */
export async function tabInPage(frame, target, { presses = 12 } = {}) {
  await focusInPage(frame);
  const reached = () =>
    frame.evaluate(({ tagName, text }) => {
      const el = document.hasFocus() ? document.activeElement : null;
      return (
        !!el && (tagName === undefined || el.tagName === tagName) && (text === undefined || el.textContent === text)
      );
    }, target);
  const trail = []; // where each press took the focus, for the failure's message
  for (let i = 0; i < presses && !(await reached()); i++) {
    await page().keyboard.press('Tab');
    trail.push(
      await frame
        .evaluate(() =>
          document.hasFocus()
            ? `${document.activeElement?.tagName.toLowerCase()} "${(document.activeElement?.textContent ?? '').slice(0, 30)}"`
            : 'out of the page',
        )
        .catch((error) => error.message),
    );
  }
  assert.ok(await reached(), `Tab reaches ${JSON.stringify(target)}; the presses went to: ${trail.join(', ')}`);
}

/**
 * In a webview frame (frame.evaluate): whether the activity chart has drawn what its first message brought, a chart
 * (uPlot's canvas) or the line that says there is nothing or what failed.
 */
export function chartDrawn() {
  if (document.querySelector('.uplot canvas')) return true;
  return [...document.querySelectorAll('[role="status"], [role="alert"]')].some(
    (el) => el.getClientRects().length > 0 && (el.textContent ?? '').trim() !== '',
  );
}

/**
 * In a webview frame (frame.evaluate): resolves once the webview's document shows `theme` (VS Code sets its kind on the
 * body) and two animation frames have been drawn since (a redraw in the theme's colours is asked for on the next one).
 */
export function themeDrawn(kind) {
  if (document.body.getAttribute('data-vscode-theme-kind') !== kind) return false;
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))));
}

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core inside `frame` (the real webview document, in the theme the workbench shows) and returns its
 * violations: [{ id, impact, help, targets }]. axe is evaluated through the DevTools protocol, so the page's Content
 * Security Policy (scripts only with its nonce) does not have to be loosened for it.
 */
export async function axeViolations(frame) {
  if (!(await frame.evaluate(() => typeof globalThis.axe === 'object'))) await frame.evaluate(AXE_SOURCE);
  return frame.evaluate(async () => {
    const result = await globalThis.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1, 2).join('').trim() ?? ''}`),
    }));
  });
}
