/* global document -- page functions run in the browser (page.evaluate) */
// UI test helpers, the command palette and the quick input: a command run by its title (with the mouse, or with the
// keyboard alone), text typed into an input box or a pick, the demo key set, a colour theme picked.
import assert from 'node:assert/strict';
import { treeRows, waitForSyncRows } from './views.mjs';
import { DEMO_API_KEY, becomes, keptLogs, page, screenshot, waitFor } from './workbench.mjs';

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
 * `secret`: the text (a password) is never in a message this throws or prints.
 */
export async function typeAndEnter(text, { secret = false } = {}) {
  const said = secret ? 'the secret text' : `"${text}"`;
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
    { message: `${said} typed, and the row it matches highlighted` },
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
    const sideBar = JSON.stringify(await treeRows().catch(() => []));
    throw new Error(`${error.message}; the side bar: ${sideBar}; ${await whatBringsRows()}\n${keptLogs()}`);
  });
}

/**
 * When the Processing view shows no rows though the key is set (seen once in a full run at load 11: the view blank, the
 * status bar "7 processing"): what a person would try, in turn, and whether the rows then came. The view drawn again
 * by the workbench alone (collapsed and expanded: it reads the rows the extension holds) tells a redraw the extension
 * never asked for from rows it does not have; Refresh tells whether a new answer redraws the view.
 */
async function whatBringsRows() {
  const header = page()
    .locator('.part.sidebar .pane-header', { hasText: /^Processing/ })
    .first();
  const tries = [
    [
      'the view collapsed and expanded',
      async () => (await header.click({ timeout: 3000 }), await header.click({ timeout: 3000 })),
    ],
    ['Flow Sync: Refresh', () => runCommandByKeyboard('Flow Sync: Refresh')],
  ];
  const said = [];
  for (const [what, act] of tries) {
    const came = await act()
      .then(() => waitForSyncRows({ timeout: 5000 }))
      .then(
        () => true,
        () => false,
      );
    said.push(`${what}: ${came ? 'the rows came' : 'no rows'}`);
    if (came) break;
  }
  return said.join('; ');
}

/**
 * Developer: Reload Window, then what a person waits for: the new document loaded and its workbench laid out (the
 * status bar). Until the reload navigates, the old document still answers, so a check right after the command could
 * read the window as it was, or meet its page going away (an e2e run at load 13: "Execution context was destroyed").
 */
export async function reloadWindow({ timeout = 30000 } = {}) {
  const loaded = page().waitForEvent('domcontentloaded', { timeout });
  await runCommand('Developer: Reload Window');
  await loaded;
  await page().locator('.part.statusbar').waitFor({ state: 'visible', timeout });
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
