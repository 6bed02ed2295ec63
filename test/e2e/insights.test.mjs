/* global document -- page functions run in the browser (frame.evaluate) */
// Show Flow Insights (issue #31): the page in its real webview frame, checked by axe-core in the four default colour
// themes (any serious or critical violation fails), with a screenshot per theme; reached and read with the keyboard
// alone. Its own window on a fresh profile; the mock's clock moves so syncs leave processing and History has runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import path from 'node:path';
import { RIG_DIR, freshWorkspace, openWorkbench, startCodeServer } from '../rig/codeServer.mjs';
import {
  DEFAULT_THEMES,
  DEMO_API_KEY,
  axeViolations,
  runCommandByKeyboard,
  screenshot,
  session,
  setColorTheme,
  treeRows,
  typeAndEnter,
  waitFor,
  webviewFrame,
} from './workbench.mjs';

describe('Flow Insights: keyboard alone, and axe in every default theme', function () {
  this.timeout(180000);
  let server;
  let workbench;
  let saved;

  before(async () => {
    server = await startCodeServer({
      rig: session.server.rig,
      name: 'e2e-insights',
      vsix: [path.join(RIG_DIR, 'flowsync-explorer.vsix')], // packaged by the session's start
      settings: { 'flowsync.baseUrl': session.mock.url, 'flowsync.autoRefresh': false },
      quiet: true,
    });
    workbench = await openWorkbench({
      server,
      browser: session.browser,
      folder: freshWorkspace('e2e-insights'),
      name: 'e2e-insights',
    });
    saved = session.page;
    session.page = workbench.page;
    await workbench.page.locator('.part.statusbar').waitFor({ state: 'visible', timeout: 30000 });
    await runCommandByKeyboard('Flow Sync: Set API Key...', { opensInput: true });
    await typeAndEnter(DEMO_API_KEY);
    await runCommandByKeyboard('Flow Sync: Focus on Processing View');
    await waitFor(async () => (await treeRows()).some((r) => /^#\d+$/.test(r.label)), {
      timeout: 30000,
      message: 'sync rows',
    });
    // Runs for History: the mock's clock moves on between refreshes, so syncs leave processing.
    for (let i = 0; i < 6; i++) {
      session.mock.advance(10 * 60_000);
      await runCommandByKeyboard('Flow Sync: Refresh Processing');
      await workbench.page.waitForTimeout(500);
    }
  });

  after(async () => {
    session.page = saved;
    await workbench?.close();
    await server?.stop();
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
    const keys = session.page.keyboard;
    const active = () => frame.evaluate(() => (document.hasFocus() ? (document.activeElement?.tagName ?? '') : ''));
    for (let i = 0; i < 6 && (await active()) !== 'SUMMARY'; i++) await keys.press('Tab');
    assert.equal(await active(), 'SUMMARY', 'Tab reaches the first flow\u2019s trend');
    await keys.press('Enter');
    await waitFor(async () => frame.evaluate(() => document.querySelector('details')?.open === true), {
      message: 'the trend opened',
    });
    await screenshot('insights-keyboard');
  });

  for (const theme of DEFAULT_THEMES) {
    it(`${theme.label} theme: axe finds no serious or critical violation in Flow Insights`, async () => {
      await setColorTheme(theme);
      await runCommandByKeyboard('Flow Sync: Show Flow Insights');
      const frame = await webviewFrame('main#app[aria-busy="false"] .intro');
      await frame.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
      await session.page.waitForTimeout(300);
      await screenshot(`insights-theme-${theme.name}`);
      const violations = await axeViolations(frame);
      const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      if (violations.length)
        console.log(
          `    [axe ${theme.name}] ${violations.map((v) => `${v.id} (${v.impact}): ${v.targets.join(' | ')}`).join('\n      ')}`,
        );
      assert.deepEqual(blocking, [], `serious or critical axe violations in ${theme.label}`);
    });
  }
});
