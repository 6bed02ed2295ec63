/**
 * ServiceRegistry in the real extension host (issue 22 target 1): activate() does not load or make the services; the
 * registry's start() loads their code (a chunk) once, then makes and starts them. Until then it holds none and says
 * nothing (no change event, no context key); a code that cannot load is logged and leaves no half-made service.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { systemClock } from '../../src/base/clock';
import type { CommandContext } from '../../src/commands/vscode/commandContext';
import { keptLinkAnswers } from '../../src/commands/vscode/testApi';
import { ApiKeyStore } from '../../src/keys/vscode/apiKeyStore';
import { LinkHandler } from '../../src/links/vscode/linkHandler';
import * as connectionCode from '../../src/services/vscode/serviceConnection';
import { ServiceRegistry, type ConnectionCode } from '../../src/services/vscode/serviceRegistry';
import { SettingsSource } from '../../src/settings/vscode/settings';
import { readServicesSection, type ServicesSection } from '../../src/services/servicesSection';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { toolFor, type ToolSource } from '../../src/tools/vscode/toolAnswers';
import { TEST_KEY, setUserSetting, startMockApi } from './helpers';
import { deferred } from '../unit/helpers/deferred';

describe('services made after activate() (ServiceRegistry.start)', () => {
  let root: string;
  let settings: SettingsSource<ServicesSection>;
  let errors: string[];
  const registries: ServiceRegistry[] = [];

  function registry(
    loadCode: () => Promise<ConnectionCode>,
    secretGet: () => Promise<string | undefined> = async () => undefined,
    keyringTimeoutMs = 60_000,
  ): ServiceRegistry {
    const memory = new Map<string, unknown>();
    const log = {
      error: (m: string) => errors.push(m),
      info: () => undefined,
      warn: () => undefined,
      debug: () => undefined,
      trace: () => undefined,
    } as unknown as vscode.LogOutputChannel;
    const secrets = {
      get: secretGet,
      store: async () => undefined,
      delete: async () => undefined,
      onDidChange: () => ({ dispose() {} }),
    } as unknown as vscode.SecretStorage;
    const made = new ServiceRegistry(
      {
        globalStorageUri: vscode.Uri.file(root),
        globalState: {
          get: (k: string, d?: unknown) => (memory.has(k) ? memory.get(k) : d),
          update: async (k: string, v: unknown) => void memory.set(k, v),
          keys: () => [...memory.keys()],
        } as unknown as vscode.Memento,
        log,
        clock: systemClock,
        windowId: 'test-window',
        settings,
        keys: new ApiKeyStore(secrets, keyringTimeoutMs),
        userAgent: 'flowsync-test',
      },
      loadCode,
    );
    registries.push(made);
    return made;
  }

  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'flowsync-registry-'));
    settings = new SettingsSource(readServicesSection);
    errors = [];
  });
  afterEach(async () => {
    for (const r of registries.splice(0)) r.dispose();
    settings.dispose();
    // A disposed service may still finish a write it began (the lease's atomic replace): rm retries a folder that
    // filled again while it was removed (ENOTEMPTY).
    await fs.rm(root, { recursive: true, force: true, maxRetries: 10 });
  });

  it('holds no service until start() has loaded the code; then makes them, says so once, and configures them', async () => {
    const code = deferred<ConnectionCode>();
    let loads = 0;
    const services = registry(() => {
      loads++;
      return code.promise;
    });
    let changes = 0;
    services.onDidChange(() => changes++);
    assert.equal(services.all.length, 0, 'no service before start()');
    assert.equal(loads, 0, 'constructing loads nothing');
    const started = services.start();
    assert.equal(services.start(), started, 'start() runs once');
    for (let i = 0; i < 5; i++) await Promise.resolve();
    assert.equal(loads, 0, 'the extension host has its turn (a task) before the code is loaded, not only microtasks');
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(loads, 1);
    assert.equal(services.all.length, 0, 'no service while the code loads');
    assert.equal(changes, 0);
    code.resolve(connectionCode);
    await started;
    assert.equal(loads, 1);
    assert.equal(services.all.length, 1, 'the one service of flowsync.baseUrl');
    assert.equal(changes, 1, 'one change event when the services are made');
    assert.notEqual(services.all[0].explorer.pollSettings, undefined, 'configured from the settings by start()');
    await services.reconfigure();
    assert.equal(loads, 1, 'reconfigure() does not load again');
  });

  it('reconfigure() before start() waits for the code and the services', async () => {
    const code = deferred<ConnectionCode>();
    const services = registry(() => code.promise);
    const reconfigured = services.reconfigure();
    setTimeout(() => code.resolve(connectionCode), 10);
    await reconfigured;
    assert.equal(services.all.length, 1);
    assert.notEqual(services.all[0].explorer.pollSettings, undefined);
  });

  it('code that cannot load: logged, start() still resolves, no service is made; the next start() tries again', async () => {
    let loads = 0;
    const services = registry(() => {
      loads++;
      return loads === 1 ? Promise.reject(new Error('chunk missing')) : Promise.resolve(connectionCode);
    });
    let changes = 0;
    services.onDidChange(() => changes++);
    await services.start();
    assert.equal(services.all.length, 0);
    assert.equal(changes, 0);
    assert.ok(
      errors.some((m) => m.includes('The services could not start') && m.includes('chunk missing')),
      errors.join('\n'),
    );
    await services.whenMade();
    assert.equal(loads, 2, 'tried again');
    assert.equal(services.all.length, 1);
  });

  it('a service that cannot be made: start() resolves (no unhandled rejection), the error is logged, none is kept', async () => {
    const services = registry(async () => ({
      createServiceConnection: () => {
        throw new Error('cannot make it');
      },
    }));
    await services.start();
    assert.equal(services.all.length, 0);
    assert.ok(
      errors.some((m) => m.includes('cannot make it')),
      errors.join('\n'),
    );
  });

  it('whenMade() does not wait for the keys (a hung keyring must not hold up a command); start() does', async () => {
    // A service URL, so that its key is read (the extension under test reads it too: no key is stored for this origin).
    const before = vscode.workspace.getConfiguration('flowsync').inspect<string>('baseUrl')?.globalValue;
    await setUserSetting('baseUrl', 'https://127.0.0.1:9');
    try {
      settings.dispose();
      settings = new SettingsSource(readServicesSection);
      const services = registry(
        async () => connectionCode,
        () => new Promise<string | undefined>(() => undefined),
      );
      const started = services.start();
      await services.whenMade();
      assert.equal(services.all.length, 1, 'made');
      const late = await Promise.race([
        started.then(() => 'started'),
        new Promise((r) => setTimeout(() => r('waiting'), 100)),
      ]);
      assert.equal(late, 'waiting', 'start() waits for the key read');
    } finally {
      await setUserSetting('baseUrl', before);
    }
  });

  it('disposed while the code loads: makes nothing afterwards', async () => {
    const code = deferred<ConnectionCode>();
    const services = registry(() => code.promise);
    const started = services.start();
    services.dispose();
    code.resolve(connectionCode);
    await started;
    assert.equal(services.all.length, 0);
  });

  it('a link that arrives before the services are made waits for them (not "no such service")', async () => {
    const code = deferred<ConnectionCode>();
    const services = registry(() => code.promise);
    void services.start();
    const answers = keptLinkAnswers();
    const links = new LinkHandler({ services } as unknown as CommandContext, Promise.resolve(answers));
    const answered = links.handleUri(vscode.Uri.parse('vscode://flowsync-tools.flowsync-explorer/sync?id=1'));
    setTimeout(() => code.resolve(connectionCode), 20);
    await answered;
    assert.equal(answers.said.length, 1, answers.said.join('\n'));
    assert.match(
      answers.said[0],
      /not set up yet/,
      'answered for the one service (not set up in this test), once it exists',
    );
  });

  describe('at start, a link or a tool call waits for its service to read its key (issue 28 item 6)', () => {
    let mock: MockFlowSyncServer;
    let before: string | undefined;
    /** A keyring that answers the mock's key after `ms` (never, with Infinity). */
    const keyringAfter = (ms: number) => () =>
      new Promise<string | undefined>((resolve) => {
        if (Number.isFinite(ms)) setTimeout(() => resolve(TEST_KEY), ms);
      });
    /** Views and documents that find every item (what a link does once its service is ready). */
    function linkContext(services: ServiceRegistry, opened: unknown[]): CommandContext {
      const view = { tree: { findLeaf: () => true }, revealItem: async () => true };
      return {
        services,
        views: { processing: view, connections: view },
        json: { open: async (what: unknown) => void opened.push(what) },
      } as unknown as CommandContext;
    }

    beforeEach(async () => {
      mock = await startMockApi({ apiKey: TEST_KEY });
      before = vscode.workspace.getConfiguration('flowsync').inspect<string>('baseUrl')?.globalValue;
      await setUserSetting('baseUrl', mock.url);
      settings.dispose();
      settings = new SettingsSource(readServicesSection);
    });
    afterEach(async () => {
      await setUserSetting('baseUrl', before);
      await mock.close();
    });

    for (const delayMs of [0, 20, 150]) {
      it(`a link that starts VS Code, the keyring answering in ${delayMs} ms: answered with the item, not "not set up"`, async () => {
        const services = registry(async () => connectionCode, keyringAfter(delayMs));
        void services.start();
        const opened: unknown[] = [];
        const answers = keptLinkAnswers();
        const links = new LinkHandler(linkContext(services, opened), Promise.resolve(answers));
        await links.handleUri(vscode.Uri.parse('vscode://flowsync-tools.flowsync-explorer/sync?id=1003'));
        assert.deepEqual(answers.said, [], 'nothing said');
        assert.equal(opened.length, 1, 'the item is opened');
      });
    }

    it('a keyring that does not answer: the link says so after the keyring timeout (not "not set up")', async () => {
      const services = registry(async () => connectionCode, keyringAfter(Infinity), 300);
      void services.start();
      const answers = keptLinkAnswers();
      const links = new LinkHandler(linkContext(services, []), Promise.resolve(answers));
      await links.handleUri(vscode.Uri.parse('vscode://flowsync-tools.flowsync-explorer/sync?id=1003'));
      assert.equal(answers.said.length, 1, answers.said.join('\n'));
      assert.match(answers.said[0], /keyring did not answer/);
      assert.doesNotMatch(answers.said[0], /not set up/);
    });

    it('a language model tool called at start answers with the data (the keyring answering in 150 ms)', async () => {
      const services = registry(async () => connectionCode, keyringAfter(150));
      void services.start();
      const asTool = (s: (typeof services.all)[number]) => ({
        name: s.name,
        explorer: s.explorer,
        whenRead: () => services.whenRead(s),
      });
      const source: ToolSource = {
        services: {
          get all() {
            return services.all.map(asTool);
          },
          several: false,
          byName: () => undefined,
        },
        clock: systemClock,
        settings: { current: { refreshIntervalSeconds: 30, historyDays: 7 } },
        ready: () => services.whenMade(),
      };
      await source.ready?.();
      const result = await toolFor('processing', source).invoke(
        { input: {}, toolInvocationToken: undefined },
        new vscode.CancellationTokenSource().token,
      );
      const text = (result?.content ?? []).map((part) => (part as vscode.LanguageModelTextPart).value).join('');
      assert.doesNotMatch(text, /Set API Key|not set up|Set Service URL/i, text.slice(0, 300));
      // The syncs the service answered (the mock's list follows its clock: one computed now could differ).
      const first = services.all[0].explorer.lists.processing.state.items?.[0]?.value;
      assert.ok(
        first && text.includes(String(first.id)),
        `the processing syncs are in the answer: ${text.slice(0, 1500)}`,
      );
    });
  });
});
