// Team History (issue #51) in a real VS Code, as a person sets it up: two windows on two profiles (two code-servers,
// each polling the service for itself), one real PostgreSQL 15 (test/rig/postgres.mjs: loopback, a temporary folder).
// Each window connects through the palette, the connection string typed into a password box. A run that only the
// first window sees leave then shows in the second window's History, marked "seen by another window".
//
// Only the first window sees the run: both windows refresh by hand alone (autoRefresh off), the run starts after the
// second window's last answer, and only the first is refreshed while it processes and after it left. The second
// window's row saying "seen by another window" is itself the proof: a run this window had seen would not say it.
// The store's password holds the rig's sentinel (test/rig/run-integration.mjs): the last test looks for it in both
// profiles' user data and extensions and in their logs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'mocha';
import postgres from 'postgres';
import { REPO_ROOT } from '../rig/codeServer.mjs';
import { startPostgres } from '../rig/postgres.mjs';
import { openOwnWindow, screenshot, session, waitFor } from './workbench.mjs';
import { runCommandByKeyboard, setKeyByKeyboard, typeAndEnter } from './palette.mjs';
import { notifications, treeRows, waitForRows } from './views.mjs';

/** The store's password: holds the rig's sentinel (never in a setting, log or file). */
const PASSWORD = 'pw_SENTINEL_4c1d2e3f_e2e';
/** How often each window reads the team's rows (the poll interval; the least the setting allows). */
const INTERVAL_S = 5;
const SEEN_ELSEWHERE = 'seen by another window';

/** Makes `own` (an openOwnWindow) the window the helpers drive. */
function use(own, name) {
  session.page = own.page;
  session.window = { name, server: own.server, workbench: own.workbench };
}

/** Expands or collapses a pane of the Flow Sync side bar in the window the helpers drive. */
async function setPaneExpanded(title, expanded) {
  const header = session.page.locator('.part.sidebar .pane-header', { hasText: new RegExp(`^${title}$`, 'i') }).first();
  await header.waitFor({ state: 'visible', timeout: 10000 });
  if ((await header.getAttribute('aria-expanded')) !== String(expanded)) await header.click();
}

/** History shown with room for its rows: Connections collapsed, History expanded. */
async function showHistory() {
  await setPaneExpanded('Connections', false);
  await setPaneExpanded('History', true);
}

/** History's row of run `id` (its description starts "#<id> · ran"), once drawn; its rows' descriptions otherwise. */
const historyRow = (id, { timeout, message }) =>
  waitForRows((rows) => rows.some((r) => r.description.startsWith(`#${id} · ran`)), { timeout, message }).then((rows) =>
    rows.find((r) => r.description.startsWith(`#${id} · ran`)),
  );

