import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApiErrorKind } from '../../src/api/errors';
import type { FlowSyncExplorerApi } from '../../src/extension';
import { MockFlowSyncServer, type Fault } from '../../src/mock/server';
import { TEST_KEY as KEY, connect, startMockApi, testApi, waitFor } from './helpers';

interface FaultCase {
  name: string;
  /** A fault for the processing endpoint, or 'refused' for a closed port. */
  fault: Fault | 'refused';
  kind: ApiErrorKind;
  message: RegExp;
  /** Unauthorized waits for a new key instead of retrying. */
  retries?: false;
  /**
   * The request timeout for this case (default: the suite's 1 s): a case whose body takes time to stream (17 MB) gets
   * a budget of its own, so a loaded machine meets the fault under test, not the timeout.
   */
  timeoutSeconds?: number;
}

const DOC_UNAUTHORIZED = '{"errors":[{"message":"E_UNAUTHORIZED_ACCESS: Unauthorized access"}]}';

/** The fault matrix. Each name says what the service does; the assertions say what the person sees. */
const MATRIX: FaultCase[] = [
  {
    name: '400',
    fault: { status: 400, body: '{"errors":[{"message":"E_BAD_REQUEST: team_id is invalid"}]}' },
    kind: 'http',
    message: /HTTP 400: E_BAD_REQUEST: team_id is invalid/,
  },
  {
    name: '401 with the documented body',
    fault: { status: 401, body: DOC_UNAUTHORIZED },
    kind: 'unauthorized',
    message: /rejected the API key \(HTTP 401: Unauthorized access\)/,
    retries: false,
  },
  {
    name: '401 without a body',
    fault: { status: 401, body: '' },
    kind: 'unauthorized',
    message: /rejected the API key \(HTTP 401\)/,
    retries: false,
  },
  {
    name: '403',
    fault: { status: 403, body: 'Forbidden', contentType: 'text/plain' },
    kind: 'unauthorized',
    message: /rejected the API key \(HTTP 403\)/,
    retries: false,
  },
  {
    name: '404',
    fault: { status: 404, body: '{"errors":[{"message":"E_ROUTE_NOT_FOUND: Cannot GET"}]}' },
    kind: 'http',
    message: /HTTP 404: E_ROUTE_NOT_FOUND/,
  },
  {
    name: '429 with Retry-After in seconds',
    fault: { status: 429, headers: { 'Retry-After': '2' } },
    kind: 'rateLimited',
    message: /limiting requests \(HTTP 429\) and asked to wait 2 s/,
  },
  {
    name: '429 with Retry-After as an HTTP date',
    fault: { status: 429, headers: { 'Retry-After': 'DATE+3' } },
    kind: 'rateLimited',
    message: /limiting requests \(HTTP 429\) and asked to wait [1-4] s/,
  },
  {
    name: '500 with an errors body',
    fault: { status: 500, body: '{"errors":[{"message":"E_INTERNAL: Database unavailable"}]}' },
    kind: 'http',
    message: /HTTP 500: E_INTERNAL: Database unavailable/,
  },
  {
    name: '502 with an HTML page',
    fault: { status: 502, body: '<html><h1>502 Bad Gateway</h1></html>', contentType: 'text/html' },
    kind: 'http',
    message: /HTTP 502/,
  },
  { name: '503', fault: { status: 503, body: '' }, kind: 'http', message: /HTTP 503/ },
  { name: '504', fault: { status: 504, body: '' }, kind: 'http', message: /HTTP 504/ },
  {
    name: '200 with HTML',
    fault: { status: 200, body: '<!doctype html><title>Sign in</title>', contentType: 'text/html' },
    kind: 'invalidResponse',
    message: /an HTML page instead of JSON/,
  },
  {
    name: '200 with truncated JSON',
    fault: { status: 200, body: '[{"id":1,"flow_id":' },
    kind: 'invalidResponse',
    message: /malformed JSON/,
  },
  {
    name: '200 with an object instead of an array',
    fault: { status: 200, body: '{"data":[]}' },
    kind: 'invalidResponse',
    message: /an object where a list was expected/,
  },
  {
    name: 'a response that never comes',
    fault: { hang: true },
    kind: 'timeout',
    message: /did not answer processing flow syncs within 1 s/,
  },
  {
    name: 'a body that stops halfway',
    fault: { truncate: true },
    kind: 'network',
    message: /broke while loading processing flow syncs/,
  },
  { name: 'connection refused', fault: 'refused', kind: 'network', message: /connection was refused \(ECONNREFUSED\)/ },
  {
    name: 'a body over the size cap',
    fault: { hugeBytes: 17 * 1024 * 1024 },
    kind: 'invalidResponse',
    message: /larger than the 16 MB limit/,
    timeoutSeconds: 30,
  },
  {
    name: 'a redirect to another port',
    fault: { redirectTo: 'OTHER_PORT' },
    kind: 'invalidResponse',
    message: /redirected the request .*HTTP 302.*not followed/,
  },
  {
    name: 'a redirect to another host',
    fault: { redirectTo: 'OTHER_HOST' },
    kind: 'invalidResponse',
    message: /redirected the request .*HTTP 302.*not followed/,
  },
];

