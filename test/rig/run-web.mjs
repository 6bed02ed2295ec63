#!/usr/bin/env node
// `npm run test:web`: the browser build (package.json "browser", dist/web/extension.js) in a real web worker
// extension host, offline. Builds a web-only VSIX (the packaged files with "main" and dist/extension.js removed, so
// nothing can fall back to the Node extension host), installs it into code-server, opens the workbench in headless
// Chromium with flowsync.baseUrl pointing at the mock API (run here, on 127.0.0.1, with CORS), sets the key through the
// command palette like a person, and checks:
//   - where it runs: VS Code's own trace line "pickRunningLocation for flowsync-tools.flowsync-explorer ... =>
//     LocalWebWorker", and the web worker extension host's iframe in the page;
//   - activation (the status bar offers Set API Key), the Processing tree (sync rows), the Connections tree (team
//     rows), the status bar ("N processing");
//   - the web bundle's chunk (dist/web/chunks/actions.js, esbuild.js WEB_CHUNKS): not fetched at start, fetched once
//     with the first command, and what a person's action needs from it works: the command table (Set API Key,
//     Refresh), the views' filters (Filter Processing...), the JSON documents (Go to... opens a sync as JSON);
//   - History in global storage (vscode.workspace.fs) and the key in SecretStorage, both kept over a page reload;
//   - that the requests came from the browser's fetch: a CORS preflight each, an Origin header, the browser's own
//     User-Agent (a page cannot set it).
// Screenshots: test-results/screenshots/web-*.png. One code-server start, about 20 s warm.
//
//   npm run test:web                  build (production), compile the mock, run
//   npm run test:web -- --no-build    use dist/ and out/ as they are
//   npm run test:web -- --no-package  install the web-only VSIX test/rig/package.mjs packaged (npm test's package stage)
//   npm run test:web -- --timeout 300 overall limit in seconds (default 180)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_API_KEY, screenshot, session, waitFor } from '../e2e/workbench.mjs';
import { runCommand } from '../e2e/palette.mjs';
import { openView, statusBarText, treeRows, waitForSyncRows } from '../e2e/views.mjs';
import {
  EXTENSION_ID,
  REPO_ROOT,
  WEB_VSIX,
  buildProject,
  freshWorkspace,
  launchBrowser,
  openWorkbench,
  packageWebOnlyVsix,
  prepareRig,
  startCodeServer,
} from './codeServer.mjs';

const { values: opts } = parseArgs({
  options: {
    build: { type: 'boolean', default: true },
    package: { type: 'boolean', default: true },
    timeout: { type: 'string', default: '180' },
  },
  allowNegative: true,
});
const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const say = (msg) => console.log(`[web] ${msg}`);

