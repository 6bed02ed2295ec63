/**
 * Links (vscode://flowsync-tools.flowsync-explorer/...) as an attacker would use them: any web page or program can open
 * one, and VS Code asks the person only once per extension. Issue #18 items 2 and 3, in the real extension host.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FlowSyncExplorerApi } from '../../src/extension';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { EXTENSION_ID, TEST_KEY, connect, startMockApi, testApi, setUserSetting, waitFor } from './helpers';

describe('Links send no more than automatic refresh would', function () {
  this.timeout(60_000);
  let mock: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  const link = (path: string) => vscode.Uri.parse(`${vscode.env.uriScheme}://${EXTENSION_ID}/${path}`);
  /** Requests that carried the key (the mock checks it), to the processing list. */
  const sent = () => mock.requests.filter((r) => r.path.endsWith('/flowsyncs/processing')).length;
  const fiftyLinks = async () => {
    for (let i = 0; i < 25; i++) await x.links.handleUri(link(`sync?id=${900_000_000 + i}`));
    await Promise.all(Array.from({ length: 25 }, (_, i) => x.links.handleUri(link(`sync?id=${800_000_000 + i}`))));
  };

  before(async () => {
    mock = await startMockApi({ apiKey: TEST_KEY });
    x = await testApi();
    await setUserSetting('autoRefresh', false);
  });

  /** The last answer a link got (read loosely: the same test ran against the handler before it kept answers). */
  const lastSaid = () => (x.links as { said?: readonly string[] }).said?.at(-1) ?? '';

  beforeEach(async () => {
    mock.clearFaults();
    await connect(x, mock);
    x.explorer.reload(); // forget the last test's failure and its wait
    await waitFor(
      () => x.explorer.lists.processing.state.loadedAt !== undefined && !x.explorer.lists.processing.state.loading,
      { message: 'processing loaded again' },
    );
  });

  after(async () => {
    mock.clearFaults();
    for (const key of ['autoRefresh', 'baseUrl']) await setUserSetting(key, undefined);
    await x.reconfigure();
    await mock.close();
  });

  it('after a 401, fifty links send nothing (automatic refresh waits for a new key) and say why', async () => {
    mock.inject({ endpoint: 'processing', status: 401 });
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    await waitFor(() => x.explorer.lists.processing.state.error?.kind === 'unauthorized', { message: 'the 401' });
    const before = sent();
    await fiftyLinks();
    assert.equal(sent() - before, 0, 'no request with the refused key');
    assert.match(lastSaid(), /refused the API key/);
  });

  it('while Retry-After: 3600 runs, fifty links send nothing', async () => {
    mock.inject({ endpoint: 'processing', status: 429, headers: { 'Retry-After': '3600' } });
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
    await waitFor(() => x.explorer.lists.processing.state.error?.kind === 'rateLimited', { message: 'the 429' });
    const before = sent();
    await fiftyLinks();
    assert.equal(sent() - before, 0, 'no request before the time the service named');
    assert.match(lastSaid(), /asks the service again at/);
  });

  it('with a fresh list, fifty links to ids not in it ask the service at most once per interval, and say they answered from what is loaded', async () => {
    const before = sent();
    await fiftyLinks();
    assert.ok(sent() - before <= 1, `at most one request per interval (sent ${sent() - before})`);
    assert.match(lastSaid(), /not in the list loaded at .+ at most once per refresh interval/);
  });

  it('a malformed link is refused without echoing any of its text', async () => {
    const planted = 'URGENT-call-support-and-read-them-your-key';
    for (const path of [
      `${planted}?id=1`,
      `sync?id=${planted}`,
      `sync?id=12&x=${planted}`.replace('id=12&', 'idx=12&'),
    ]) {
      await x.links.handleUri(link(path));
      const said = lastSaid();
      assert.match(said, /not a valid Flow Sync link/, path);
      assert.ok(
        !said.includes('URGENT') && !said.includes(planted.slice(0, 8)),
        `the warning echoed the link: ${said}`,
      );
    }
  });
});
