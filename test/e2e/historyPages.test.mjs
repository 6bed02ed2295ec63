/* global document -- page functions run in the browser (frame.evaluate) */
// The pages drawn from History, in one window of their own on a fresh profile (a window costs about 8 s of CPU to open;
// these pages need the same one: a key and runs in History, the mock's clock moved so syncs leave processing):
//   - Show Flow Insights (issue #31): the page in its real webview frame, reached and read with the keyboard alone;
//   - the Run Timeline (issue #52, item 1): opened from the palette, a bar reached and moved to with the keyboard alone
//     and its name read;
//   - both checked by axe-core in the four default colour themes (any serious or critical violation fails), with a
//     screenshot each, one theme change for both pages;
//   - the panels that come back after a reload (issue #52, item 2): the activity chart, Flow Insights and the timeline,
//     each drawn again (without their serializers, VS Code drops the panels: this test fails).
// The timeline's first picture (README) is taken first, in the default theme.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { openOwnWindow, page, screenshot, session, waitFor } from './workbench.mjs';
import { DEFAULT_THEMES, reloadWindow, runCommand, runCommandByKeyboard, setKeyByKeyboard } from './palette.mjs';
import { historyRuns } from './historyRuns.mjs';
import { axeInTheme, axeViolations, tabInPage, themeDrawn, webviewFrame } from './webviews.mjs';

const DRAWN = 'main#app[aria-busy="false"] .chart';
/** The accessible name of a bar: "#1003 Invoices → Sheets, 09:14 to about 09:26, ran about 12 min[, had errors]". */
const BAR_NAME = /^#\d+ .+, (before )?.+ to (about .+|now), (ran about|processing for) \d+ (s|min|h|d)\b.*$/;

/** What has the focus in the page: its tag and its accessible name. */
const focused = (frame) =>
  frame.evaluate(() =>
    document.hasFocus()
      ? { tag: document.activeElement?.tagName, name: document.activeElement?.getAttribute('aria-label') ?? '' }
      : undefined,
  );

/** The editor tabs' labels. */
const tabLabels = () =>
  page()
    .locator('.tabs-container .tab')
    .evaluateAll((tabs) => tabs.map((t) => t.getAttribute('aria-label') ?? t.textContent ?? ''));

