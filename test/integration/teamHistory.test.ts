/**
 * Team History (issue #51) in the real extension host, against a real PostgreSQL 15 (test/rig/postgres.mjs: loopback,
 * a temporary folder): connect, see a run another installation wrote in the History view's rows, send this window's
 * runs, disconnect. The store's password contains the rig's sentinel, so the rig's scan of the user data, the
 * extensions folder and the logs after the suite (test/rig/run-integration.mjs) fails should it be written anywhere.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import postgres from 'postgres';
import type { FlowSyncExplorerApi } from '../../src/extension';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { parseConnectionString } from '../../src/teamHistory/connectionString';
import { postgresSql } from '../../src/teamHistory/postgres/postgresSql';
import { START, TeamStore } from '../../src/teamHistory/teamStore';
import type { TeamRun } from '../../src/teamHistory/teamRows';
import { TEST_KEY, connect, setUserSetting, startMockApi, testApi, waitFor } from './helpers';

interface PostgresServer {
  readonly port: number;
  url(role?: 'admin' | 'owner' | 'reader', database?: string): string;
  stop(): Promise<void>;
}

/** The rig, an ES module of the repository: from out/test/integration, three folders up. */
const RIG = path.join(__dirname, '..', '..', '..', 'test', 'rig', 'postgres.mjs');
/** The team store's password: holds the rig's sentinel (never in a setting, log or file). */
const PASSWORD = 'pw_SENTINEL_4c1d2e3f_team';
const OTHER = 'other-installation-0001';
const MIN = 60_000;

const sync = (id: number, minutesAgo: number) => ({
  id,
  flow_id: 4,
  status: 'pending',
  created_at: new Date(Date.now() - minutesAgo * MIN).toISOString(),
  updated_at: new Date().toISOString(),
  errors: null,
  webhook: false,
  flow: { id: 4, name: 'Nightly export' },
});

