/* global document, getComputedStyle, requestAnimationFrame -- page functions run in the browser (frame.evaluate) */
// UI test helpers, the webviews: a webview's page (its frame), the keyboard's focus and Tab in it, what it has drawn,
// and axe-core's checks of it in each colour theme.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import { runCommandByKeyboard, setColorTheme } from './palette.mjs';
import { page, waitFor } from './workbench.mjs';

/**
 * A webview checked in one colour theme, reached with the keyboard alone: picks `theme`, then axeInPage. Each of
 * `pages` ({ command, selector, check }) is checked in turn in that theme: one theme change for all of them.
 */
export async function axeInTheme(theme, ...pages) {
  await setColorTheme(theme);
  for (const shown of pages) await axeInPage(theme, shown);
}

/**
 * A webview checked in the colour theme the window has (`theme`): runs `command` by keyboard (it shows the webview),
 * waits for the frame whose document matches `selector`, and hands it to `check`, which does the page's own checks and
 * screenshots and returns what axe found there (axeViolations). Every violation is logged; a serious or critical one
 * fails.
 */
async function axeInPage(theme, { command, selector, check }) {
  await runCommandByKeyboard(command);
  const violations = await check(await webviewFrame(selector));
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (violations.length)
    console.log(
      `    [axe ${theme.name} ${command}] ${violations.map((v) => `${v.id} (${v.impact}): ${v.targets.join(' | ')}`).join('\n      ')}`,
    );
  assert.deepEqual(blocking, [], `serious or critical axe violations in ${theme.label} (${command})`);
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
 * (its canvas with pixels drawn on it, and its legend) or the line that says there is nothing or what failed.
 */
export function chartDrawn() {
  const canvas = document.querySelector('#chart canvas');
  if (canvas && canvas.width > 0 && canvas.height > 0 && document.querySelector('#chart .legend .legend-item')) {
    const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) return true;
  }
  return [...document.querySelectorAll('[role="status"], [role="alert"]')].some(
    (el) => el.getClientRects().length > 0 && (el.textContent ?? '').trim() !== '',
  );
}

/**
 * In a webview frame (frame.evaluate): the activity chart's legend entries a person sees, each as it reads: the name,
 * the colon after it when shown, and the value when shown ("Orders:3"; "Orders" while nothing is hovered).
 */
export function legendEntries() {
  return [...document.querySelectorAll('#chart .legend .legend-item')]
    .filter((item) => item.getClientRects().length > 0)
    .map((item) => {
      const name = item.querySelector('.legend-name');
      const value = item.querySelector('.legend-value');
      const after = name ? getComputedStyle(name, '::after').content : 'none';
      const shownValue = value && getComputedStyle(value).display !== 'none' ? value.textContent.trim() : '';
      return `${name?.textContent.trim() ?? ''}${after !== 'none' && after !== 'normal' ? after.replace(/"/g, '') : ''}${shownValue}`;
    });
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
