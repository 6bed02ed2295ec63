// The translation path, end to end: VS Code started with the German display language shows the extension's German
// strings, from package.nls.de.json (view welcome, command titles) and l10n/bundle.l10n.de.json (status bar).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'mocha';
import { E2E_VSIX, REPO_ROOT, freshWorkspace, openWorkbench, startCodeServer } from '../rig/codeServer.mjs';
import { SCREENSHOT_DIR, safeFileName, session, waitFor } from './workbench.mjs';

describe('In German (VS Code display language de)', function () {
  this.timeout(120000);
  let server;
  let workbench;
  let workspace;

  before(async () => {
    // VS Code uses a display language only when a language pack provides it. The marketplace is out of reach, so a
    // minimal pack of our own (test/fixtures/language-pack-de: German available, no VS Code translations) is installed
    // from its folder, as the CLI would install it from a VSIX (test/rig/extensions.mjs).
    const languagePack = path.join(REPO_ROOT, 'test', 'fixtures', 'language-pack-de');
    server = await startCodeServer({
      rig: session.rig,
      name: 'e2e-de',
      vsix: [E2E_VSIX, languagePack], // the first is packaged by test/e2e/run.mjs or the session's start
      settings: { 'flowsync.baseUrl': session.mock.url },
      locale: 'de',
      // What VS Code writes when it installs a language pack: the server resolves the display language from it.
      userDataFiles: {
        'languagepacks.json': JSON.stringify({
          de: {
            hash: 'flowsync-test-de-1',
            label: 'Deutsch',
            extensions: [{ extensionIdentifier: { id: 'flowsync-tests.test-language-pack-de' }, version: '1.0.0' }],
            translations: {
              vscode: path.join(REPO_ROOT, 'test', 'fixtures', 'language-pack-de', 'translations', 'main.i18n.json'),
            },
          },
        }),
      },
      quiet: true,
    });
    workspace = freshWorkspace('e2e-de');
    workbench = await openWorkbench({ server, browser: session.browser, folder: workspace, name: 'e2e-de' });
  });

  after(async () => {
    if (workbench)
      await workbench.page
        .screenshot({ path: path.join(SCREENSHOT_DIR, `${safeFileName('german')}.png`) })
        .catch(() => {});
    await workbench?.close();
    await server?.stop();
  });

  it('shows the welcome view, the command palette and the status bar in German', async () => {
    const page = workbench.page;
    await page.locator('.part.activitybar [aria-label^="Flow Sync"]').first().click();
    const sidebar = await waitFor(
      async () => {
        const text = await page.locator('.part.sidebar').innerText();
        return text.includes('Geben Sie Ihren Flow Sync-API-Schlüssel ein') ? text : undefined;
      },
      { timeout: 30000, message: 'the German welcome text' },
    );
    assert.match(sidebar, /API-Schlüssel festlegen/);
    const status = await waitFor(
      async () => {
        const text = await page.locator('.part.statusbar').innerText();
        return text.includes('Flow Sync: API-Schlüssel festlegen') ? text : undefined;
      },
      { message: 'the German status bar item' },
    );
    assert.ok(status);
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    // In another display language the palette shows each command's English title as a secondary label: the German
    // title must be there for every Flow Sync command. The list shows only so many rows: look for each one.
    for (const title of [
      'API-Schlüssel festlegen...',
      'Dienst-URL festlegen...',
      'Nach Team filtern...',
      'Als JSON öffnen',
      'Protokoll anzeigen',
    ]) {
      await input.fill(`>Flow Sync: ${title}`);
      const labels = await waitFor(
        async () => {
          const rows = await page.locator('.quick-input-widget .monaco-list-row .label-name').allInnerTexts();
          return rows.includes(`Flow Sync: ${title}`) ? rows : undefined;
        },
        { message: `"${title}" in the palette` },
      );
      assert.ok(labels.includes(`Flow Sync: ${title}`), `"${title}" in ${labels}`);
    }
    await page.keyboard.press('Escape');
  });
});
