/* global document, getComputedStyle -- page functions run in the browser (frame.evaluate) */
// Accessible to everyone (issue #21): the main tasks with the keyboard alone, and the activity chart checked by axe-core
// inside its real webview frame in the four default colour themes (any serious or critical violation fails), with a
// screenshot per theme. Its own window on a fresh profile (no key yet), so it does not depend on the other suites.
// Find (issue #30) with the keyboard alone too, in the same window and first (the theme still the default one): Filter
// Processing..., Clear Filter and Go to... through the palette, and a screenshot of the filtered view
// (test-results/screenshots/find-filtered.png). One window for both: each open costs about 8 s of CPU.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { mousePresses, openOwnWindow, screenshot, session, waitFor } from './workbench.mjs';
import { DEFAULT_THEMES, runCommandByKeyboard, setKeyByKeyboard, typeAndEnter } from './palette.mjs';
import { isSyncRow, treeRows } from './views.mjs';
import {
  axeInTheme,
  axeViolations,
  chartDrawn,
  legendEntries,
  tabInPage,
  themeDrawn,
  webviewFrame,
} from './webviews.mjs';

describe('Accessible: keyboard alone (Find too), and axe in every default theme', function () {
  this.timeout(120000);
  let own;

  before(async () => {
    // Every mouse press in the workbench is counted: the keyboard test must need none.
    own = await openOwnWindow('e2e-a11y', { settings: { 'flowsync.stuckAfterMinutes': 60 }, countMousePresses: true });
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

  it('does the main tasks with the keyboard alone: key, team filter, Open as JSON, watch, chart and its range', async () => {
    const page = own.page;
    const keys = page.keyboard;
    // 1. Set the key (a password box).
    await setKeyByKeyboard();
    // What a screen reader hears: the status bar item in words, with its freshness; the stuck row says it is stuck.
    const statusName = await waitFor(
      async () => page.locator('.part.statusbar [aria-label*="processing"]').first().getAttribute('aria-label'),
      { message: 'the status bar item' },
    );
    assert.match(statusName, /^\d+ flow syncs processing, 1 stuck, updated (just now|\d+ seconds ago)$/);
    const stuckName = await waitFor(
      // A sync's row (its name starts with its id): its flow's row says "1 stuck" too (issue #52: a flow wears its syncs' state).
      async () =>
        (await treeRows()).find((r) => /stuck/.test(r.description) && /^#\d+/.test(r.ariaLabel ?? ''))?.ariaLabel,
      { message: 'the stuck row' },
    );
    assert.match(stuckName, /^#\d+, stuck, (pending|running|retrying|queued), started .+ ago/);

    // 2. Filter by team, then clear the filter.
    const team = session.mock.dataset.teams[1];
    await runCommandByKeyboard('Flow Sync: Filter by Team...', { opensInput: true });
    await typeAndEnter(team.name);
    const header = page.locator('.part.sidebar .pane-header', { hasText: 'Processing' }).first();
    await waitFor(async () => (await header.innerText()).includes(`Team: ${team.name}`), {
      message: 'the team in the Processing header',
    });
    await runCommandByKeyboard('Flow Sync: Clear Team Filter');
    await waitFor(async () => !(await header.innerText()).includes('Team:'), { message: 'the filter cleared' });

    // 3. Open a sync as JSON: focus the Processing view, move to a sync row with the arrow keys, then the command.
    const focusedRow = () => page.locator('.part.sidebar .monaco-list:focus-within .monaco-list-row.focused').first();
    const listFocused = () => page.locator('.part.sidebar .monaco-list:focus-within').count();
    /**
     * Focus on Processing View from the palette until the side bar's list has the focus and `ready()` holds. A busy run
     * can see the focus the command gave taken back by the closing palette or input (to the editor or the filter's box):
     * a person sees the view unfocused and runs the command again, and so does this.
     */
    const focusProcessing = (ready, message) =>
      waitFor(
        async () => {
          if (await listFocused()) return ready();
          await runCommandByKeyboard('Flow Sync: Focus on Processing View');
          return false;
        },
        { timeout: 30000, message },
      );
    // A tree that has the focus but no focused row yet: the first arrow key focuses its first row.
    await focusProcessing(async () => {
      if ((await focusedRow().count()) > 0) return true;
      await keys.press('ArrowDown');
      return false;
    }, 'a focused row in the Processing view');
    for (let i = 0; i < 10 && !/^#\d+/.test(await focusedRow().innerText()); i++) await keys.press('ArrowDown');
    const label = (await focusedRow().locator('.label-name').first().innerText()).trim();
    assert.match(label, /^#\d+$/, 'a sync row has the focus');
    const id = label.slice(1);
    await keys.press('Enter'); // selects the focused row (what the commands act on)
    await waitFor(
      async () =>
        (
          await page
            .locator('.part.sidebar .monaco-list-row.selected')
            .first()
            .innerText()
            .catch(() => '')
        ).includes(label),
      { message: `${label} selected` },
    );
    await runCommandByKeyboard('Flow Sync: Open as JSON');
    await page
      .locator('.tabs-container .tab', { hasText: `Flow sync ${id}.json` })
      .waitFor({ state: 'visible', timeout: 10000 });

    // 4. Watch that sync: back to the view (its row keeps the focus), then the command.
    await focusProcessing(
      async () =>
        (
          await focusedRow()
            .innerText({ timeout: 1000 })
            .catch(() => '')
        ).includes(label),
      `${label} focused again`,
    );
    await runCommandByKeyboard('Flow Sync: Notify When Finished');
    await waitFor(async () => (await treeRows()).some((r) => r.label === label && /watched/.test(r.description)), {
      message: `${label} watched`,
    });

    // 5. The chart: it takes the focus; Tab reaches the range buttons; Enter switches the range; the table opens and
    // its region takes the focus (it scrolls with the arrow keys).
    await runCommandByKeyboard('Flow Sync: Show Activity Chart');
    const frame = await webviewFrame('main#app[aria-busy="false"]');
    const tabTo = (text) => tabInPage(frame, { text });
    await tabTo('Day');
    await keys.press('Enter');
    await waitFor(
      async () => (await frame.locator('button', { hasText: 'Day' }).getAttribute('aria-pressed')) === 'true',
      { message: 'Day pressed' },
    );
    assert.equal(await frame.locator('button', { hasText: 'Hour' }).getAttribute('aria-pressed'), 'false');
    if (await frame.locator('button.toggle').isVisible()) {
      await tabTo('Show Table');
      await keys.press('Space');
      await frame.locator('table th[scope="col"]').first().waitFor({ state: 'visible', timeout: 5000 });
      await keys.press('Tab');
      assert.equal(
        await frame.evaluate(() => document.activeElement?.id),
        'activity-table',
        'the table region takes the focus',
      );
    }
    assert.equal(await mousePresses(), 0, 'no mouse press was needed');
  });

  for (const theme of DEFAULT_THEMES) {
    it(`${theme.label} theme: axe finds no serious or critical violation in the activity chart`, () =>
      axeInTheme(theme, {
        command: 'Flow Sync: Show Activity Chart',
        selector: 'main#app[aria-busy="false"]',
        check: async (frame) => {
          // The chart is drawn, then again in the new theme's colours on the next frame.
          await waitFor(() => frame.evaluate(chartDrawn), { timeout: 15000, message: 'the chart drawn' });
          await waitFor(() => frame.evaluate(themeDrawn, theme.webviewKind), {
            timeout: 15000,
            message: `the chart drawn in ${theme.label}`,
          });
          await screenshot(`theme-${theme.name}`);
          if (theme.name === 'high-contrast-dark') await screenshot('readme-high-contrast');
          // The legend names the flows without empty "Name:" slots while nothing is hovered.
          const legend = await frame.evaluate(legendEntries);
          assert.ok(legend.length > 0, `the legend names the flows in ${theme.label}`);
          assert.deepEqual(
            legend.filter((entry) => entry.endsWith(':')),
            [],
            `empty legend slots in ${theme.label}: ${legend.join(' | ')}`,
          );
          // Hovering the last bucket (the plot ends 8 px before the canvas does) shows its time and each flow's count;
          // leaving it, the names only again.
          const canvas = frame.locator('#chart canvas');
          const box = await canvas.boundingBox();
          await canvas.hover({ position: { x: box.width - 12, y: box.height / 2 } });
          await waitFor(async () => (await frame.evaluate(legendEntries)).length === legend.length + 1, {
            message: 'the time added to the legend on hover',
          });
          const hovered = await frame.evaluate(legendEntries);
          await screenshot(`theme-${theme.name}-hover`);
          assert.ok(
            hovered.every((entry) => /:\S/.test(entry)),
            `a value after each name on hover in ${theme.label}: ${hovered.join(' | ')}`,
          );
          await session.page.mouse.move(0, 0);
          await waitFor(async () => (await frame.evaluate(legendEntries)).join('|') === legend.join('|'), {
            message: 'the legend idle again',
          });
          // The pressed range looks pressed in every theme (high contrast themes fill no button).
          const looks = await frame.evaluate(() =>
            [...document.querySelectorAll('.ranges button')].map((b) => {
              const c = getComputedStyle(b);
              return {
                pressed: b.getAttribute('aria-pressed'),
                look: [c.backgroundColor, c.color, c.fontWeight, c.outlineStyle, c.outlineColor, c.borderColor].join(
                  ' ',
                ),
              };
            }),
          );
          const pressed = looks.filter((l) => l.pressed === 'true');
          assert.equal(pressed.length, 1, 'one range pressed');
          assert.ok(
            looks.filter((l) => l.pressed === 'false').every((l) => l.look !== pressed[0].look),
            `the pressed range looks different in ${theme.label}: ${JSON.stringify(looks)}`,
          );
          const violations = await axeViolations(frame);
          // And with the table shown (its toggle pressed from the keyboard).
          const toggle = frame.locator('button.toggle');
          if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') {
            await toggle.focus();
            await session.page.keyboard.press('Enter');
          }
          if (await toggle.isVisible()) {
            await frame.locator('#activity-table table').waitFor({ state: 'visible', timeout: 5000 });
            for (const v of await axeViolations(frame)) if (!violations.some((w) => w.id === v.id)) violations.push(v);
          }
          return violations;
        },
      }));
  }
});
