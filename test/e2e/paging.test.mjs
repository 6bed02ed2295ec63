// A level of more than 1,000 rows (issue #52 item 9) with the keyboard alone: the Processing view of about 2,500 syncs
// in one level shows 1,000 and a "Show more" row; End, then Enter on it, shows 2,000 with the focus on the first new
// row; Go to... a sync of the third page reveals it. Its own window and mock (the session's lists a few syncs), and a
// screenshot (test-results/screenshots/paging-show-more.png).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'mocha';
import { REPO_ROOT } from '../rig/codeServer.mjs';
import { mousePresses, openOwnWindow, page, screenshot, waitFor } from './workbench.mjs';
import { runCommandByKeyboard, setKeyByKeyboard, typeAndEnter } from './palette.mjs';

/** The Processing view's focused row: its index in the list, its label and what a screen reader says of it. */
async function focusedRow() {
  return page()
    .locator('.part.sidebar .monaco-list-row.focused')
    .evaluateAll((rows) =>
      rows.map((row) => ({
        index: Number(row.getAttribute('data-index')),
        setSize: Number(row.getAttribute('aria-setsize')),
        label: row.querySelector('.label-name')?.textContent?.trim() ?? '',
        ariaLabel: row.getAttribute('aria-label') ?? '',
        selected: row.classList.contains('selected'),
      })),
    )
    .then((rows) => rows[0]);
}

describe('A level pages: "Show more" and Go to with the keyboard alone', function () {
  this.timeout(180_000);
  let own;
  let mock;
  let ids;

  before(async () => {
    const { MockFlowSyncServer } = createRequire(import.meta.url)(
      path.join(REPO_ROOT, 'out', 'src', 'mock', 'server.js'),
    );
    const startedAt = Date.now();
    mock = await MockFlowSyncServer.start({ port: 0, processing: 2_500, now: () => startedAt });
    ids = mock.dataset
      .processingAt(mock.now())
      .map((sync) => sync.id)
      .sort((a, b) => a - b);
    own = await openOwnWindow('e2e-paging', {
      settings: {
        'flowsync.baseUrl': mock.url,
        'flowsync.processing.groupBy': 'none',
        'flowsync.processing.sortBy': 'id',
        'flowsync.autoRefresh': false,
      },
      countMousePresses: true,
    });
  });

  after(async () => {
    await own?.close();
    await mock?.close();
  });

  it('shows 1,000 rows and "Show more"; Enter on it shows 2,000; Go to... a row on the third page reveals it', async () => {
    const total = ids.length.toLocaleString('en-US');
    assert.ok(ids.length > 2_000 && ids.length <= 3_000, `about 2,500 syncs: ${ids.length}`);
    await setKeyByKeyboard();

    // 1. End in the view: its last row is "Show more", said in words
    await runCommandByKeyboard('Flow Sync: Focus on Processing View');
    await page().keyboard.press('End');
    const more = await waitFor(
      async () => {
        const row = await focusedRow();
        return row?.label.startsWith('Show ') && row;
      },
      { timeout: 20000, message: 'the "Show more" row focused' },
    );
    assert.deepEqual([more.index, more.setSize], [1_000, 1_001], 'after 1,000 rows, the last');
    assert.equal(more.label, `Show 1,000 more (1,000 of ${total} shown)`);
    assert.equal(more.ariaLabel, `Show 1,000 more rows: 1,000 of ${total} rows are shown. Press Enter to show them.`);
    const actions = await page()
      .locator('.part.sidebar .monaco-list-row.focused .actions .action-label')
      .evaluateAll((labels) => labels.map((l) => l.getAttribute('aria-label') ?? l.textContent));
    assert.deepEqual(actions, [], 'no row action: it is no sync');
    await screenshot('paging-show-more');

    // 2. Enter: a page more, the focus on its first new row
    await page().keyboard.press('Enter');
    await waitFor(
      async () => {
        const row = await focusedRow();
        return row?.index === 1_000 && row.label === `#${ids[1_000]}` && row.setSize === 2_001;
      },
      { timeout: 20000, message: `#${ids[1_000]}, the first new row, focused` },
    );

    // 3. Go to... a sync of the third page: its page is shown, and it is selected
    // a row inside the third page (rows 2,000 on) whatever the mock's count (about 2,500: 2,001 - 3,000 above): a clean
    // clone's run met 2,393 syncs, and ids[2_399] typed "#undefined"
    const target = ids[2_000 + Math.min(399, Math.floor((ids.length - 2_000) / 2))];
    await runCommandByKeyboard('Flow Sync: Go to Flow Sync or Connection...', { opensInput: true });
    await typeAndEnter(`#${target}`);
    await waitFor(
      async () => {
        const row = await page()
          .locator('.part.sidebar .monaco-list-row.selected')
          .evaluateAll((rows) => rows.map((r) => r.querySelector('.label-name')?.textContent?.trim()));
        return row.includes(`#${target}`);
      },
      { timeout: 20000, message: `#${target} selected` },
    );
    assert.equal(await mousePresses(), 0, 'no mouse press');
  });
});
