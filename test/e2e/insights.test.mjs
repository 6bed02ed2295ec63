/* global document -- page functions run in the browser (frame.evaluate) */
// Show Flow Insights (issue #31): the page in its real webview frame, checked by axe-core in the four default colour
// themes (any serious or critical violation fails), with a screenshot per theme; reached and read with the keyboard
// alone. Its own window on a fresh profile; the mock's clock moves so syncs leave processing and History has runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { openOwnWindow, screenshot, session, waitFor } from './workbench.mjs';
import { DEFAULT_THEMES, runCommandByKeyboard, setKeyByKeyboard } from './palette.mjs';
import { historyRuns } from './historyRuns.mjs';
import { axeInTheme, axeViolations, tabInPage, themeDrawn, webviewFrame } from './webviews.mjs';

describe('Flow Insights: keyboard alone, and axe in every default theme', function () {
  this.timeout(180000);
  let own;
  let advancedMs = 0;

  before(async () => {
    own = await openOwnWindow('e2e-insights', { settings: { 'flowsync.autoRefresh': false } });
    await setKeyByKeyboard();
    advancedMs = await historyRuns('insights', own.server);
  });

  // The session's mock is shared: its clock goes back to where the suites after this one expect it (an hour ahead of
  // the workbench's, their syncs would have started in the future: "started unknown time" in the README's pictures).
  after(async () => {
    session.mock.advance(-advancedMs);
    await own?.close();
  });

  it('opens from the keyboard; its flows are a table with headers; a flow\u2019s trend opens with Enter', async () => {
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
    it(`${theme.label} theme: axe finds no serious or critical violation in Flow Insights`, () =>
      axeInTheme(theme, {
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
      }));
  }
});
