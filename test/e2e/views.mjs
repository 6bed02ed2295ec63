// UI test helpers, the views: the activity bar, the side bar's trees and lists, the status bar, the Output panel and
// the notifications, read as a person reads them (test/e2e/workbench.mjs holds the session they drive).
import { page, waitFor } from './workbench.mjs';

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