describe('Team History: a real PostgreSQL, one History for the team', function () {
  this.timeout(120_000);
  let mock: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  let pg: PostgresServer;
  let url: string;

  const answer = async (items: object[]) => {
    mock.clearFaults();
    mock.inject({ endpoint: 'processing', status: 200, body: JSON.stringify(items) });
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
  };
  /** A store of the test's own, as another installation (OTHER) writes to it. */
  const otherStore = () => {
    const parsed = parseConnectionString(url);
    assert.ok('target' in parsed);
    return new TeamStore(postgresSql(parsed.target), OTHER, () => Date.now());
  };
  /** The History view's run rows: [id, description]. */
  const historyRows = async () => {
    const rows: Array<[number, string]> = [];
    for (const day of await x.historyView.getChildren()) {
      if (day.kind !== 'historyDay') continue;
      for (const row of await x.historyView.getChildren(day)) {
        if (row.kind !== 'historyEntry') continue;
        const item = await x.historyView.getTreeItem(row);
        rows.push([row.entry.id, String(item.description)]);
      }
    }
    return rows;
  };

  before(async () => {
    mock = await startMockApi({ apiKey: TEST_KEY });
    x = await testApi();
    await setUserSetting('autoRefresh', false);
    await setUserSetting('refreshIntervalSeconds', 5);
    await connect(x, mock);
    pg = await ((await import(RIG)) as { startPostgres(): Promise<PostgresServer> }).startPostgres();
    const admin = postgres(pg.url('admin'), { max: 1, onnotice: () => undefined });
    await admin.unsafe(`CREATE ROLE fs_team LOGIN PASSWORD '${PASSWORD}'`);
    await admin.unsafe('GRANT CREATE, CONNECT ON DATABASE flowsync TO fs_team');
    await admin.end();
    url = `postgres://fs_team:${PASSWORD}@127.0.0.1:${pg.port}/flowsync`;
    await answer([]);
    await x.history.flushed();
    await x.history.clear();
  });

  after(async () => {
    await (await x.teamHistory.get()).disconnect(false);
    for (const key of ['autoRefresh', 'refreshIntervalSeconds', 'baseUrl']) await setUserSetting(key, undefined);
    await x.history.clear();
    await x.reconfigure();
    await mock.close();
    await pg?.stop();
  });

  it("connects, shows a run only another installation saw, sends this window's runs, and forgets the store", async () => {
    const team = await x.teamHistory.get();
    assert.ok(team.available, 'the Node build has the store');
    const said = await team.connect(url);
    assert.equal(said.level, 'info', said.text);
    assert.match(said.text, /connected to fs_team@127\.0\.0\.1:\d+\/flowsync/);
    assert.ok(!said.text.includes(PASSWORD), 'never the password');
    assert.ok(team.connected);

    // Another installation's run of this service (its key: the base URL), written through the store as it writes
    const service = x.explorer.serviceKey;
    assert.ok(service);
    const other = otherStore();
    await other.open();
    const left = Date.now() - 5 * MIN;
    const run: TeamRun = {
      observer: OTHER,
      service,
      team: '',
      id: 951_001,
      flowId: 4,
      flowName: 'Nightly export',
      createdAt: new Date(left - 20 * MIN).toISOString(),
      firstSeen: left - 19 * MIN,
      lastSeen: left - MIN / 2,
      leftAt: left,
      hadErrors: false,
    };
    await other.write([run], [{ observer: OTHER, service, team: '', from: left - 30 * MIN, to: left }]);
    const rows = await waitFor(
      async () => {
        const found = await historyRows();
        return found.some(([id]) => id === 951_001) ? found : undefined;
      },
      { timeoutMs: 30_000, message: "the other installation's run in the History view" },
    );
    const [, description] = rows!.find(([id]) => id === 951_001)!;
    assert.match(description, /seen by another window/);
    assert.equal(x.history.snapshot.entries.find((e) => e.id === 951_001)?.seenHere, false);
    assert.ok(
      x.history.reads.entries().some((e) => e.id === 951_001),
      'the tools and Export see it too',
    );
    const day = (await x.historyView.getChildren()).find((n) => n.kind === 'historyDay')!;
    const dayItem = await x.historyView.resolveTreeItem(await x.historyView.getTreeItem(day), day);
    assert.match(String(dayItem.tooltip), /team History: \d+ installations? watched today\nteam History: connected to/);

    // This window polls: a run that leaves here is sent, as this installation's row
    await answer([sync(951_002, 3)]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await answer([]);
    const self = x.history.snapshot.entries.find((e) => e.id === 951_002);
    assert.equal(self?.seenHere, true);
    const sent = await waitFor(
      async () => {
        const page = await other.read([service], START, Date.now() - 2 * 24 * 60 * MIN);
        return page.runs.find((r) => r.id === 951_002 && r.leftAt !== undefined) ?? false;
      },
      { timeoutMs: 30_000, message: "this window's run in the store" },
    );
    assert.ok(sent);
    assert.match(sent.observer, /^[0-9a-f-]{36}$/, 'written under this installation’s id (a random UUID)');

    // Disconnect, deleting this installation's rows: the other's stays in the store, and leaves this History
    const gone = await team.disconnect(true);
    assert.match(gone?.text ?? '', /Deleted this installation’s [1-9]\d* runs/);
    assert.ok(!team.connected);
    assert.equal(
      x.history.snapshot.entries.find((e) => e.id === 951_001),
      undefined,
    );
    assert.ok(
      x.history.snapshot.entries.some((e) => e.id === 951_002),
      'the local History stays',
    );
    const after = await other.read([service], START, Date.now() - 2 * 24 * 60 * MIN);
    assert.deepEqual(
      after.runs.map((r) => r.observer),
      [OTHER],
    );
    await other.close();
    // the string is nowhere but SecretStorage: not in the settings nor in the extension's log
    const settings = JSON.stringify(vscode.workspace.getConfiguration('flowsync'));
    assert.ok(!settings.includes(PASSWORD));
    for (const file of logFiles(x.logUri)) assert.ok(!fs.readFileSync(file, 'utf8').includes(PASSWORD), file);
  });
});

/** Every file under the extension's log folder and its siblings (the "Flow Sync" channel's file is in one of them). */
function logFiles(logUri: vscode.Uri): string[] {
  const root = path.dirname(logUri.fsPath);
  const files: string[] = [];
  const visit = (p: string) => {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (stat?.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    else if (stat?.isFile()) files.push(p);
  };
  visit(root);
  return files;
}
