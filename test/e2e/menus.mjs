// UI test helpers, the menus: a view's or a row's menu opened, and an item of it run, as a person does (a menu drawn
// again under the pointer is opened again, a lost click is followed by Enter; the log says so).
import { becomes, page } from './workbench.mjs';

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
