import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FlowSyncExplorerApi } from '../../src/extension';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { TEST_KEY as KEY, connect, startMockApi, testApi, waitFor } from './helpers';

describe('Key confinement', function () {
  this.timeout(60_000);
  let mock: MockFlowSyncServer;
  let attacker: MockFlowSyncServer;
  let x: FlowSyncExplorerApi;
  const config = () => vscode.workspace.getConfiguration('flowsync');
  const settingsFile = () => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json');
  let marker = 100;
  /**
   * Writes the workspace's settings.json with `content` and waits until VS Code has read that very file: it carries a
   * harmless marker of its own (editor.rulers), which VS Code does show once it has read the file. The settings under
   * test are then what VS Code made of the same read (was: a 1.5 s pause).
   */
  const writeWorkspaceSettings = async (content: object) => {
    const rulers = [++marker];
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    fs.writeFileSync(settingsFile(), JSON.stringify({ ...content, 'editor.rulers': rulers }, null, 2));
    await waitFor(
      () =>
        JSON.stringify(vscode.workspace.getConfiguration('editor').inspect('rulers')?.workspaceValue) ===
        JSON.stringify(rulers),
      { timeoutMs: 15_000, message: 'VS Code read the workspace settings file' },
    );
  };
  /** The Flow Sync log file (the output channel's), and its text. */
  const isOurLog = (f: string) => /(^|[^\w ])Flow Sync\.log$/.test(path.basename(f)); // "1-Flow Sync.log", not another channel's
  const ourLog = () => findFiles(path.dirname(x.logUri.fsPath), isOurLog)[0];
  const ourLogText = () => (ourLog() ? fs.readFileSync(ourLog(), 'utf8') : '');

  before(async () => {
    mock = await startMockApi({ apiKey: KEY });
    attacker = await startMockApi({ apiKey: KEY });
    x = await testApi();
    // The attacker's origin even has "a key": it must still never receive one from a workspace setting.
    await connect(x, mock); // the key, flowsync.baseUrl, the first load
  });

  afterEach(() => {
    fs.rmSync(settingsFile(), { force: true });
  });

  after(async () => {
    fs.rmSync(path.dirname(settingsFile()), { recursive: true, force: true });
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await config().update('allowHttp', undefined, vscode.ConfigurationTarget.Global);
    await x.keys.delete(new URL(mock.url).origin);
    await x.reconfigure();
    await mock.close();
    await attacker.close();
  });

  for (const [form, content] of [
    ['a dotted key', (url: string) => ({ 'flowsync.baseUrl': url, 'flowsync.allowHttp': true })],
    ['a nested object', (url: string) => ({ flowsync: { baseUrl: url, allowHttp: true } })],
    [
      'a language block',
      (url: string) => ({
        '[json]': { 'flowsync.baseUrl': url, 'flowsync.allowHttp': true, flowsync: { baseUrl: url } },
      }),
    ],
  ] as const) {
    it(`ignores flowsync.baseUrl set by the workspace as ${form}`, async () => {
      await writeWorkspaceSettings(content(attacker.url));
      await x.reconfigure();
      await vscode.commands.executeCommand('flowsync.refresh');
      assert.equal(x.explorer.scope, new URL(mock.url).origin);
      assert.equal(attacker.requests.length, 0, 'the workspace could not redirect the key');
      // VS Code itself shows no workspace value of these application-scoped settings, for a language either.
      for (const scope of [undefined, { languageId: 'json' }]) {
        const read = vscode.workspace.getConfiguration('flowsync', scope);
        assert.equal(read.get('baseUrl'), mock.url, `the user's URL (${scope ? 'json' : 'no language'})`);
        assert.equal(read.get('allowHttp'), false);
        const inspected = read.inspect('baseUrl');
        assert.equal(inspected?.workspaceValue, undefined);
        assert.equal(inspected?.workspaceLanguageValue, undefined);
      }
      fs.rmSync(settingsFile(), { force: true });
    });
  }

  for (const [form, content] of [
    ['', (entries: unknown) => ({ 'flowsync.services': entries })],
    [' as a nested object', (entries: unknown) => ({ flowsync: { services: entries } })],
  ] as const) {
    it(`ignores flowsync.services set by the workspace${form}: a repository cannot add a service that would get a key`, async () => {
      await writeWorkspaceSettings(
        content([
          { name: 'Evil', url: attacker.url },
          { name: 'Mine', url: mock.url },
        ]),
      );
      await x.reconfigure();
      await vscode.commands.executeCommand('flowsync.refresh');
      assert.deepEqual(
        x.services.all.map((s) => s.name),
        [undefined],
        'still the one service of the user settings',
      );
      assert.equal(x.explorer.scope, new URL(mock.url).origin);
      assert.equal(attacker.requests.length, 0, 'the workspace could not add a service');
      fs.rmSync(settingsFile(), { force: true });
    });
  }

  it('refuses plain http to a host that is not loopback, unless flowsync.allowHttp is set by the user', async () => {
    const before = mock.requests.length;
    await config().update('baseUrl', 'http://flowsync.example.com', vscode.ConfigurationTarget.Global);
    await x.reconfigure();
    assert.equal(x.explorer.status, 'invalidUrl');
    assert.match(x.explorer.detail ?? '', /unencrypted.*flowsync\.allowHttp/);
    assert.equal(x.statusBar.item!.command, 'flowsync.setBaseUrl');
    await config().update('allowHttp', true, vscode.ConfigurationTarget.Global);
    await x.reconfigure();
    assert.equal(x.explorer.status, 'noKey', 'allowed now, but the key of another origin is not used');
    await config().update('allowHttp', undefined, vscode.ConfigurationTarget.Global);
    await config().update('baseUrl', mock.url, vscode.ConfigurationTarget.Global);
    await x.reconfigure();
    assert.equal(x.explorer.status, 'ready');
    assert.ok(mock.requests.length >= before);
  });

  it('a SecretStorage that hangs gives a clear message within its timeout (10 s; 0.2 s injected here), not a frozen view', async () => {
    const store = x.keys as unknown as { secrets: vscode.SecretStorage; timeoutMs: number };
    const real = store.secrets;
    assert.equal(store.timeoutMs, 10_000, 'the real timeout');
    store.secrets = {
      ...real,
      get: () => new Promise<string | undefined>(() => undefined),
      onDidChange: real.onDidChange,
    } as vscode.SecretStorage;
    store.timeoutMs = 200;
    const started = Date.now();
    try {
      await x.reconfigure();
      const elapsed = Date.now() - started;
      assert.ok(elapsed <= 2_000, `took ${elapsed} ms`);
      assert.equal(x.explorer.status, 'secretsUnavailable');
      assert.match(x.explorer.detail ?? '', /could not be read from the system keyring .*did not answer within 0\.2 s/);
      assert.match(x.statusBar.item!.text, /Set API Key/);
    } finally {
      store.secrets = real;
      store.timeoutMs = 10_000;
    }
    await x.reconfigure();
    assert.equal(x.explorer.status, 'ready');
  });

  it('a SecretStorage that fails says so at once', async () => {
    const store = x.keys as unknown as { secrets: vscode.SecretStorage };
    const real = store.secrets;
    store.secrets = {
      ...real,
      get: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
      onDidChange: real.onDidChange,
    } as vscode.SecretStorage;
    try {
      await x.reconfigure();
      assert.equal(x.explorer.status, 'secretsUnavailable');
      assert.match(x.explorer.detail ?? '', /D-Bus/);
    } finally {
      store.secrets = real;
    }
    await x.reconfigure();
    assert.equal(x.explorer.status, 'ready');
  });

  it('the log never holds the key (log at Trace)', async () => {
    // What the log must say once: a workspace tried to choose where the key goes (said once for each list of ignored
    // keys, so once here whichever suite made the workspace set another key before). Then wait for the lines to reach
    // the file.
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    fs.writeFileSync(
      settingsFile(),
      JSON.stringify({ 'flowsync.baseUrl': attacker.url, 'flowsync.allowHttp': true }, null, 2),
    );
    await x.reconfigure();
    await vscode.commands.executeCommand('flowsync.refresh');
    await waitFor(
      () =>
        /GET \/api\/public\/v1\/flowsyncs\/processing → 200/.test(ourLogText()) &&
        /Ignoring flowsync\.baseUrl, flowsync\.allowHttp/.test(ourLogText()),
      {
        message: 'the lines in the Flow Sync log file',
      },
    );
    fs.rmSync(settingsFile(), { force: true });
    const logs = findFiles(path.dirname(x.logUri.fsPath), (f) => f.endsWith('.log'));
    const ours = logs.filter(isOurLog);
    assert.ok(ours.length > 0, `the Flow Sync log file exists (looked in ${path.dirname(x.logUri.fsPath)})`);
    const text = fs.readFileSync(ours[0], 'utf8');
    assert.match(text, /GET \/api\/public\/v1\/flowsyncs\/processing → 200/);
    assert.equal(
      text.match(/Ignoring flowsync\.baseUrl, flowsync\.allowHttp from the workspace settings/g)?.length,
      1,
      'said once',
    );
    for (const file of logs) assert.ok(!fs.readFileSync(file, 'utf8').includes(KEY), `${file} holds the key`);
  });
});

function findFiles(dir: string, keep: (file: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? findFiles(full, keep) : keep(full) ? [full] : [];
  });
}