describe('Pages drawn from History: Flow Insights and the Run Timeline, by keyboard, axe in every default theme, kept across a reload', function () {
  this.timeout(240000);
  let own;
  let advancedMs = 0;

  before(async () => {
    own = await openOwnWindow('e2e-history-pages', { settings: { 'flowsync.autoRefresh': false } });
    await setKeyByKeyboard();
    advancedMs = await historyRuns('history-pages', own.server);
  });

  // The session's mock is shared: its clock goes back to where the suites after this one expect it (an hour ahead of
  // the workbench's, their syncs would have started in the future: "started unknown time" in the README's pictures).
  after(async () => {
    session.mock.advance(-advancedMs);
    await own?.close();
  });

  it('Run Timeline: opens from the palette; Tab reaches a bar, the arrow keys move from bar to bar, each read by its name; Enter shows it in History', async () => {
    await runCommandByKeyboard('Flow Sync: Show Run Timeline');
    const frame = await webviewFrame(DRAWN);
    await screenshot('readme-timeline');
    // the chosen bar: the only button without words of its own (its name is its aria-label)
    await tabInPage(frame, { tagName: 'BUTTON', text: '' }, { presses: 14 });
    const first = await focused(frame);
    assert.match(first?.name ?? '', BAR_NAME, 'the focused bar has its name');
    const names = [first.name];
    for (const key of ['ArrowLeft', 'ArrowDown', 'ArrowRight', 'ArrowUp']) {
      await page().keyboard.press(key);
      await waitFor(async () => (await focused(frame))?.tag === 'BUTTON', {
        message: `the focus stays on a bar (${key})`,
      });
      names.push((await focused(frame)).name);
    }
    for (const name of names) assert.match(name, BAR_NAME);
    assert.ok(new Set(names).size > 1, `the arrows moved to other bars: ${names.join(' | ')}`);
    await page().keyboard.press('+');
    await page().keyboard.press('Shift+ArrowLeft');
    await waitFor(async () => (await focused(frame))?.tag === 'BUTTON', {
      message: 'zoom and pan keep the focus on a bar',
    });
    assert.match((await focused(frame)).name, BAR_NAME);
    await page().keyboard.press('-');
    await page().keyboard.press('Shift+ArrowRight');
    // Enter shows the chosen run in History (a run processing now: in Processing), selected
    await waitFor(async () => (await focused(frame))?.tag === 'BUTTON', { message: 'a bar has the focus' });
    const id = /^#(\d+)/.exec((await focused(frame)).name)[1];
    await page().keyboard.press('Enter');
    await waitFor(
      () =>
        page()
          .locator('.part.sidebar .monaco-list-row.selected', { hasText: `#${id}` })
          .count(),
      { timeout: 15000, message: `run #${id} selected in its view` },
    );
  });

  it('Flow Insights: opens from the keyboard; its flows are a table with headers; a flow\u2019s trend opens with Enter', async () => {
    await runCommandByKeyboard('Flow Sync: Show Flow Insights');
    const frame = await webviewFrame('main#app[aria-busy="false"] .intro');
    await frame.locator('table.flows th[scope="col"]').first().waitFor({ state: 'visible', timeout: 15000 });
    const headers = await frame.evaluate(() =>
      [...document.querySelectorAll('table.flows thead th')].map((th) => th.textContent),
    );
    assert.deepEqual(headers, [
      'Flow',
      'Runs',
      'Median',
      'p95',
      'p99',
      'Runs per day',
      'Last 24 hours',
      'Compared with usual',
    ]);
    assert.ok((await frame.locator('table.flows tbody tr').count()) > 0, 'a row per flow');
    // The first flow's trend (its summary) is at most 6 presses away.
    await tabInPage(frame, { tagName: 'SUMMARY' }, { presses: 6 });
    await session.page.keyboard.press('Enter');
    await waitFor(async () => frame.evaluate(() => document.querySelector('details')?.open === true), {
      message: 'the trend opened',
    });
    await screenshot('insights-keyboard');
  });

  for (const theme of DEFAULT_THEMES) {
    it(`${theme.label} theme: axe finds no serious or critical violation in Flow Insights and the Run Timeline`, () =>
      axeInTheme(
        theme,
        {
          command: 'Flow Sync: Show Flow Insights',
          selector: 'main#app[aria-busy="false"] .intro',
          check: async (frame) => {
            await frame.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
            // The trends are drawn open, in the theme's colours (two frames after the theme reached the page).
            await waitFor(() => frame.evaluate(themeDrawn, theme.webviewKind), {
              timeout: 15000,
              message: `Flow Insights drawn in ${theme.label}`,
            });
            await screenshot(`insights-theme-${theme.name}`);
            return axeViolations(frame);
          },
        },
        {
          command: 'Flow Sync: Show Run Timeline',
          selector: DRAWN,
          check: async (frame) => {
            // its table shown too: axe reads it
            const toggle = frame.locator('button.toggle');
            if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
            await waitFor(() => frame.evaluate(themeDrawn, theme.webviewKind), {
              timeout: 15000,
              message: `the timeline drawn in ${theme.label}`,
            });
            await screenshot(`timeline-theme-${theme.name}`);
            return axeViolations(frame);
          },
        },
      ));
  }

  it('a reload of the window brings back the activity chart (in its range), Flow Insights and the Run Timeline', async () => {
    await runCommand('View: Close All Editors');
    await runCommand('Flow Sync: Show Activity Chart');
    const chart = await webviewFrame('main#app .ranges button');
    await chart.locator('.ranges button', { hasText: 'Week' }).click();
    await waitFor(() => chart.evaluate(() => document.querySelector('.ranges [aria-pressed="true"]')?.textContent), {
      message: 'the week chosen',
    }).then((pressed) => assert.equal(pressed, 'Week'));
    await runCommand('Flow Sync: Show Flow Insights');
    await webviewFrame('main#app[aria-busy="false"] .intro');
    await runCommand('Flow Sync: Show Run Timeline');
    await webviewFrame(DRAWN);
    const before = await tabLabels();
    for (const title of ['Flow Sync Activity', 'Flow Insights', 'Run Timeline'])
      assert.ok(
        before.some((l) => l.includes(title)),
        `${title} open before the reload: ${before.join(', ')}`,
      );

    await reloadWindow();
    // each tab back, and each page drawn again from History when shown
    await webviewFrame(DRAWN, { timeout: 30000 });
    const after = await tabLabels();
    for (const title of ['Flow Sync Activity', 'Flow Insights', 'Run Timeline'])
      assert.ok(
        after.some((l) => l.includes(title)),
        `${title} back after the reload: ${after.join(', ')}`,
      );
    await page().locator('.tabs-container .tab', { hasText: 'Flow Insights' }).click();
    await webviewFrame('main#app[aria-busy="false"] .intro', { timeout: 30000 });
    await page().locator('.tabs-container .tab', { hasText: 'Flow Sync Activity' }).click();
    const restored = await webviewFrame('main#app .ranges [aria-pressed="true"]', { timeout: 30000 });
    assert.equal(
      await restored.evaluate(() => document.querySelector('.ranges [aria-pressed="true"]')?.textContent),
      'Week',
      'the chart in the range it had',
    );
    await screenshot('readme-restored');
  });
});
