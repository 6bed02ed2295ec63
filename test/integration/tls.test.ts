import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FlowSyncExplorerApi } from '../../src/extension';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { keyChanges, startMockApi, testApi, waitFor } from './helpers';

const KEY = 'fs_it_SENTINEL_tls_5b8e21';
/** out/test/integration -> the repository's test/fixtures/tls (a private CA, and certificates for 127.0.0.1). */
const FIXTURES = path.join(__dirname, '../../../test/fixtures/tls');
const pem = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

/**
 * A service whose TLS certificate comes from a company's own certificate authority (issue #39). The rig starts the
 * extension host with NODE_EXTRA_CA_CERTS naming test/fixtures/tls/ca.pem (test/rig/run-integration.mjs), as a person
 * whose machine trusts that authority would; a second server's certificate comes from an authority nobody trusts.
 */
describe('A service with a certificate from a private certificate authority', function () {
  this.timeout(60_000);
  let trusted: MockFlowSyncServer;
  let untrusted: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  let savedBaseUrl: unknown;
  const origins = () => [trusted, untrusted].map((m) => new URL(m.url).origin);
  const config = () => vscode.workspace.getConfiguration('flowsync');

  async function load(mock: MockFlowSyncServer) {
    mock.clearRequests();
    await config().update('baseUrl', mock.url, vscode.ConfigurationTarget.Global);
    await x.reconfigure();
    await x.explorer.lists.processing.refresh();
    return x.explorer.lists.processing.state;
  }

  before(async () => {
    trusted = await startMockApi({ apiKey: KEY, tls: { cert: pem('server.pem'), key: pem('server-key.pem') } });
    untrusted = await startMockApi({
      apiKey: KEY,
      tls: { cert: pem('untrusted-server.pem'), key: pem('untrusted-server-key.pem') },
    });
    x = await testApi();
    savedBaseUrl = config().inspect('baseUrl')?.globalValue;
    await keyChanges(x, 2, async () => {
      for (const origin of origins()) await x.keys.set(origin, KEY);
    });
  });

  after(async () => {
    await config().update('baseUrl', savedBaseUrl, vscode.ConfigurationTarget.Global);
    if (x) await keyChanges(x, 2, async () => Promise.all(origins().map((origin) => x.keys.delete(origin))));
    await trusted?.close();
    await untrusted?.close();
  });

  it('loads from it over https when the machine trusts the authority (NODE_EXTRA_CA_CERTS)', async () => {
    assert.equal(path.resolve(process.env.NODE_EXTRA_CA_CERTS ?? ''), path.resolve(FIXTURES, 'ca.pem'));
    assert.match(trusted.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const state = await load(trusted);
    assert.equal(state.error, undefined, state.error?.message);
    assert.ok((state.items?.length ?? 0) > 0, 'rows loaded');
    assert.ok(
      trusted.requests.length > 0 && trusted.requests.every((r) => r.authorized),
      'the requests reached it with the key',
    );
  });

  it('says which certificate it refused and why, sends nothing, and tries again with backoff: the trusted server back at that address, the planned retry loads (issue #49)', async () => {
    const state = await load(untrusted);
    const error = state.error;
    assert.equal(error?.kind, 'certificate', error?.message);
    assert.match(
      error?.message ?? '',
      new RegExp(
        `^The certificate of 127\\.0\\.0\\.1:${untrusted.port} is not trusted: .*\\(SELF_SIGNED_CERT_IN_CHAIN\\)`,
      ),
    );
    assert.ok(!(error?.message ?? '').includes(KEY));
    const announced = state.nextAttemptAt;
    assert.ok(announced !== undefined && announced > x.clock.now(), 'a retry is planned, as after a network error');
    assert.match(x.views.processing.view.message ?? '', /Retrying at/);
    assert.equal(untrusted.requests.length, 0, 'no request, and so no key, went over the refused connection');
    const attempts = untrusted.connectionsOpened;
    await x.explorer.lists.processing.refresh(); // the person's Refresh tries again
    assert.equal(untrusted.connectionsOpened, attempts + 1);
    assert.equal(x.explorer.lists.processing.state.error?.kind, 'certificate');

    // The captive portal is gone: the trusted service answers at the same address, and the planned retry loads.
    const port = untrusted.port;
    await untrusted.close();
    untrusted = await startMockApi({ apiKey: KEY, port, tls: { cert: pem('server.pem'), key: pem('server-key.pem') } });
    const retry = x.explorer.lists.processing.state.nextAttemptAt!;
    assert.ok(x.clock.runTimersDueAt(retry) >= 1, `a retry due at ${new Date(retry).toISOString()}`);
    await waitFor(() => x.explorer.lists.processing.state.error === undefined, {
      timeoutMs: 10_000,
      message: 'recovered by the planned retry, with no refresh asked for',
    });
    assert.ok((x.explorer.lists.processing.state.items?.length ?? 0) > 0, 'rows loaded');
    assert.ok(untrusted.requests.length > 0 && untrusted.requests.every((r) => r.authorized));
  });
});
