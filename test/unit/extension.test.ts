/**
 * activate() in plain Node, with a stand-in for the `vscode` module: what other extensions can reach through
 * `vscode.extensions.getExtension(...).exports`. In production that must hold no path to the key.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fillPlaceholders, useLocalize } from '../../src/base/l10n';

const KEY = 'fs_unit_SENTINEL_exports_9b1';
// Compiled to out/test/unit/: the repository root is three levels up. The `vscode` stand-in is plain CommonJS (shared
// with bench/chunkLoad/child.js), required where it is.
const REPO = path.resolve(__dirname, '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const standIn = require(
  path.join(REPO, 'test', 'unit', 'helpers', 'vscodeStandIn.js'),
) as typeof import('./helpers/vscodeStandIn');
const { ExtensionMode: MODE, fakeVscode, useVscode } = standIn;

/** Everything reachable from `root` through properties (own and inherited getters' values are not invoked). */
function reaches(root: unknown, target: unknown): string | undefined {
  const seen = new Set<unknown>();
  const queue: Array<[unknown, string]> = [[root, 'exports']];
  while (queue.length && seen.size < 200_000) {
    const [value, at] = queue.shift()!;
    if (value === target || (typeof value === 'string' && value.includes(KEY))) return at;
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
    seen.add(value);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor && 'value' in descriptor) queue.push([descriptor.value, `${at}.${String(key)}`]);
    }
    if (value instanceof Map) for (const [k, v] of value) queue.push([v, `${at}.get(${String(k)})`]);
    if (value instanceof Set) for (const v of value) queue.push([v, `${at}.<set>`]);
  }
  return undefined;
}