async function main() {
  const rig = await prepareRig();
  if (opts.build) {
    say('building: npm run compile, node esbuild.js --production');
    buildProject({ production: true });
  }
  const mockModule = path.join(REPO_ROOT, 'out', 'src', 'mock', 'server.js');
  if (!fs.existsSync(mockModule)) throw new Error(`${mockModule} is missing: run npm run compile`);
  if (opts.package) packageWebOnlyVsix();
  else if (!fs.existsSync(WEB_VSIX))
    throw new Error(`${WEB_VSIX} is missing: node test/rig/package.mjs (--no-package)`);
  const vsix = WEB_VSIX;
  say(`web-only VSIX (no "main", no dist/extension.js): ${(fs.statSync(vsix).size / 1024).toFixed(1)} KB`);

  const { MockFlowSyncServer } = createRequire(import.meta.url)(mockModule);
  const mock = await MockFlowSyncServer.start({ port: 0 });
  let server;
  let browser;
  let wb;
  const workspace = freshWorkspace('web');
  try {
    // Trace: the workbench then logs where it runs each extension (pickRunningLocation).
    server = await startCodeServer({
      rig,
      name: 'web',
      vsix: [vsix],
      settings: { 'flowsync.baseUrl': mock.url },
      logLevel: 'trace',
      quiet: true,
    });
    browser = await launchBrowser(rig);
    wb = await openWorkbench({ server, browser, folder: workspace, name: 'web' });
    Object.assign(session, { page: wb.page, server, browser, workbench: wb, workspace, mock });
    // The chunks of the web bundle that the extension host's worker fetched (its resource timing entries).
    const chunkFetches = async () => {
      const names = [];
      for (const worker of wb.page.workers()) {
        const fetched = await worker
          .evaluate(() => globalThis.performance.getEntriesByType('resource').map((entry) => entry.name))
          .catch(() => []);
        // a vscode-remote: file is fetched as /vscode-remote-resource?path=<the path, percent-encoded>
        names.push(
          ...fetched.map((name) => decodeURIComponent(name)).filter((name) => name.includes('/dist/web/chunks/')),
        );
      }
      return names;
    };
    const deadline = t0 + Number(opts.timeout) * 1000;
    const within = (ms) => Math.max(1000, Math.min(ms, deadline - Date.now()));
    await check('runs in the web worker extension host', async () => {
      const line = await waitFor(() => logLine(wb.logFile, `pickRunningLocation for ${EXTENSION_ID}`), {
        timeout: within(30000),
        message: 'the running location in the workbench log',
      });
      assert.match(line, /extension kinds: \[web\].*=> LocalWebWorker/, line);
      await wb.page
        .locator('iframe[src*="webWorkerExtensionHostIframe"]')
        .waitFor({ state: 'attached', timeout: within(10000) });
      say(`  ${line.replace(/^.*(pickRunningLocation)/, '$1')}`);
    });
    await check('activates: the status bar offers Set API Key', async () => {
      await waitFor(async () => /Flow Sync: Set API Key/.test(await statusBarText()), {
        timeout: within(30000),
        message: 'the Set API Key status bar item',
      });
      await openView('Flow Sync');
      await screenshot('web-activated');
      assert.deepEqual(await chunkFetches(), [], 'a start fetches no chunk of the web bundle');
    });
    await check('sets the API key through the command palette (password box)', async () => {
      await runCommand('Flow Sync: Set API Key...', { opensInput: true, timeout: within(15000) });
      const input = wb.page.locator('.quick-input-widget input');
      assert.equal(await input.getAttribute('type'), 'password');
      await input.fill(DEMO_API_KEY);
      await input.press('Enter');
      const fetched = await chunkFetches();
      assert.equal(fetched.length, 1, `the first command fetched the chunk once: ${fetched}`);
      assert.match(fetched[0], /\/dist\/web\/chunks\/actions\.js(&|$)/);
    });
    await check('the Processing tree shows flows and sync rows', async () => {
      const rows = await waitForSyncRows({ timeout: within(20000) });
      assert.ok(
        rows.some((r) => /\d+ syncs?$/.test(r.description)),
        'flow rows with a count',
      );
    });
    await check('the Connections tree shows team rows', async () => {
      const rows = await waitFor(
        async () => {
          const r = await treeRows();
          return r.some((row) => /\d+ connections?$/.test(row.description)) ? r : undefined;
        },
        { timeout: within(20000), message: 'team rows in the Connections view' },
      );
      const known = mock.dataset.teams.map((t) => t.name);
      const teams = rows.filter((r) => /\d+ connections?$/.test(r.description)).map((r) => r.label);
      assert.ok(
        teams.every((t) => known.includes(t)),
        `${teams} are teams of the service`,
      );
    });
    await check('the status bar shows "N processing"', async () => {
      const text = await waitFor(
        async () => ((await statusBarText()).match(/\d+ processing/) ? statusBarText() : undefined),
        {
          timeout: within(10000),
          message: 'the processing count in the status bar',
        },
      );
      const shown = Number(text.match(/(\d+) processing/)[1]);
      const last = mock.requests
        .filter((r) => r.path === '/api/public/v1/flowsyncs/processing' && r.status === 200)
        .at(-1);
      assert.equal(shown, mock.dataset.processingAt(last.at).length, `status bar: ${text}`);
      await screenshot('web-sidebar');
    });
    await check(
      "a person's actions from the chunk: Filter Processing... filters, Go to... opens a sync as JSON",
      async () => {
        const id = (await treeRows())
          .map((r) => r.label.match(/^#(\d+)$/)?.[1])
          .find((x) => x && x !== String(mock.dataset.stuckSyncId));
        assert.ok(id, 'a sync row');
        await runCommand('Flow Sync: Filter Processing...', { opensInput: true, timeout: within(15000) });
        await wb.page.keyboard.type(`id:${id}`);
        await wb.page.keyboard.press('Enter');
        const header = wb.page.locator('.part.sidebar .pane-header', { hasText: 'Processing' }).first();
        await waitFor(async () => (await header.innerText()).includes(`filter: id:${id}`), {
          timeout: within(15000),
          message: 'the filter in the Processing header',
        });
        await runCommand('Flow Sync: Clear Filter', { timeout: within(15000) });
        await waitFor(async () => !(await header.innerText()).includes('filter:'), {
          timeout: within(15000),
          message: 'the filter cleared',
        });
        await runCommand('Flow Sync: Go to Flow Sync or Connection...', { opensInput: true, timeout: within(15000) });
        await wb.page.keyboard.type(`#${id}`);
        await waitFor(async () => (await wb.page.locator('.quick-input-list .monaco-list-row').count()) > 0, {
          timeout: within(15000),
          message: 'a row to go to',
        });
        await wb.page.keyboard.press('Enter');
        await waitFor(
          async () =>
            (await wb.page.locator('.tabs-container .tab .label-name').allInnerTexts()).some((t) => t.includes(id)),
          { timeout: within(15000), message: `#${id} open as JSON` },
        );
        await screenshot('web-actions');
        assert.equal((await chunkFetches()).length, 1, `the chunk was fetched once: ${await chunkFetches()}`);
      },
    );
    await check(
      'History (global storage through workspace.fs) records a sync that left, and keeps it over a reload',
      async () => {
        const rows = await treeRows();
        // a row the mock still lists: a sync shown at the last refresh may have ended since, by its own run time
        const listed = new Set(mock.dataset.processingAt(mock.now()).map((s) => String(s.id)));
        const id = rows
          .map((r) => r.label.match(/^#(\d+)$/)?.[1])
          .find((x) => x && x !== String(mock.dataset.stuckSyncId) && listed.has(x));
        assert.ok(id, 'a sync row to finish');
        assert.ok(mock.finish(Number(id)), `the mock finished #${id}`);
        await runCommand('Flow Sync: Refresh', { timeout: within(15000) });
        const inHistory = async () => (await treeRows()).some((r) => r.description.startsWith(`#${id} · `)); // "#id · ran about … · … ago"
        await waitFor(inHistory, { timeout: within(15000), message: `#${id} in the History view` });
        await screenshot('web-history');
        // History is written after the row shows (a read of the other windows' files, then a write and a rename): a reload
        // before that ends loses the run, as a crash would. Wait until it is on disk (code-server keeps the web worker
        // host's global storage in its user-data folder), then reload.
        await waitFor(() => historyOnDisk(server.dirs.userDataDir).includes(`${id}`), {
          timeout: within(15000),
          message: `#${id} written to History's files`,
        });
        // A new page: a new web worker extension host, which reads the history and the key back from storage.
        await wb.page.reload();
        await wb.page.locator('.part.statusbar').waitFor({ state: 'visible', timeout: within(60000) });
        await openView('Flow Sync', { timeout: within(15000) });
        await waitFor(inHistory, { timeout: within(30000), message: `#${id} in the History view after a reload` });
        await waitFor(async () => /\d+ processing/.test(await statusBarText()), {
          timeout: within(15000),
          message: 'the key kept over a reload (SecretStorage)',
        });
      },
    );
    await check("the requests came from the browser: CORS preflight, Origin, the browser's User-Agent", async () => {
      const api = mock.requests.filter((r) => r.path.startsWith('/api/'));
      const paths = new Set(api.filter((r) => r.authorized && r.status === 200).map((r) => r.path));
      assert.deepEqual([...paths].sort(), ['/api/public/v1/connections/index', '/api/public/v1/flowsyncs/processing']);
      assert.ok(mock.preflights >= 1, 'the browser sent a CORS preflight');
      assert.ok(
        api.every((r) => r.headers.origin === server.url),
        `Origin ${[...new Set(api.map((r) => r.headers.origin))]}`,
      );
      const agents = [...new Set(api.map((r) => r.headers['user-agent']))];
      assert.ok(
        agents.every((a) => !/flowsync-explorer/.test(a ?? '')),
        `the browser's own User-Agent (${agents})`,
      );
      say(
        `  ${api.length} API requests, ${mock.preflights} preflights, Origin ${server.url}, User-Agent ${agents[0]?.slice(0, 60)}...`,
      );
    });
    say(`passed in ${secs()}; workbench log: ${path.relative(REPO_ROOT, wb.logFile)}`);
    return 0;
  } catch (error) {
    if (wb) await screenshot('web-failed').catch(() => {});
    console.error(`[web] FAILED after ${secs()}: ${error.stack ?? error}`);
    if (wb)
      console.error(
        `  workbench log: ${path.relative(REPO_ROOT, wb.logFile)}\n  screenshot: test-results/screenshots/web-failed.png`,
      );
    if (server) console.error(`  code-server log: ${path.relative(REPO_ROOT, server.logFile)}`);
    return 1;
  } finally {
    await wb?.close();
    await browser?.close();
    await server?.stop();
    await mock.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

async function check(title, body) {
  const started = Date.now();
  await body();
  say(`ok  ${title} (${Date.now() - started} ms)`);
}

/** The first line of the log file that contains `text`. */
function logLine(file, text) {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.includes(text));
  } catch {
    return undefined;
  }
}

process.exitCode = await main().catch((error) => {
  console.error(`[web] ${error.stack ?? error}`);
  return 1;
});

/** The text of every written History file of the extension under a code-server user-data folder ('' while none). */
function historyOnDisk(userDataDir) {
  const texts = [];
  const walk = (dir, inHistory) => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file, inHistory || (entry.name === 'history' && dir.includes(EXTENSION_ID)));
      // Written files only: a temporary one (written, not yet renamed into place) is lost with the page.
      else if (inHistory && entry.isFile() && /\.(log|json)$/.test(entry.name))
        texts.push(fs.readFileSync(file, 'utf8'));
    }
  };
  walk(userDataDir, false);
  return texts.join('\n');
}
