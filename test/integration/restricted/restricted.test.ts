import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as vscode from 'vscode';
import type { FlowSyncExplorerApi } from '../../../src/extension';
import type { MockFlowSyncServer, RecordedRequest } from '../../../src/mock/server';
import { EXTENSION_ID, startMockApi, testApi, waitFor } from '../helpers';

const KEY = 'fs_it_SENTINEL_4c1d2e3f';

/**
 * Restricted Mode: run by `npm run test:integration -- --restricted` only (FLOWSYNC_SUITE=restricted), in a window with
 * workspace trust on and a folder nobody trusted. The launcher (test/rig/run-integration.mjs) wrote the folder's
 * .vscode/settings.json before the window opened: flowsync.baseUrl → an "attacker" mock the launcher runs
 * (FLOWSYNC_ATTACKER_URL), flowsync.allowHttp: true, and two harmless settings (teamId "3", refreshIntervalSeconds 3600);
 * and it installed another extension whose configurationDefaults set flowsync.baseUrl, allowHttp and services to it.
 */
describe('Restricted Mode (an untrusted folder)', function () {
  this.timeout(30_000);
  const attackerUrl = process.env.FLOWSYNC_ATTACKER_URL ?? '';
  const config = () => vscode.workspace.getConfiguration('flowsync');
  let mock: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;

  before(async () => {
    assert.ok(attackerUrl, 'FLOWSYNC_ATTACKER_URL is set (run through `npm run test:integration -- --restricted`)');
    mock = await startMockApi({ apiKey: KEY });
  });

  after(async () => {
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    if (x) {
      await x.keys.delete(new URL(mock.url).origin);
      await x.reconfigure();
    }
    await mock?.close();
  });

  it('the folder is not trusted', () => {
    assert.equal(vscode.workspace.isTrusted, false);
    assert.equal(vscode.workspace.workspaceFolders?.length, 1);
  });

  it('is active in Restricted Mode, and declares "limited" support with both URL settings restricted', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is loaded in Restricted Mode`);
    // Activated by VS Code (onStartupFinished), not by this test. Measured: VS Code enables an extension under
    // development in Restricted Mode whatever it declares, an installed one only with "supported" true or "limited".
    await waitFor(() => ext.isActive, { timeoutMs: 15_000, message: 'activation by VS Code' });
    const declared = (
      ext.packageJSON as {
        capabilities?: { untrustedWorkspaces?: { supported?: unknown; restrictedConfigurations?: unknown } };
      }
    ).capabilities?.untrustedWorkspaces;
    assert.equal(declared?.supported, 'limited');
    for (const key of ['flowsync.baseUrl', 'flowsync.allowHttp']) {
      assert.ok(
        Array.isArray(declared?.restrictedConfigurations) && declared.restrictedConfigurations.includes(key),
        `${key} is restricted`,
      );
    }
    x = await testApi();
  });

  it("ignores another extension's defaults for flowsync.baseUrl, flowsync.allowHttp and flowsync.services", async () => {
    // The launcher installed an extension whose configurationDefaults name the attacker's server: VS Code applies them
    // at the start although the three settings are application-scoped (test/rig/run-integration.mjs).
    assert.equal(
      config().inspect('baseUrl')?.defaultValue,
      attackerUrl,
      "VS Code applied the other extension's default",
    );
    assert.equal(config().inspect('allowHttp')?.defaultValue, true);
    assert.deepEqual(config().inspect('services')?.defaultValue, [{ name: 'Attacker', url: attackerUrl }]);
    // Even with a key for that server (one the person typed when the view asked for it), nothing is sent there.
    const attackerOrigin = new URL(attackerUrl).origin;
    await x.keys.set(attackerOrigin, KEY);
    try {
      await x.reconfigure();
      assert.deepEqual(
        x.services.all.map((s) => s.name),
        [undefined],
        'no service from the defaults',
      );
      assert.equal(x.explorer.status, 'noUrl');
      assert.equal(x.explorer.scope, undefined);
      await new Promise((resolve) => setTimeout(resolve, 1000)); // a first load would have been sent by now
      assert.equal((await attackerRequests()).length, 0, "the other extension's service was never contacted");
    } finally {
      await x.keys.delete(attackerOrigin);
      await x.reconfigure();
    }
  });

  it("ignores the workspace's flowsync.baseUrl and flowsync.allowHttp", async () => {
    for (const key of ['baseUrl', 'allowHttp']) {
      const inspected = config().inspect(key);
      assert.equal(inspected?.workspaceValue, undefined, `workspace value of flowsync.${key} is not visible`);
      assert.equal(inspected?.workspaceFolderValue, undefined);
      assert.equal(inspected?.globalValue, undefined, 'the user set nothing');
      assert.equal(config().get(key), inspected?.defaultValue, `flowsync.${key} has its default`);
    }
    await x.reconfigure();
    assert.equal(x.explorer.status, 'noUrl', 'no service URL: the workspace one does not count');
    assert.equal(x.explorer.scope, undefined);
    assert.equal((await attackerRequests()).length, 0, 'the workspace service was never contacted');
  });

  it('keeps applying the harmless workspace settings (teamId, refreshIntervalSeconds)', () => {
    assert.equal(config().inspect('teamId')?.workspaceValue, '3');
    assert.equal(config().get('teamId'), '3');
    assert.equal(config().get('refreshIntervalSeconds'), 3600);
    assert.equal(x.explorer.teamId, '3');
  });

  it("loads the processing list from the user's own service with the key, never from the workspace's", async () => {
    await x.keys.set(new URL(mock.url).origin, KEY);
    await config().update('baseUrl', mock.url, vscode.ConfigurationTarget.Global);
    await x.reconfigure();
    await waitFor(() => x.explorer.lists.processing.state.loadedAt !== undefined, { message: 'the processing list' });
    assert.equal(x.explorer.status, 'ready');
    assert.equal(x.explorer.scope, new URL(mock.url).origin);
    assert.equal(x.explorer.lists.processing.state.error, undefined, x.explorer.lists.processing.state.error?.message);
    // The team's list may be empty at this moment (the mock's syncs come and go): what counts is that it loaded, and
    // that it is what the user's service answered for that team.
    const shown = x.explorer.lists.processing.state.items?.map((i) => i.value.id).sort();
    assert.ok(shown, 'the list loaded');
    const processing = mock.requests.filter((r) => r.path.endsWith('/flowsyncs/processing'));
    const answeredAt = processing.at(-1)!.at;
    assert.deepEqual(
      shown,
      mock.dataset
        .processingAt(answeredAt, 3)
        .map((s) => s.id)
        .sort(),
      "the user's service's answer for team 3",
    );
    assert.ok(processing.length > 0, 'the mock was asked');
    assert.ok(
      processing.every((r) => r.authorized),
      'with the key',
    );
    assert.ok(
      processing.every((r) => r.query.team_id === '3'),
      "with the workspace's team filter",
    );
    assert.equal((await attackerRequests()).length, 0, 'the workspace service was never contacted');
  });
});

/** What the attacker mock recorded, from its control endpoint (not itself recorded). */
function attackerRequests(): Promise<RecordedRequest[]> {
  const url = `${process.env.FLOWSYNC_ATTACKER_URL}/__mock/requests`;
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          try {
            resolve(JSON.parse(body) as RecordedRequest[]);
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      })
      .on('error', reject);
  });
}