describe('Fault matrix (processing list against the mock API)', function () {
  this.timeout(60_000);
  let mock: MockFlowSyncServer;
  let other: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  let unhandled = 0;
  const countUnhandled = () => unhandled++;

  const config = () => vscode.workspace.getConfiguration('flowsync');

  before(async () => {
    process.on('unhandledRejection', countUnhandled);
    mock = await startMockApi({ apiKey: KEY });
    other = await startMockApi({ apiKey: KEY });
    x = await testApi();
    await config().update('autoRefresh', false, vscode.ConfigurationTarget.Global);
    await config().update('requestTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    await connect(x, mock); // the key, flowsync.baseUrl, the first load
  });

  after(async () => {
    process.off('unhandledRejection', countUnhandled);
    for (const key of ['autoRefresh', 'requestTimeoutSeconds', 'baseUrl']) {
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    }
    await x.keys.delete(new URL(mock.url).origin);
    await x.reconfigure();
    await mock.close();
    await other.close();
  });

  for (const c of MATRIX) {
    it(`${c.name}: says so, keeps the last good data, ${c.retries === false ? 'stops polling' : 'recovers by itself within the announced backoff'}`, async function () {
      if (c.timeoutSeconds) {
        this.timeout(60_000 + 2 * c.timeoutSeconds * 1000);
        // Applied (and the list loaded again if that reloads it) before the last good data is taken.
        await config().update('requestTimeoutSeconds', c.timeoutSeconds, vscode.ConfigurationTarget.Global);
        await connect(x, mock);
      }
      await vscode.commands.executeCommand('flowsync.refreshProcessing');
      const good = x.explorer.lists.processing.state.items!;
      assert.equal(x.explorer.lists.processing.state.error, undefined, 'starts healthy');
      const rowsBefore = x.views.processing.tree.getChildren().length;
      const notificationsBefore = x.notifications.shown.length;
      other.clearRequests();

      const port = mock.port;
      let closed = false;
      // Whatever fails below, the next case starts with the service answering normally and the suite's timeout.
      try {
        if (c.fault === 'refused') {
          await mock.close();
          closed = true;
        } else {
          const fault = { ...c.fault, endpoint: 'processing' as const };
          if (fault.headers?.['Retry-After'] === 'DATE+3') {
            fault.headers = { 'Retry-After': new Date(x.clock.now() + 3000).toUTCString() };
          }
          if (fault.redirectTo === 'OTHER_PORT') fault.redirectTo = `${other.url}/api/public/v1/flowsyncs/processing`;
          if (fault.redirectTo === 'OTHER_HOST') {
            fault.redirectTo = `http://localhost:${other.port}/api/public/v1/flowsyncs/processing`;
          }
          mock.inject(fault);
        }

        await vscode.commands.executeCommand('flowsync.refreshProcessing');
        const state = x.explorer.lists.processing.state;
        assert.equal(state.error?.kind, c.kind, state.error?.message);
        assert.match(state.error!.message, c.message);
        assert.ok(!state.error!.message.includes(KEY));
        assert.equal(state.items, good, 'the last good data stays');
        assert.equal(x.views.processing.tree.getChildren().length, rowsBefore, 'the tree still shows it');
        assert.match(x.views.processing.view.message ?? '', /^⚠ /);
        assert.ok(x.views.processing.view.message!.includes(state.error!.message), 'the view says what happened');
        assert.ok(x.statusBar.item!.backgroundColor, 'the status bar turns to warning');
        assert.equal(other.requests.length, 0, 'nothing reached another origin');

        // Recovery: the service answers normally again.
        if (c.fault === 'refused') {
          mock = await MockFlowSyncServer.start({ apiKey: KEY, port });
          closed = false;
        } else {
          mock.clearFaults();
        }
        if (c.retries === false) {
          assert.equal(state.nextAttemptAt, undefined, 'no automatic retry with a rejected key');
          // What Set API Key does once a key is entered (here the same key again, now accepted).
          await x.keys.set(new URL(mock.url).origin, KEY);
          await x.reconfigure();
          x.explorer.reload();
          await waitFor(() => x.explorer.lists.processing.state.items && !x.explorer.lists.processing.state.error, {
            message: 'reload with the new key',
          });
        } else {
          const announced = state.nextAttemptAt!;
          const failedAt = x.explorer.lists.processing.state.loadedAt;
          assert.ok(announced > x.clock.now(), 'a retry is announced');
          assert.match(x.views.processing.view.message!, /Retrying at/);
          // The retry is a timer due at the announced moment (within 50 ms): the test runs it now instead of sleeping
          // through the backoff (4 to 6 s, or the Retry-After), and it recovers by itself, with no refresh asked for.
          assert.ok(x.explorer.lists.processing.state.error, 'no retry before the announced moment');
          assert.ok(x.clock.runTimersDueAt(announced) >= 1, `a retry due at ${new Date(announced).toISOString()}`);
          await waitFor(
            () =>
              x.explorer.lists.processing.state.error === undefined &&
              x.explorer.lists.processing.state.loadedAt !== failedAt,
            { timeoutMs: 10_000, message: 'automatic recovery by the announced retry' },
          );
        }
      } finally {
        if (closed) mock = await MockFlowSyncServer.start({ apiKey: KEY, port });
        else mock.clearFaults();
        if (c.timeoutSeconds) {
          await config().update('requestTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
          await connect(x, mock);
        }
      }
      assert.equal(x.statusBar.item!.backgroundColor, undefined);
      assert.ok(
        x.notifications.shown.length - notificationsBefore <= 1,
        `at most one notification, got ${x.notifications.shown.slice(notificationsBefore)}`,
      );
      assert.equal(unhandled, 0, 'no unhandled rejection');
    });
  }

  it('200 with some invalid items: shows the valid ones and says how many were left out', async () => {
    const good = mock.dataset.processingAt(Date.now());
    const body = JSON.stringify([...good, { id: 'x' }, 42]);
    mock.inject({ endpoint: 'processing', status: 200, body });
    try {
      await vscode.commands.executeCommand('flowsync.refreshProcessing');
      assert.equal(x.explorer.lists.processing.state.error, undefined);
      assert.equal(x.explorer.lists.processing.state.items!.length, good.length);
      assert.equal(x.explorer.lists.processing.state.dropped, 2);
      assert.match(x.views.processing.view.message ?? '', /2 item\(s\) were left out .*item \d+: id is not an integer/);
    } finally {
      mock.clearFaults();
    }
  });

  it('an empty array: "No flow syncs are processing", 0 in the status bar, no badge', async () => {
    mock.inject({ endpoint: 'processing', status: 200, body: '[]' });
    try {
      await vscode.commands.executeCommand('flowsync.refreshProcessing');
      assert.equal(x.views.processing.view.message, 'No flow syncs are processing.');
      assert.match(x.statusBar.item!.text, /\$\(check\) 0 processing/);
      assert.equal(x.views.processing.view.badge, undefined);
      assert.deepEqual(x.views.processing.tree.getChildren(), []);
    } finally {
      mock.clearFaults();
    }
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
  });

  it('a persistent failure notifies once, however many retries fail', async () => {
    const before = x.notifications.shown.length;
    mock.inject({ endpoint: 'processing', status: 500, body: '' });
    try {
      await vscode.commands.executeCommand('flowsync.refreshProcessing');
      await vscode.commands.executeCommand('flowsync.refreshProcessing');
      await vscode.commands.executeCommand('flowsync.refreshProcessing');
      assert.equal(x.explorer.lists.processing.state.failures, 3);
      assert.deepEqual(x.notifications.shown.slice(before), ['http']);
    } finally {
      mock.clearFaults();
    }
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    assert.equal(x.explorer.lists.processing.state.error, undefined);
  });
});