/** Files under `roots` (files or folders) whose bytes contain `needle`, from the repository's root. */
function filesHolding(roots, needle) {
  const bytes = Buffer.from(needle);
  const hits = [];
  let count = 0;
  const visit = (p) => {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (stat?.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    else if (stat?.isFile()) {
      count++;
      if (fs.readFileSync(p).includes(bytes)) hits.push(path.relative(REPO_ROOT, p));
    }
  };
  roots.forEach(visit);
  return { hits, count };
}

describe('Team History: connected through the palette in two profiles, one run seen by the first', function () {
  this.timeout(300000);
  let pg;
  let url;
  /** The two windows: each a code-server of its own (a profile of its own). */
  let first;
  let second;
  /** The run that left in the first window only. */
  let runId;

  before(async function () {
    this.timeout(240000);
    const started = Date.now();
    pg = await startPostgres();
    // A role of the team's store, as its owner makes one: may create the store's schema in the database.
    const admin = postgres(pg.url('admin'), { max: 1, onnotice: () => undefined });
    try {
      await admin.unsafe(`CREATE ROLE fs_team LOGIN PASSWORD '${PASSWORD}'`);
      await admin.unsafe('GRANT CREATE, CONNECT ON DATABASE flowsync TO fs_team');
    } finally {
      await admin.end();
    }
    url = `postgres://fs_team:${PASSWORD}@127.0.0.1:${pg.port}/flowsync`;
    const settings = { 'flowsync.autoRefresh': false, 'flowsync.refreshIntervalSeconds': INTERVAL_S };
    first = await openOwnWindow('e2e-team-first', { settings, keepState: true });
    await setKeyByKeyboard();
    second = await openOwnWindow('e2e-team-second', { settings, keepState: true });
    await setKeyByKeyboard();
    console.log(
      `      [team] PostgreSQL and two windows with the key in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });

  after(async function () {
    this.timeout(60000);
    // The second first: each close() gives the helpers back the window open before it.
    for (const own of [second, first]) {
      if (!own) continue; // closed by the last test, which removed their folders
      await own.close().catch(() => {});
      fs.rmSync(own.server.dirs.root, { recursive: true, force: true, maxRetries: 3 }); // kept by keepState
    }
    await pg?.stop();
  });

  it('each window connects through the palette, the connection string typed into a password box', async () => {
    for (const [own, name] of [
      [first, 'e2e-team-first'],
      [second, 'e2e-team-second'],
    ]) {
      use(own, name);
      await runCommandByKeyboard('Flow Sync: Connect Team History...', { opensInput: true });
      const input = session.page.locator('.quick-input-widget input');
      assert.equal(await input.getAttribute('type'), 'password', `${name}: a password box`);
      await typeAndEnter(url, { secret: true });
      const said = await waitFor(
        async () => (await notifications()).find((n) => n.includes('Team History connected to')),
        { timeout: 30000, message: `${name}: "Team History connected to" in a notification` },
      );
      assert.match(said, /Team History connected to fs_team@127\.0\.0\.1:\d+\/flowsync\b/);
      for (const text of await notifications())
        assert.ok(!text.includes(PASSWORD), `${name}: no password in "${text}"`);
      await session.page.keyboard.press('Escape');
    }
  });

  it('a run only the first window saw leave shows in the second window’s History, "seen by another window"', async () => {
    // The first window: a run starts, its refresh sees it processing, it leaves, the next refresh sees it gone.
    use(first, 'e2e-team-first');
    // A sync of the first flow by name: its row is drawn at the top of Processing, not below what the view shows.
    const [flow] = [...session.mock.dataset.flows].sort((a, b) =>
      a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }),
    );
    const [run] = session.mock.startSync(flow.id);
    runId = run.id;
    await runCommandByKeyboard('Flow Sync: Refresh Processing');
    await waitForRows((rows) => rows.some((r) => r.label === `#${runId}`), {
      timeout: 15000,
      message: `#${runId} processing in the first window`,
    });
    assert.ok(session.mock.finish(runId), `#${runId} was processing`);
    await runCommandByKeyboard('Flow Sync: Refresh Processing');
    await showHistory();
    const mine = await historyRow(runId, { timeout: 15000, message: `#${runId} in the first window's History` });
    const leftAt = Date.now();
    assert.ok(!mine.description.includes(SEEN_ELSEWHERE), `the first window saw it: "${mine.description}"`);

    // The second window, not refreshed since before the run started: the team's read brings it in.
    use(second, 'e2e-team-second');
    await showHistory();
    const theirs = await waitFor(
      async () =>
        (await treeRows()).find(
          (r) => r.description.startsWith(`#${runId} · ran`) && r.description.includes(SEEN_ELSEWHERE),
        ),
      { timeout: 6 * INTERVAL_S * 1000, interval: 250, message: `#${runId} "${SEEN_ELSEWHERE}" in the second window` },
    ).catch(async (error) => {
      await screenshot('team-history-second-missing').catch(() => {});
      const rows = (await treeRows()).map((r) => `${r.label} ${r.description}`);
      throw new Error(`${error.message}; the second window's rows: ${JSON.stringify(rows)}`);
    });
    console.log(
      `      [team] #${runId} in the second window ${Date.now() - leftAt} ms after the first listed it: "${theirs.label}" ${theirs.description}`,
    );
    assert.equal(theirs.label, mine.label, 'the same flow');
    // Never in this window's Processing: it kept its last answer, from before the run started.
    assert.ok(
      !(await treeRows()).some((r) => r.label === `#${runId}`),
      `#${runId} is not in the second window's Processing`,
    );
    // The side bar dragged wider by its edge, so the picture shows the row's words whole.
    const bar = await session.page.locator('.part.sidebar').boundingBox();
    await session.page.mouse.move(bar.x + bar.width + 1, bar.y + bar.height / 2);
    await session.page.mouse.down();
    await session.page.mouse.move(bar.x + bar.width + 400, bar.y + bar.height / 2, { steps: 8 });
    await session.page.mouse.up();
    await session.page.mouse.move(bar.x + bar.width + 700, bar.y + bar.height / 2); // off the edge: not drawn as hovered
    await waitFor(async () => (await session.page.locator('.part.sidebar').boundingBox()).width > bar.width + 200, {
      message: 'the side bar wider',
    });
    await screenshot('team-history-seen-by-another-window');
  });

  it('the password is in no file of either profile and in no log', async () => {
    const roots = [];
    const folders = [];
    for (const own of [second, first]) {
      roots.push(own.server.dirs.userDataDir, own.server.dirs.extensionsDir, own.server.logFile, own.workbench.logFile);
      folders.push(own.server.dirs.root);
    }
    // Both windows closed and their code-servers ended (their folders kept): whatever VS Code writes as it closes is
    // on disk before the scan. Each close() gives the helpers back the window open before it: none after both.
    await second.close();
    second = undefined;
    await first.close();
    first = undefined;
    try {
      const { hits, count } = filesHolding(roots, PASSWORD);
      console.log(`      [team] the password looked for in ${count} files of both profiles and their logs`);
      assert.ok(count > 0, 'files were read');
      assert.deepEqual(hits, [], 'files holding the password');
    } finally {
      for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
    }
  });
});
