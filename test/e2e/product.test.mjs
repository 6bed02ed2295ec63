// What a person sees: the Flow Sync views, the palette commands, the status bar, JSON documents, the team filter and
// an error state, in a real VS Code against the embedded mock API. Screenshots land in test-results/screenshots/ and
// `npm run screenshots` copies the ones the README shows.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'mocha';
import { DEMO_API_KEY, screenshot, session, waitFor } from './workbench.mjs';
import { reloadWindow, runCommand, runCommandByKeyboard, setKeyByKeyboard } from './palette.mjs';
import {
  isSyncRow,
  notifications,
  openView,
  outputPanel,
  statusBarText,
  treeRows,
  waitForRows,
  waitForSyncRows,
} from './views.mjs';
import { clickMenuItem, openContextMenu, openMenu, runFromContextMenu } from './menus.mjs';
import { chartDrawn, webviewFrame } from './webviews.mjs';
import { REPO_ROOT } from '../rig/codeServer.mjs';

/** The mock's sync that never finishes. */
const { STUCK_SYNC_ID } = createRequire(import.meta.url)(path.join(REPO_ROOT, 'out', 'src', 'mock', 'data.js'));

/** The mock's flows by name, as Processing lists them. */
const flowsByName = () =>
  [...session.mock.dataset.flows].sort((a, b) =>
    a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }),
  );

/**
 * Starts a sync of its own in the first flow by name (its row drawn at the top of Processing, not below what the view
 * shows), refreshes, and returns its row once drawn: the mock's own syncs may all be finished, stuck or with errors.
 */
async function startOwnSyncRow() {
  const [started] = session.mock.startSync(flowsByName()[0].id);
  await runCommand('Flow Sync: Refresh Processing');
  const row = session.page
    .locator('.part.sidebar .monaco-list-row[aria-level="2"]', { hasText: new RegExp(`^#${started.id}(?!\\d)`) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 10000 });
  return row;
}

const sidebarText = () => session.page.locator('.part.sidebar').innerText();
const quickInput = () => session.page.locator('.quick-input-widget input');

async function typeIntoQuickInput(text) {
  const input = quickInput();
  await input.waitFor({ state: 'visible', timeout: 10000 });
  await input.fill(text);
  await input.press('Enter');
}

/**
 * Runs a command from a view's "..." menu (More Actions...) in its title bar, as a person would: points at the header
 * (its actions show on hover), clicks "...", and once the menu shows the item, clicks it. The "..." opens its menu on
 * the mouse press and toggles it: on a busy machine the press could land while the header's actions were still being
 * drawn again, or the menu could close again as the focus arrived late (the press moves the focus from the editor the
 * step before left it in to the side bar); what was left was the button's hover tooltip ("More Actions...") and no
 * menu. So the step first puts the focus in the view (its Focus command, then waits until the view's list has it,
 * as a person sees the focus outline there), then waits for what a person waits for (the button shown, then the menu
 * with the item) and, if no menu came, closes whatever is open and clicks again: at most 3 times, each bounded by
 * the menu's appearance, never by a pause. `view`: the view's name ("Connections").
 */
async function runFromViewMenu(view, title) {
  const page = session.page;
  const header = page.locator('.part.sidebar .pane-header', { hasText: view }).first();
  const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: view }) });
  const focusView = () => runCommandByKeyboard(`Flow Sync: Focus on ${view} View`);
  await focusView();
  await waitFor(
    async () => {
      if ((await pane.locator('.monaco-list:focus-within').count()) > 0) return true;
      await focusView(); // the focus went elsewhere (a late focus of the step before): again, as a person would
      return false;
    },
    { timeout: 30000, message: `the focus in the ${view} view` },
  );
  const more = header.locator('.action-label[aria-label^="More Actions"]');
  const open = async () => {
    await header.hover();
    await more.waitFor({ state: 'visible', timeout: 10000 });
    await more.click();
  };
  const { menu, item } = await openMenu(open, title, 'the "..." menu of the view');
  await clickMenuItem(menu, item);
}

