/* global document, getComputedStyle -- page functions run in the browser (locator.evaluate) */
// Find (issue #30) with the keyboard alone: Filter Processing..., Clear Filter and Go to... through the palette, and a
// screenshot of the filtered view (test-results/screenshots/find-filtered.png). Its own window on a fresh profile (no
// key yet, as the accessibility suite does), so it leaves the session's window as the other suites expect it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { mousePresses, openOwnWindow, screenshot, session, waitFor } from './workbench.mjs';
import { runCommandByKeyboard, setKeyByKeyboard, typeAndEnter } from './palette.mjs';
import { isSyncRow, treeRows } from './views.mjs';

describe('Find: filter, clear and go to with the keyboard alone', function () {
  this.timeout(120_000);
  let own;

  before(async () => {
    own = await openOwnWindow('e2e-find', { settings: { 'flowsync.stuckAfterMinutes': 60 }, countMousePresses: true });
  });

  after(async () => own?.close());

  it('Filter Processing... shows only matching syncs and says so; Clear Filter brings them back; Go to... opens a sync', async () => {
    const page = session.page;
    await setKeyByKeyboard();
    const all = (await treeRows()).filter(isSyncRow);

    // 1. Filter by a flow that has syncs: the input box counts as you type; Enter filters the view.
    const sync = session.mock.dataset.processingAt(session.mock.now())[0];
    await runCommandByKeyboard('Flow Sync: Filter Processing...', { opensInput: true });
    await page.keyboard.type(`id:${sync.id}`);
    const message = page.locator('.quick-input-widget .quick-input-message');
    await waitFor(async () => /^1 of \d+ match$/.test((await message.innerText()).trim()), {
      message: 'the count as you type',
    });
    await page.keyboard.press('Enter');
    const header = page.locator('.part.sidebar .pane-header', { hasText: 'Processing' }).first();
    await waitFor(async () => (await header.innerText()).includes(`filter: id:${sync.id} · 1 of`), {
      message: 'the filter in the Processing header',
    });
    await waitFor(
      async () =>
        (await treeRows())
          .filter(isSyncRow)
          .map((r) => r.label)
          .join() === `#${sync.id}`,
      { message: 'only the matching sync' },
    );
    // The header says that a filter is on beside the title bar's buttons (shown: the view has the focus), at the side
    // bar's default width: its first word whole, not cut to "fi…" by six buttons. (The whole filter shows when the
    // buttons hide, the view neither focused nor hovered, or in a wider side bar.)
    // The focus is the view's from setKeyByKeyboard, back after the input box closes; a notification that came meanwhile
    // (the stuck sync's) can leave it elsewhere (a run met that): the view is focused from the keyboard first.
    await runCommandByKeyboard('Flow Sync: Focus on Processing View');
    await waitFor(async () => header.locator('.actions').isVisible(), { message: 'the title bar buttons shown' });
    const description = await header.locator('.description').evaluate((el) => {
      const style = getComputedStyle(el);
      const context = document.createElement('canvas').getContext('2d');
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = el.textContent ?? '';
      const firstWord = text.split(' ')[0];
      return {
        text,
        firstWord,
        shown: el.clientWidth,
        needed: Math.ceil(context.measureText(`${firstWord} `).width + context.measureText('…').width),
        whole: el.scrollWidth,
      };
    });
    assert.ok(
      description.needed <= description.shown,
      `"${description.text}": ${description.shown} of its ${description.whole} px shown, "${description.firstWord}…" needs ${description.needed}`,
    );
    await screenshot('find-filtered');

    // 2. Clear Filter from the palette: every sync again.
    await runCommandByKeyboard('Flow Sync: Clear Filter');
    await waitFor(async () => !(await header.innerText()).includes('filter:'), { message: 'the filter cleared' });
    await waitFor(async () => (await treeRows()).filter(isSyncRow).length >= Math.min(all.length, 2), {
      message: 'the syncs back',
    });

    // 3. Go to...: type the id, Enter: the sync is selected in its view and opens as JSON.
    await runCommandByKeyboard('Flow Sync: Go to Flow Sync or Connection...', { opensInput: true });
    await typeAndEnter(`#${sync.id}`);
    await waitFor(async () => (await treeRows()).some((r) => r.label === `#${sync.id}` && r.selected), {
      message: 'the sync selected',
    });
    await waitFor(
      async () =>
        (await page.locator('.tabs-container .tab .label-name').allInnerTexts()).some((t) =>
          t.includes(String(sync.id)),
        ),
      { message: 'its JSON tab' },
    );
    await screenshot('find-go-to');
    assert.equal(await mousePresses(), 0, 'no mouse press');
  });
});