describe('activate() exports', () => {
  let extension: { activate(context: unknown): unknown };
  let vscode: Record<string, unknown>;
  let stopUsing: () => void;

  before(() => {
    vscode = fakeVscode({ t: fillPlaceholders });
    stopUsing = useVscode(vscode);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the 'vscode' stand-in is in place
    extension = require('../../src/extension') as typeof extension;
  });

  after(() => {
    stopUsing();
    useLocalize(fillPlaceholders); // activate() installed the stand-in's t for every module
  });

  /** activate() in `mode`: what it returned, and the exports VS Code makes of it (a promise's value, in ExtensionMode.Test). */
  async function activateIn(mode: number) {
    const secrets = {
      get: async () => KEY,
      store: async () => undefined,
      delete: async () => undefined,
      onDidChange: () => ({ dispose() {} }),
    };
    const subscriptions: Array<{ dispose(): unknown }> = [];
    const context = {
      extensionMode: mode,
      secrets,
      subscriptions,
      globalState: { get: () => undefined, update: async () => undefined, keys: () => [] },
      workspaceState: { get: () => undefined, update: async () => undefined, keys: () => [] },
      extension: { packageJSON: { version: '0.2.0' } },
      logUri: { fsPath: '/tmp/flowsync-unit-log' },
    };
    const returned = extension.activate(context);
    const dispose = () => subscriptions.forEach((s) => s.dispose());
    return { returned, exports: await returned, secrets, dispose };
  }

  it('returns nothing in production, so no other extension can reach the key', async () => {
    for (const mode of [MODE.Production, MODE.Development]) {
      const { returned, exports, secrets, dispose } = await activateIn(mode);
      try {
        assert.equal(returned, undefined);
        assert.equal(exports, undefined);
        assert.equal(reaches(exports, secrets), undefined);
      } finally {
        dispose();
      }
    }
  });

  it('the production bundle (dist/extension.js) loads and activates the same way: every dependency is bundled', async () => {
    const bundle = path.join(__dirname, '..', '..', '..', 'dist', 'extension.js');
    assert.ok(fs.existsSync(bundle), `${bundle} is missing: npm run build (npm test builds it before this stage)`);
    const saved = extension;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the 'vscode' stand-in is in place
    extension = require(bundle) as typeof extension;
    try {
      const test = await activateIn(MODE.Test);
      assert.equal(typeof (test.exports as { reconfigure?: unknown }).reconfigure, 'function');
      test.dispose();
      const production = await activateIn(MODE.Production);
      assert.equal(production.returned, undefined);
      assert.equal(production.exports, undefined);
      production.dispose();
    } finally {
      extension = saved;
    }
  });

  it('the chunks of the production bundle (dist/chunks) share its state: their text is translated, and masks the key the services registered', async () => {
    const dist = path.join(__dirname, '..', '..', '..', 'dist');
    const chunks = fs.existsSync(path.join(dist, 'chunks'))
      ? fs.readdirSync(path.join(dist, 'chunks')).filter((name) => name.endsWith('.js'))
      : [];
    assert.ok(
      chunks.includes('answers.js') && chunks.includes('services.js'),
      `dist/chunks holds ${chunks.join(', ') || 'nothing'}: npm run build`,
    );
    /** A chunk, as import() of one of its modules gives it (it exports their names: esbuild.js CHUNKS). */
    const moduleOf = <T>(chunk: string, name: string): T => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- as the bundle does on first use
      const found = require(path.join(dist, 'chunks', chunk)) as Record<string, unknown>;
      assert.equal(typeof found[name], 'function', `dist/chunks/${chunk} exports no ${name}`);
      return found as T;
    };
    const saved = extension;
    const l10n = vscode.l10n as { t: typeof fillPlaceholders };
    // a stand-in for a translation: every text localized through the t activate() installed is marked
    l10n.t = (message, ...args) => `«${fillPlaceholders(message, ...args)}»`;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the 'vscode' stand-in is in place
    extension = require(path.join(dist, 'extension.js')) as typeof extension;
    // the start bundle's own text: a command that fails says its error inert (src/commands/vscode/registerCommands.ts)
    const window = vscode.window as Record<string, unknown>;
    const commands = vscode.commands as Record<string, unknown>;
    const before = [window.createOutputChannel, window.showErrorMessage, commands.registerCommand];
    const registered = new Map<string, () => Promise<unknown>>();
    const errors: string[] = [];
    const failingLog = {
      show: () => {
        throw new Error(`the log of ${KEY} cannot be shown`);
      },
    };
    window.createOutputChannel = () =>
      new Proxy(failingLog, { get: (l, k) => (k === 'show' ? l.show : () => undefined) });
    window.showErrorMessage = async (message: string) => void errors.push(message);
    commands.registerCommand = (id: string, run: () => Promise<unknown>) => {
      registered.set(id, run);
      return { dispose: () => undefined };
    };
    const test = await activateIn(MODE.Test);
    try {
      const api = test.exports as {
        reconfigure(): Promise<void>;
        explorer: { configure(config: unknown): void; keyToHide?: string };
      };
      await api.reconfigure(); // the first configuration (no service URL in the stand-in's settings)
      // the key in use, as the service connection sets it; no service URL, so nothing is requested
      api.explorer.configure({
        baseUrl: '',
        apiKey: KEY,
        teamId: '',
        allowHttp: false,
        timeoutMs: 1000,
        autoRefresh: false,
        refreshIntervalMs: 30_000,
        userAgent: 'unit',
      });
      assert.equal(api.explorer.keyToHide, KEY);

      const links = moduleOf<{
        answerLink(uri: unknown, ctx: unknown, say: (level: string, message: string) => void): Promise<void>;
      }>('answers.js', 'answerLink');
      const said: string[] = [];
      await links.answerLink({ path: '/nothing', query: '' }, {}, (_level, message) => said.push(message));
      assert.match(
        said.join('\n'),
        /^«Flow Sync cannot open this link: .*»$/,
        'the chunk has a localize of its own: translations are lost',
      );

      // A service name with the key in it: a JSON document's name (made in the services' chunk, where the registry
      // registered the key) is inert, and must mask the key through the start bundle's one copy of inert, translated
      // by the localize activate() installed.
      const uri = vscode.Uri as { from: unknown };
      const from = uri.from;
      const names: string[] = [];
      uri.from = (parts: { path: string }) => (names.push(parts.path), parts);
      try {
        const documents = moduleOf<{ JsonDocuments: { uri(target: unknown, serviceName?: string): unknown } }>(
          'services.js',
          'JsonDocuments',
        );
        documents.JsonDocuments.uri({ list: 'processing', kind: 'items', ids: [7] }, `Invoices ${KEY}`);
      } finally {
        uri.from = from;
      }
      const [name = ''] = names;
      assert.match(name, /^\/Invoices .* · «.*»\.json$/, 'not the name of the document asked for');
      assert.ok(
        !name.includes(KEY),
        `a chunk does not mask the key registered by the services (it has its own copy of inert): ${name}`,
      );

      // The start bundle's inert (the command dispatcher's) masks the key the services' chunk registered: one copy.
      await registered.get('flowsync.showLog')?.();
      assert.equal(errors.length, 1, 'the failing Show Log said its error');
      assert.match(errors[0], /^the log of .* cannot be shown$/);
      assert.ok(
        !errors[0].includes(KEY),
        `the start bundle does not mask the key the services registered (a chunk has its own inert): ${errors[0]}`,
      );

      for (const chunk of chunks) {
        assert.ok(
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          Object.keys(require(path.join(dist, 'chunks', chunk)) as object).length > 1,
          `${chunk} exports nothing but what the files above take from it`,
        );
      }
    } finally {
      test.dispose();
      extension = saved;
      l10n.t = fillPlaceholders;
      [window.createOutputChannel, window.showErrorMessage, commands.registerCommand] = before;
    }
  });

  /**
   * activate() in production with a context whose `failing` member throws when the product reads it: what VS Code was
   * handed (the views' providers, the commands), what was said and logged, how often the product was tried, and the
   * settings listeners and timers alive now.
   */
  function startThatFails(failing: 'globalState' | 'workspaceState') {
    const window = vscode.window as Record<string, unknown>;
    const commands = vscode.commands as Record<string, unknown>;
    const workspace = vscode.workspace as Record<string, unknown>;
    const saved = [
      window.showErrorMessage,
      window.createTreeView,
      window.createOutputChannel,
      commands.registerCommand,
    ];
    const savedListen = workspace.onDidChangeConfiguration;
    const seen = { said: [] as string[][], logged: [] as string[], logShown: 0, tries: 0, listening: 0 };
    const providers: Array<{ getChildren(): unknown }> = [];
    const registered = new Map<string, () => Promise<unknown>>();
    window.showErrorMessage = async (...words: string[]) => void seen.said.push(words);
    const standInView = window.createTreeView as (...args: unknown[]) => unknown;
    window.createTreeView = (id: string, options: { treeDataProvider: { getChildren(): unknown } }) => {
      providers.push(options.treeDataProvider);
      return standInView(id, options);
    };
    const log = { error: (line: string) => seen.logged.push(line), show: () => seen.logShown++ };
    window.createOutputChannel = () => new Proxy(log, { get: (l, k) => (k in l ? l[k as 'error'] : () => undefined) });
    commands.registerCommand = (id: string, run: () => Promise<unknown>) => {
      registered.set(id, run);
      return { dispose: () => undefined };
    };
    workspace.onDidChangeConfiguration = () => {
      seen.listening++;
      return { dispose: () => seen.listening-- };
    };
    const memento = { get: () => undefined, update: async () => undefined, keys: () => [] };
    const subscriptions: Array<{ dispose(): unknown }> = [];
    const context = {
      extensionMode: MODE.Production,
      secrets: { get: async () => undefined, onDidChange: () => ({ dispose() {} }) },
      subscriptions,
      globalState: memento,
      workspaceState: memento,
      extension: { packageJSON: { version: '0.2.0' } },
    };
    Object.defineProperty(context, failing, {
      get: () => {
        seen.tries++;
        throw new Error(`${failing} is not there`);
      },
    });
    return {
      seen,
      providers,
      activate: () => extension.activate(context),
      run: async (id: string) => registered.get(id)?.(),
      /** The host's turn (a timer of 0, set before this one), then the product is made (and fails). */
      made: async () => {
        await new Promise((resolve) => setTimeout(resolve, 0));
        await new Promise((resolve) => setImmediate(resolve));
      },
      end: () => {
        subscriptions.forEach((s) => s.dispose());
        [window.showErrorMessage, window.createTreeView, window.createOutputChannel, commands.registerCommand] = saved;
        workspace.onDidChangeConfiguration = savedListen;
      },
    };
  }

  const COULD_NOT_START = ['Flow Sync could not start its services. The Flow Sync log says why.', 'Show Log'];

  it('the product cannot be made: said with Show Log once per making, the views show no rows, Show Log works, a command tries again', async () => {
    const start = startThatFails('globalState');
    try {
      assert.equal(start.activate(), undefined);
      assert.equal(start.providers.length, 3, 'the three views, registered by activate() itself');
      const rows = start.providers.map((provider) => Promise.resolve(provider.getChildren()));
      await start.made();
      assert.equal(start.seen.tries, 1);
      assert.deepEqual(await Promise.all(rows), [[], [], []], 'no view is left loading for ever');
      assert.deepEqual(
        start.providers.map((provider) => provider.getChildren()),
        [[], [], []],
        'a view first shown after the failure: no rows at once',
      );
      assert.deepEqual(start.seen.said, [COULD_NOT_START]);
      assert.match(start.seen.logged.join('\n'), /The services could not be loaded: Error: globalState is not there/);
      await start.run('flowsync.showLog');
      assert.equal(start.seen.logShown, 1, 'Show Log, what the failure points to, needs nothing else');
      assert.equal(start.seen.tries, 1);
      await start.run('flowsync.refresh');
      assert.equal(start.seen.tries, 2, 'the command tried to make the product again');
      assert.deepEqual(start.seen.said, [COULD_NOT_START, COULD_NOT_START], 'said once for that making, no more');
    } finally {
      start.end();
    }
  });

  /** The timers the extension's code (src/) set and neither cleared nor ran, from now until `stop()`. */
  function watchTimers() {
    const g = globalThis as { setTimeout: (...args: never[]) => unknown; clearTimeout: (handle: unknown) => void };
    const [set, clear] = [g.setTimeout, g.clearTimeout];
    const live = new Set<unknown>();
    g.setTimeout = ((run: () => void, ms: number) => {
      const ours = /[\\/]out[\\/]src[\\/]/.test(new Error().stack ?? '');
      const handle: unknown = set((() => (live.delete(handle), run())) as never as never, ms as never);
      if (ours) live.add(handle);
      return handle;
    }) as never;
    g.clearTimeout = (handle) => (live.delete(handle), clear(handle));
    return { live, stop: () => Object.assign(g, { setTimeout: set, clearTimeout: clear }) };
  }

  it('a product that fails midway leaves nothing behind: no listener, no timer, and the next making fails the same way', async () => {
    const timers = watchTimers();
    const start = startThatFails('workspaceState'); // read after the settings, the registry and the views were made
    try {
      start.activate();
      await start.made();
      assert.equal(start.seen.tries, 1, start.seen.logged.join('\n'));
      assert.equal(start.seen.listening, 0, "the settings' listener of the product made in part is disposed");
      assert.equal(timers.live.size, 0, "the views' and globalState's timers are gone with it");
      await start.run('flowsync.refresh');
      assert.equal(start.seen.tries, 2);
      const failures = start.seen.logged.filter((line) => line.startsWith('The services could not be loaded'));
      assert.equal(failures.length, 2);
      assert.ok(
        failures.every((line) => line.includes('workspaceState is not there')),
        `the views took the second product's rows as they took the first's: ${failures.join('; ')}`,
      );
      assert.equal(start.seen.listening, 0);
      assert.equal(timers.live.size, 0);
    } finally {
      timers.stop();
      start.end();
    }
  });

  it('returns the test API in ExtensionMode.Test only (where the walk does find the secret store: the walk works)', async () => {
    const { exports, secrets, dispose } = await activateIn(MODE.Test);
    try {
      assert.equal(typeof (exports as { reconfigure?: unknown }).reconfigure, 'function');
      assert.match(reaches(exports, secrets) ?? '', /^exports\.keys\.secrets$/);
    } finally {
      dispose();
    }
  });
});