/** Drags the sash between the side bar and the editor to the right, as a person would. */
async function widenSideBar(pixels) {
  const page = session.page;
  const box = await page.locator('.part.sidebar').boundingBox();
  const x = box.x + box.width + 1;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + pixels, y, { steps: 8 });
  await page.mouse.up();
  await waitFor(async () => (await page.locator('.part.sidebar').boundingBox()).width > box.width + pixels / 2, {
    message: 'a wider side bar',
  });
}

/** Right-clicks a sync row and runs Notify When Finished from its menu, as a person does; the row then says watched. */
async function watchFromContextMenu(row) {
  const label = (await row.locator('.label-name').first().innerText()).trim();
  await row.click();
  await runFromContextMenu(row, /^Notify When Finished$/);
  return waitFor(
    async () => (await treeRows()).find((r) => isSyncRow(r) && r.label === label && /watched/.test(r.description)),
    { message: `${label} says watched` },
  );
}

describe('Flow Sync Explorer, as a person uses it', function () {
  this.timeout(60000);

  it('opens the Flow Sync view from the activity bar and is asked for an API key', async () => {
    await openView('Flow Sync');
    await widenSideBar(180); // so the README pictures show whole rows
    const text = await waitFor(
      async () => ((await sidebarText()).includes('Set API Key') ? sidebarText() : undefined),
      { message: 'the welcome view' },
    );
    assert.match(text, /PROCESSING/i);
    assert.match(text, /CONNECTIONS/i);
    assert.match(await statusBarText(), /Flow Sync: Set API Key/);
    await screenshot('readme-welcome');
  });

  it('sets the API key through the command palette (password box) and shows the processing tree', async () => {
    await runCommand('Flow Sync: Set API Key...', { opensInput: true });
    assert.equal(await quickInput().getAttribute('type'), 'password');
    await typeIntoQuickInput(DEMO_API_KEY);
    const rows = await waitForSyncRows();
    const flows = rows.filter((r) => /^\d+ syncs?\b/.test(r.description)); // "2 syncs", "2 syncs · 1 with errors"
    assert.ok(flows.length > 0, 'flow rows with a count');
    const syncs = rows.filter(isSyncRow);
    assert.ok(
      syncs.every((r) => /started/.test(r.description)),
      'sync rows say when they started',
    );
    const status = await waitFor(
      async () => ((await statusBarText()).match(/(\d+) processing/) ? statusBarText() : undefined),
      { message: 'the processing count in the status bar' },
    );
    assert.match(status, /\d+ processing/);
  });

  it('shows connections grouped by team with their types', async () => {
    const rows = await waitFor(
      async () => {
        const r = await treeRows();
        return r.some((row) => /\d+ connections?$/.test(row.description)) ? r : undefined;
      },
      { timeout: 20000, message: 'team rows in the Connections view' },
    );
    const teams = rows.filter((r) => /\d+ connections?$/.test(r.description)).map((r) => r.label);
    const known = session.mock.dataset.teams.map((t) => t.name);
    assert.ok(teams.length > 0 && teams.every((t) => known.includes(t)), `${teams} are teams of the service`);
    assert.ok(
      rows.some((r) => r.description === 'pdf'),
      'a pdf connection',
    );
    await screenshot('readme-sidebar');
  });

  it('opens a flow sync as JSON from the palette, read-only, titled by kind and id', async () => {
    const row = session.page.locator('.part.sidebar .monaco-list-row', { hasText: /#\d{3,}/ }).first();
    const label = (await row.locator('.label-name').first().innerText()).trim();
    const id = label.match(/\d+/)[0];
    await row.click();
    await runCommand('Flow Sync: Open as JSON');
    const tab = session.page.locator('.tabs-container .tab', { hasText: `Flow sync ${id}.json` });
    await tab.waitFor({ state: 'visible', timeout: 10000 });
    const editorText = await waitFor(
      async () => {
        const t = await session.page.locator('.editor-instance .view-lines').first().innerText();
        return t.includes('"flow_id"') ? t : undefined;
      },
      { message: 'the JSON in the editor' },
    );
    assert.match(editorText.replace(/\u00a0/g, ' '), new RegExp(`"id": ${id}`));
    await screenshot('readme-json');
  });

  it('groups connections by type from the title bar, then selects several rows and copies their IDs', async () => {
    const page = session.page;
    await runFromViewMenu('Connections', /^Group Connections By\.\.\.$/);
    await quickInput().waitFor({ state: 'visible', timeout: 10000 });
    await screenshot('readme-group-by-pick');
    await typeIntoQuickInput('Type');
    const types = [...new Set(session.mock.dataset.connections.map((c) => c.type.toLowerCase()))];
    const rows = await waitFor(
      async () => {
        const r = await treeRows();
        return r.some((row) => types.includes(row.label.toLowerCase()) && /\d+ connections?$/.test(row.description))
          ? r
          : undefined;
      },
      { timeout: 15000, message: 'type rows in the Connections view' },
    );
    const groups = rows.filter((r) => /\d+ connections?$/.test(r.description)).map((r) => r.label.toLowerCase());
    assert.ok(groups.length > 0 && groups.every((g) => types.includes(g)), `${groups} are connection types`);
    // Several rows: click one, Ctrl+click the next, then Copy ID from the context menu.
    const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Connections' }) });
    const connectionRows = pane.locator('.monaco-list-row[aria-level="2"]');
    await connectionRows.nth(0).click();
    await connectionRows.nth(1).click({ modifiers: ['Control'] });
    await waitFor(async () => (await pane.locator('.monaco-list-row.selected').count()) === 2, {
      message: 'two selected rows',
    });
    const { menu, item: copyId } = await openContextMenu(connectionRows.nth(1), /^Copy ID$/);
    await screenshot('readme-multi-select');
    await clickMenuItem(menu, copyId);
    await waitFor(async () => /Copied 2 IDs/.test(await statusBarText()), {
      message: '"Copied 2 IDs" in the status bar',
    });
    // Back to teams for the tests that follow.
    await runFromViewMenu('Connections', /^Group Connections By\.\.\.$/);
    await typeIntoQuickInput('Team');
    await waitFor(
      async () => (await treeRows()).some((r) => session.mock.dataset.teams.some((t) => t.name === r.label)),
      { message: 'teams again' },
    );
  });

  it('watches a sync, says when it is no longer processing, lists it in History, and marks the stuck sync', async () => {
    const page = session.page;
    // The stuck sync: a warning and "stuck" in its row, and in the status bar.
    await runCommand('Flow Sync: Refresh Processing');
    await waitFor(async () => /\d+ processing, 1 stuck/.test(await statusBarText()), {
      message: '"1 stuck" in the status bar',
    });
    const stuckRow = page.locator('.part.sidebar .monaco-list-row', { hasText: /stuck/ }).first();
    await stuckRow.waitFor({ state: 'visible', timeout: 10000 });
    // Watch another sync from its context menu: one without errors (a watched sync with errors is announced at once,
    // and that notification, not the one this test waits for, would name it; it would also use up the errors
    // announcements' budget of one per 5 minutes, which the errors test below needs). A sync of its own, just started:
    // at about 1 in 100 of the moments the session can start at, the mock lists no such sync besides the stuck one (a
    // scan of its data, 1 s apart over three days).
    const watched = await watchFromContextMenu(await startOwnSyncRow());
    const id = Number(watched.label.slice(1));
    // The watch survives a reload of the window (it is kept per service in the extension's global state).
    await reloadWindow();
    await waitFor(
      async () => (await treeRows()).some((r) => r.label === watched.label && /watched/.test(r.description)),
      {
        timeout: 30000,
        message: 'still watched after the reload',
      },
    );
    await screenshot('readme-stuck-and-watched');
    // It leaves processing: one notification, and a History row.
    assert.ok(session.mock.finish(id), `sync ${id} was processing`);
    await runCommand('Flow Sync: Refresh Processing');
    const toast = await waitFor(async () => (await notifications()).find((n) => n.includes(`Sync #${id}`)), {
      timeout: 15000,
      message: 'the notification',
    });
    assert.match(toast, /is no longer processing, after about \d+ (s|min)/);
    assert.doesNotMatch(toast, /succeeded|failed/);
    await screenshot('readme-history-notification');
    const history = page.locator('.part.sidebar .pane-header', { hasText: 'History' }).first();
    if ((await history.getAttribute('aria-expanded')) !== 'true') await history.click();
    await waitFor(async () => (await treeRows()).some((r) => r.description.startsWith(`#${id} · ran about`)), {
      timeout: 15000,
      message: 'the History row',
    });
    await screenshot('readme-history');
    await page.keyboard.press('Escape');
  });

  it('pins a flow from its context menu: its syncs leave and it stays first, idle', async () => {
    const page = session.page;
    // A sync of its own in a flow other than the stuck sync's: the suites before may have finished every other one (a
    // run met a view of the stuck sync's flow alone). In the first such flow by name, so its row is drawn near the top.
    const stuckFlowId = session.mock.dataset
      .processingAt(session.mock.now())
      .find((s) => s.id === STUCK_SYNC_ID)?.flow_id;
    const own = flowsByName().find((f) => f.id !== stuckFlowId);
    const [started] = session.mock.startSync(own.id);
    await runCommand('Flow Sync: Refresh Processing');
    // What a person waits for: the refreshed answer drawn, its new sync among the rows. Rows read before that (the last
    // answer's) move when it lands, and a right-click can then meet another row (a busy run's right-click met a menu
    // without Pin Flow, and opened it again).
    const rows = await waitForRows((found) => found.some((r) => r.label === `#${started.id}`), {
      message: `the started sync #${started.id} in the Processing view`,
    });
    // The flows of Processing (grouped by flow) with their syncs below them; the last flow without the stuck sync
    const flows = [];
    for (const row of rows) {
      if (row.level === 1 && /\d+ syncs?/.test(row.description)) flows.push({ ...row, syncs: [] });
      else if (row.level === 2 && isSyncRow(row) && flows.length) flows.at(-1).syncs.push(row);
    }
    // (a flow of Processing: History's day rows hold runs, not sync rows, so they have none here)
    const target = flows.filter((f) => f.syncs.length && !f.syncs.some((r) => /stuck/.test(r.description))).at(-1);
    assert.ok(target, `a flow row with syncs: ${JSON.stringify(flows.map((f) => f.label))}`);
    const flowRow = () =>
      page.locator('.part.sidebar .monaco-list-row[aria-level="1"]').filter({ hasText: target.label }).first();
    const fromMenu = (title) => runFromContextMenu(flowRow(), new RegExp(`^${title}$`));
    await fromMenu('Pin Flow');
    const firstFlow = async () => (await treeRows()).find((r) => r.level === 1);
    await waitFor(async () => (await firstFlow())?.label === target.label, { message: 'the pinned flow first' });
    // Its syncs leave (the mock's own control: finish each sync the pinned flow's row shows, now first and in view,
    // again if the mock's lifecycle starts another), and the row stays, first, idle
    const underFirstFlow = (rows) => {
      const first = rows.findIndex((r) => r.level === 1);
      const next = rows.findIndex((r, i) => i > first && r.level === 1);
      return rows.slice(first + 1, next < 0 ? undefined : next).filter(isSyncRow);
    };
    const idle = await waitFor(
      async () => {
        const rows = await treeRows();
        const first = rows.find((r) => r.level === 1);
        if (first?.label === target.label && /^idle · /.test(first.description)) return first;
        const syncs = underFirstFlow(rows);
        if (first?.label === target.label && syncs.length) {
          for (const sync of syncs) session.mock.finish(Number(sync.label.slice(1)));
          await runCommand('Flow Sync: Refresh Processing');
        }
        return undefined;
      },
      { timeout: 30000, interval: 500, message: 'the idle pinned row first' },
    );
    assert.match(idle.description, /^idle · (last run (.+ ago|just now), ran .+|no run seen yet)$/);
    assert.match(idle.ariaLabel, /pinned/);
    assert.match(idle.ariaLabel, /idle/);
    assert.equal(idle.expanded, undefined, 'an idle row has no children');
    await screenshot('readme-pinned-idle');
    await fromMenu('Unpin Flow');
    await waitFor(
      async () => !(await treeRows()).some((r) => r.label === target.label && /^idle/.test(r.description)),
      {
        message: 'the idle row gone once unpinned',
      },
    );
  });

  it('a watched sync that gets errors: a notification says so, and its row stands out in the error colour', async () => {
    const page = session.page;
    // A sync of its own, just started: the suites before may have finished every other one, or given it errors (a
    // clean-clone run met a view of only the stuck sync and one with errors).
    const watched = await watchFromContextMenu(await startOwnSyncRow());
    const id = Number(watched.label.slice(1));
    assert.ok(session.mock.reportErrors(id), `sync ${id} was processing`);
    await runCommand('Flow Sync: Refresh Processing');
    const toast = await waitFor(
      async () => (await notifications()).find((n) => n.includes(`Sync #${id}`) && /reports errors/.test(n)),
      { timeout: 15000, message: 'the errors notification' },
    );
    assert.match(toast, new RegExp(`Sync #${id} \\(.+\\) reports errors`));
    const buttons = page.locator('.notification-toast', { hasText: `Sync #${id}` }).locator('.monaco-button');
    // Open in Browser too: the session's user settings name a page for syncs
    assert.deepEqual(await buttons.allInnerTexts(), ['Open as JSON', 'Open in Browser', 'Show Log']);
    // Its row says "has errors" in words and wears the error colour's badge (a file decoration).
    const errorsRow = page.locator('.part.sidebar .monaco-list-row', { hasText: `#${id}` }).first();
    await waitFor(async () => /has errors/.test(await errorsRow.innerText()), { message: 'the row says has errors' });
    await waitFor(async () => (await errorsRow.getAttribute('aria-label'))?.includes('has errors'), {
      message: 'its accessible name says has errors',
    });
    await waitFor(
      async () =>
        errorsRow.evaluate((el) =>
          [el, ...el.querySelectorAll('*')].some((e) =>
            /^"E/.test(el.ownerDocument.defaultView.getComputedStyle(e, '::after').content),
          ),
        ),
      { message: 'the badge E drawn on the row' },
    );
    await screenshot('readme-errors-notification');
    await page.keyboard.press('Escape');
  });

  it('shows the activity chart, with a table of the same numbers', async () => {
    await runCommand('Flow Sync: Show Activity Chart');
    const tab = session.page.locator('.tabs-container .tab', { hasText: 'Flow Sync Activity' });
    await tab.waitFor({ state: 'visible', timeout: 15000 });
    // The webview draws after its first message: the page says it is no longer busy, and the chart is drawn.
    const frame = await webviewFrame('main#app[aria-busy="false"]');
    await waitFor(() => frame.evaluate(chartDrawn), { timeout: 15000, message: 'the chart drawn' });
    await screenshot('readme-activity');
    await runCommand('View: Close Editor');
  });

  it('filters both views by team and shows the team in their descriptions', async () => {
    const team = session.mock.dataset.teams[1];
    await runCommand('Flow Sync: Filter by Team...', { opensInput: true });
    await screenshot('readme-team-filter-pick');
    await typeIntoQuickInput(team.name);
    const header = session.page.locator('.part.sidebar .pane-header', { hasText: 'Processing' }).first();
    await waitFor(async () => (await header.innerText()).includes(`Team: ${team.name}`), {
      message: 'the team in the Processing header',
    });
    await waitFor(
      async () => {
        const teams = (await treeRows()).filter((r) => /\d+ connections?$/.test(r.description));
        return teams.length === 1 && teams[0].label === team.name;
      },
      { message: 'only that team in Connections' },
    );
    // What the status bar counts for the team, the Processing view shows (a person sees the team's syncs).
    const processing = Number((await statusBarText()).match(/(\d+) processing/)?.[1] ?? 0);
    if (processing > 0) await waitForSyncRows({ timeout: 10000, message: "the team's syncs in Processing" });
    await screenshot('readme-team-filter');
    await runCommand('Flow Sync: Clear Team Filter');
    await waitFor(async () => !(await header.innerText()).includes('Team:'), { message: 'the filter cleared' });
  });

  it('shows an error in words, keeps the data, and recovers', async () => {
    session.mock.inject({
      endpoint: 'processing',
      status: 500,
      body: '{"errors":[{"message":"E_INTERNAL: Database unavailable"}]}',
    });
    try {
      await runCommand('Flow Sync: Refresh Processing');
      const text = await waitFor(
        async () => ((await sidebarText()).includes('Database unavailable') ? sidebarText() : undefined),
        { message: 'the error in the view' },
      );
      assert.match(text, /HTTP 500: E_INTERNAL: Database unavailable\. Showing data from/);
      assert.ok((await treeRows()).some(isSyncRow), 'the last data stays');
      assert.match(await statusBarText(), /processing/);
      const toasts = await waitFor(
        async () => {
          const n = await notifications();
          return n.length ? n : undefined;
        },
        { message: 'one notification' },
      );
      assert.equal(toasts.filter((t) => t.includes('Database unavailable')).length, 1);
      await screenshot('readme-error');
    } finally {
      session.mock.clearFaults();
    }
    await runCommand('Flow Sync: Refresh Processing');
    await waitFor(async () => !(await sidebarText()).includes('Database unavailable'), { message: 'recovered' });
  });

  it('hovers show service text as text: a URL, web address or e-mail from the service is never a live link', async () => {
    const hostile = 'Log in at https://evil.example/login or www.evil.example, mail help@evil.example';
    const now = new Date().toISOString();
    const sync = {
      id: 777001,
      flow_id: 990001,
      status: 'processing',
      created_at: now,
      updated_at: now,
      errors: [{ message: hostile }],
      webhook: false,
      flow: { id: 990001, name: hostile },
    };
    session.mock.inject({ endpoint: 'processing', status: 200, body: JSON.stringify([sync]), times: 1 });
    await runCommand('Flow Sync: Refresh Processing');
    await waitFor(async () => (await treeRows()).some((r) => r.label === '#777001'), {
      message: 'the row of the planted sync',
    });
    /** Hovers `target` and returns the hover that shows `text`: its text and the links in it. */
    const hoverOver = async (target, name) => {
      const hover = session.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'evil' }).first();
      // A row redrawn under the pointer (History or a poll refreshed the tree) drops its pending hover: hover again.
      await waitFor(
        async () => {
          await session.page.mouse.move(0, 0);
          await target.hover();
          return hover.waitFor({ state: 'visible', timeout: 4000 }).then(
            () => true,
            () => false,
          );
        },
        { timeout: 20000, interval: 0, message: `the ${name} hover` },
      );
      await screenshot(`hover-${name}`);
      return hover.evaluate((el) => ({
        text: el.textContent ?? '',
        links: [...el.querySelectorAll('a')].map(
          (a) => `${a.textContent} -> ${a.getAttribute('href') ?? a.getAttribute('data-href') ?? ''}`,
        ),
      }));
    };
    const row = session.page.locator('.part.sidebar .monaco-list-row').filter({ hasText: '#777001' }).first();
    const rowHover = await hoverOver(row, 'row');
    assert.match(rowHover.text, /evil\.example\/login/, 'the words are there to read');
    assert.deepEqual(
      rowHover.links.filter((l) => /evil/i.test(l)),
      [],
      'no live link from the service in the row hover',
    );

    session.mock.inject({
      endpoint: 'processing',
      status: 500,
      body: JSON.stringify({ errors: [{ message: hostile }] }),
    });
    try {
      await runCommand('Flow Sync: Refresh Processing');
      await waitFor(async () => ((await sidebarText()).includes('evil.example') ? true : undefined), {
        message: 'the error in the view',
      });
      const item = session.page
        .locator('.part.statusbar .statusbar-item')
        .filter({ hasText: /processing/ })
        .first();
      const statusHover = await hoverOver(item, 'status-bar');
      assert.match(statusHover.text, /evil\.example\/login/);
      assert.deepEqual(
        statusHover.links.filter((l) => /evil/i.test(l)),
        [],
        'no live link from the service in the status bar hover',
      );
    } finally {
      session.mock.clearFaults();
      await session.page.mouse.move(0, 0);
    }
    await runCommand('Flow Sync: Refresh Processing');
    await waitFor(async () => !(await sidebarText()).includes('HTTP 500'), { message: 'recovered' });
    // The planted sync left processing: History lists it, under the same name.
    const historyRow = session.page.locator('.part.sidebar .monaco-list-row').filter({ hasText: '#777001' }).first();
    await historyRow.waitFor({ state: 'visible', timeout: 10000 });
    const historyHover = await hoverOver(historyRow, 'history-row');
    assert.deepEqual(
      historyHover.links.filter((l) => /evil/i.test(l)),
      [],
      'no live link from the service in the History hover',
    );
    await session.page.mouse.move(0, 0);
  });

  it('opens a sync in the browser from its context menu (Open in Browser)', async () => {
    const page = session.page;
    const opened = [];
    const onPage = (p) => opened.push(p);
    page.context().on('page', onPage);
    try {
      await openView('Flow Sync');
      if (!(await treeRows()).some(isSyncRow)) await setKeyByKeyboard(); // run alone (--grep): no key yet
      // A sync row the mock still lists as processing (its flow id makes the address; a row the mock's lifecycle has
      // finished stays shown until the next answer, so the view is refreshed until one is there)
      const { rowLabel, sync } = await waitFor(
        async () => {
          const processing = session.mock.dataset.processingAt(session.mock.now());
          for (const r of (await waitForSyncRows()).filter(isSyncRow)) {
            const found = processing.find((s) => s.id === Number(r.label.slice(1)));
            if (found) return { rowLabel: r.label, sync: found };
          }
          await runCommand('Flow Sync: Refresh Processing');
          return undefined;
        },
        { message: 'a sync row the mock lists as processing' },
      );
      const id = sync.id;
      const row = page.locator('.part.sidebar .monaco-list-row[aria-level="2"]', { hasText: rowLabel }).first();
      const { menu, item } = await openContextMenu(row, /^Open in Browser$/);
      await screenshot('readme-open-in-browser');
      await clickMenuItem(menu, item);
      // VS Code asks before it opens a site not trusted yet (a dialog naming the address): the person clicks Open.
      const dialog = page.locator('.monaco-dialog-box');
      const expected = `${session.mock.url}/web/flows/${sync.flow_id}/syncs/${id}`;
      const seen = await waitFor(
        async () => {
          if (opened.length) return 'page';
          if (await dialog.isVisible().catch(() => false)) return 'dialog';
          return undefined;
        },
        { timeout: 15000, message: "a new page or VS Code's question" },
      );
      if (seen === 'dialog') {
        const text = await dialog.innerText();
        console.log(`    [e2e] VS Code asked: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
        assert.ok(text.includes(expected), `the dialog names ${expected}`);
        await screenshot('open-in-browser-dialog');
        await dialog
          .locator('.monaco-button', { hasText: /^Open$/ })
          .first()
          .click();
      }
      const popup = await waitFor(async () => opened[0], { timeout: 15000, message: 'the page opened' });
      await waitFor(async () => popup.url() !== 'about:blank', { message: 'the page has its address' });
      // code-server opens an address of this machine through its own port forwarding (<its origin>/proxy/<port>/…):
      // the page a person gets is that one, with the sync's path.
      const mockUrl = new URL(session.mock.url);
      const proxied = `${new URL(page.url()).origin}/proxy/${mockUrl.port}/web/flows/${sync.flow_id}/syncs/${id}`;
      assert.ok([expected, proxied].includes(popup.url()), `opened ${popup.url()}, not ${expected}`);
      console.log(`    [e2e] Open in Browser opened ${popup.url()}`);
      await popup.close();
    } finally {
      page.context().off('page', onPage);
    }
  });

  it('never shows the API key anywhere in the window', async () => {
    await runCommand('Flow Sync: Show Log');
    // The log is shown: the Output panel on the Flow Sync channel, with its lines.
    await waitFor(
      async () => {
        const { channel, text } = await outputPanel();
        return channel === 'Flow Sync' && /activated|GET \/api\/public\/v1\//.test(text);
      },
      { timeout: 15000, message: 'the Flow Sync log in the Output panel' },
    );
    const everything = await session.page.locator('body').innerText();
    assert.ok(!everything.includes(DEMO_API_KEY), 'the key is on screen');
    for (const n of await notifications()) assert.ok(!n.includes(DEMO_API_KEY));
  });
});
