// Several services side by side (issue #20), as a person sets them up: Add Service... (the service used so far is kept
// under a name of the person's choosing), Set API Key... for the new one (a quick pick of the names, then the key),
// both shown under their names in the Processing view with the total in the status bar, then Remove Service... (after
// a confirmation) takes the new one and its key away. A second mock service of this test alone stands in for Staging.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'mocha';
import { REPO_ROOT } from '../rig/codeServer.mjs';
import { DEMO_API_KEY, screenshot, session, waitFor } from './workbench.mjs';
import { runCommand } from './palette.mjs';
import { isSyncRow, openView, outputPanel, statusBarText, treeRows, waitForSyncRows } from './views.mjs';

const STAGING_KEY = 'fs_demo_staging_4d5e6f7a8b9c';

/** Answers the open input box or quick pick whose title contains `title`: types `text` and presses Enter. */
async function answer(title, text) {
  const page = session.page;
  await waitFor(
    async () =>
      (
        await page
          .locator('.quick-input-widget .quick-input-title')
          .innerText()
          .catch(() => '')
      ).includes(title)
        ? true
        : undefined,
    {
      message: `the input "${title}"`,
    },
  );
  const input = page.locator('.quick-input-widget input');
  await input.fill(text);
  await input.press('Enter');
}

/** Hides the panel (Output, Problems) when it is shown, so the side bar is what the picture shows. */
async function closePanel() {
  if (await session.page.locator('.part.panel').isVisible()) await runCommand('View: Toggle Panel Visibility');
}

/** Collapses (or expands) a view of the Flow Sync side bar by its header, as a person clicks it. */
async function setPaneExpanded(title, expanded) {
  const header = session.page.locator('.part.sidebar .pane-header', { hasText: new RegExp(`^${title}$`, 'i') }).first();
  if ((await header.getAttribute('aria-expanded')) !== String(expanded)) await header.click();
}

describe('Several services side by side, as a person sets them up', function () {
  this.timeout(90000);
  let staging;

  before(async () => {
    const { MockFlowSyncServer } = createRequire(import.meta.url)(
      path.join(REPO_ROOT, 'out', 'src', 'mock', 'server.js'),
    );
    staging = await MockFlowSyncServer.start({ port: 0, apiKey: STAGING_KEY, seed: 29, flows: 5, processing: 6 });
    // Its clock stays still, as the session's mock's does: on the wall clock, a poll between reading the rows and
    // reading the status bar could change Staging's count (56 % of its 30 s polls do) and the sum asked for with it.
    staging.setNow(staging.now());
  });
  after(async () => staging?.close());

  it('adds a service: both are shown under their names, each with its own key, the status bar sums them up', async () => {
    await openView('Flow Sync');
    const status = await waitFor(
      async () => {
        const text = await statusBarText();
        return /Set API Key|processing/.test(text) ? text : undefined;
      },
      { timeout: 20000, message: 'the status bar after the first configuration' },
    );
    if (/Set API Key/.test(status)) {
      // Run alone (--grep), the one service has no key yet: set it as a person would.
      await runCommand('Flow Sync: Set API Key...', { opensInput: true });
      await answer('Flow Sync API key', DEMO_API_KEY);
    }
    await waitForSyncRows({ message: 'the one service loaded' });
    // The Processing view gets the side bar: two services' rows fit (and the picture shows them).
    await setPaneExpanded('Connections', false);
    await setPaneExpanded('History', false);
    await runCommand('Flow Sync: Add Service...', { opensInput: true });
    await answer('the name of your current service', 'Production');
    await answer('Add Service (1/2)', 'Staging');
    await answer('Add Service (2/2)', staging.url);
    // Staging has no key yet: its row says so, Production keeps its rows.
    await waitFor(
      async () => {
        const rows = await treeRows();
        return rows.some((r) => r.label === 'Production' && /\d+ syncs?/.test(r.description)) &&
          rows.some((r) => r.label === 'Staging' && /API key/.test(r.description))
          ? true
          : undefined;
      },
      { timeout: 20000, message: 'a row per service; Staging without a key' },
    );
    await runCommand('Flow Sync: Set API Key...', { opensInput: true });
    await answer('Set API Key', 'Staging');
    await answer('Flow Sync API key for Staging', STAGING_KEY);
    const rows = await waitFor(
      async () => {
        const r = await treeRows();
        return r.some((row) => row.label === 'Production' && /\d+ syncs?/.test(row.description)) &&
          r.some((row) => row.label === 'Staging' && /\d+ syncs?/.test(row.description))
          ? r
          : undefined;
      },
      { timeout: 20000, message: 'both services loaded' },
    );
    const services = rows.filter((r) => r.label === 'Production' || r.label === 'Staging');
    assert.deepEqual(
      services.map((r) => r.label),
      ['Production', 'Staging'],
      'in the order of the setting',
    );
    assert.ok(
      services.every((r) => r.level === 1),
      'service rows are the top level',
    );
    assert.ok(
      services.every((r) => /service/i.test(r.ariaLabel)),
      'a screen reader hears "service" on them',
    );
    const count = (label) => Number(services.find((r) => r.label === label).description.match(/(\d+) syncs?/)[1]);
    const total = count('Production') + count('Staging');
    await waitFor(async () => ((await statusBarText()).includes(`${total} processing`) ? true : undefined), {
      message: `the status bar says ${total} processing`,
    });
    const authorizations = staging.requests.map((r) => r.headers.authorization ?? '');
    assert.ok(
      authorizations.length > 0 && authorizations.every((h) => h === `Bearer ${STAGING_KEY}`),
      'Staging only ever saw its own key',
    );
    await runCommand('Notifications: Clear All Notifications');
    await closePanel(); // an earlier test's log may be open
    const log = await (async () => {
      await runCommand('Flow Sync: Show Log');
      return waitFor(
        async () => {
          const text = (await outputPanel()).text;
          return /\[Staging\] GET/.test(text) ? text : undefined;
        },
        { message: 'the log names the service of each request' },
      );
    })();
    assert.match(log, /\[Production\] GET/);
    await closePanel();
    await screenshot('readme-services');
  });

  it('removes a service and its key after asking; the other one stays', async () => {
    await runCommand('Flow Sync: Remove Service...', { opensInput: true });
    await answer('Remove Service', 'Staging');
    const dialog = session.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 10000 });
    assert.match(await dialog.innerText(), /Staging/);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await waitFor(
      async () => {
        const rows = await treeRows();
        return !rows.some((r) => r.label === 'Staging') && rows.some(isSyncRow) ? true : undefined;
      },
      { timeout: 20000, message: 'Staging gone, Production shown as the one service' },
    );
    const before = staging.requests.length;
    // Refresh loads every list of every service at once: once Production has been asked for its connections (a list
    // no poll asks for), the refresh has sent what it sends; the removed service got none of it.
    const connectionsAsked = () => session.mock.requests.filter((r) => r.path.endsWith('/connections/index')).length;
    const asked = connectionsAsked();
    await runCommand('Flow Sync: Refresh');
    await waitFor(() => connectionsAsked() > asked, { timeout: 15000, message: 'the refresh reached Production' });
    assert.equal(staging.requests.length, before, 'nothing is sent to a removed service');
    await setPaneExpanded('Connections', true);
    await setPaneExpanded('History', true);
  });
});
