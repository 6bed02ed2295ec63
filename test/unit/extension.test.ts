/**
 * activate() in plain Node, with a stand-in for the `vscode` module: what other extensions can reach through
 * `vscode.extensions.getExtension(...).exports`. In production that must hold no path to the key.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { fillPlaceholders, useLocalize } from '../../src/base/l10n';

const KEY = 'fs_unit_SENTINEL_exports_9b1';
const MODE = { Production: 1, Development: 2, Test: 3 };

/** Any member of the stand-in is a callable, constructible stand-in again (except the enums activate() compares). */
function standIn(): unknown {
  const members = new Map<PropertyKey, unknown>();
  return new Proxy(function () {}, {
    get: (_target, prop) => {
      if (prop === 'then') return undefined; // not a thenable
      if (prop === Symbol.toPrimitive) return () => '';
      if (prop === Symbol.iterator) return function* () {};
      if (!members.has(prop)) members.set(prop, standIn());
      return members.get(prop);
    },
    set: (_target, prop, value) => {
      members.set(prop, value);
      return true;
    },
    apply: () => standIn(),
    construct: () => standIn() as object,
  });
}

/** The `vscode` namespaces and classes the extension uses: a plain object, so a bundler's module interop can copy it. */
const NAMESPACES = [
  'window',
  'workspace',
  'commands',
  'env',
  'languages',
  'extensions',
  'lm',
  'Uri',
  'EventEmitter',
  'ThemeIcon',
  'ThemeColor',
  'TreeItem',
  'MarkdownString',
  'Disposable',
  'ProgressLocation',
  'ViewColumn',
];

function fakeVscode(): Record<string, unknown> {
  const api: Record<string, unknown> = {
    ExtensionMode: MODE,
    StatusBarAlignment: { Left: 1, Right: 2 },
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    QuickPickItemKind: { Separator: -1, Default: 0 },
    l10n: { t: fillPlaceholders },
    version: '1.139.1',
  };
  for (const name of NAMESPACES) api[name] = standIn();
  return api;
}

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
  const resolve = (Module as unknown as { _resolveFilename: (...args: unknown[]) => string })._resolveFilename;
  let extension: { activate(context: unknown): unknown };
  let vscode: Record<string, unknown>;

  before(() => {
    vscode = fakeVscode();
    (Module as unknown as { _resolveFilename: (...args: unknown[]) => string })._resolveFilename = function (
      request: unknown,
      ...rest: unknown[]
    ) {
      return request === 'vscode' ? 'vscode-stand-in' : resolve.call(this, request, ...rest);
    };
    require.cache['vscode-stand-in'] = {
      id: 'vscode-stand-in',
      filename: 'vscode-stand-in',
      loaded: true,
      exports: vscode,
    } as NodeJS.Module;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the 'vscode' stand-in is in place
    extension = require('../../src/extension') as typeof extension;
  });

  after(() => {
    (Module as unknown as { _resolveFilename: unknown })._resolveFilename = resolve;
    delete require.cache['vscode-stand-in'];
    useLocalize(fillPlaceholders); // activate() installed the stand-in's t for every module
  });

  function activateIn(mode: number) {
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
    const exports = extension.activate(context);
    return { exports, secrets, dispose: () => subscriptions.forEach((s) => s.dispose()) };
  }

  it('returns nothing in production, so no other extension can reach the key', () => {
    for (const mode of [MODE.Production, MODE.Development]) {
      const { exports, secrets, dispose } = activateIn(mode);
      try {
        assert.equal(exports, undefined);
        assert.equal(reaches(exports, secrets), undefined);
      } finally {
        dispose();
      }
    }
  });

  it('the production bundle (dist/extension.js) loads and activates the same way: every dependency is bundled', () => {
    const bundle = path.join(__dirname, '..', '..', '..', 'dist', 'extension.js');
    assert.ok(fs.existsSync(bundle), `${bundle} is missing: npm run build (npm test builds it before this stage)`);
    const saved = extension;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the 'vscode' stand-in is in place
    extension = require(bundle) as typeof extension;
    try {
      const test = activateIn(MODE.Test);
      assert.equal(typeof (test.exports as { reconfigure?: unknown }).reconfigure, 'function');
      test.dispose();
      const production = activateIn(MODE.Production);
      assert.equal(production.exports, undefined);
      production.dispose();
    } finally {
      extension = saved;
    }
  });

  it('the chunks of the production bundle (dist/chunks) share its state: their text is translated, and masks the key activate() registered', async () => {
    const dist = path.join(__dirname, '..', '..', '..', 'dist');
    const chunks = fs.existsSync(path.join(dist, 'chunks'))
      ? fs.readdirSync(path.join(dist, 'chunks')).filter((name) => name.endsWith('.js'))
      : [];
    assert.ok(
      chunks.includes('links.js') && chunks.includes('http.js'),
      `dist/chunks holds ${chunks.join(', ') || 'nothing'}: npm run build`,
    );
    const saved = extension;
    const l10n = vscode.l10n as { t: typeof fillPlaceholders };
    // a stand-in for a translation: every text localized through the t activate() installed is marked
    l10n.t = (message, ...args) => `«${fillPlaceholders(message, ...args)}»`;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the 'vscode' stand-in is in place
    extension = require(path.join(dist, 'extension.js')) as typeof extension;
    const test = activateIn(MODE.Test);
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

      // eslint-disable-next-line @typescript-eslint/no-require-imports -- as the bundle does on first use
      const links = require(path.join(dist, 'chunks', 'links.js')) as {
        answerLink(uri: unknown, ctx: unknown, say: (level: string, message: string) => void): Promise<void>;
      };
      const said: string[] = [];
      await links.answerLink({ path: '/nothing', query: '' }, {}, (_level, message) => said.push(message));
      assert.match(
        said.join('\n'),
        /^«Flow Sync cannot open this link: .*»$/,
        'the chunk has a localize of its own: translations are lost',
      );

      // A request that fails with the key in the error's text: the request code (a chunk) makes it inert, and must mask
      // the key registered at activation, though this request was given another one.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- as the bundle does on first request
      const http = require(path.join(dist, 'chunks', 'http.js')) as {
        getJson(url: string, label: string, options: unknown): Promise<unknown>;
      };
      const failing = { httpGet: async () => Promise.reject(new Error(`connect ECONNREFUSED (proxy said: ${KEY})`)) };
      const options = {
        apiKey: 'another-key',
        userAgent: 'unit',
        timeoutMs: 1000,
        maxBytes: 1000,
        maxContainers: 10,
        maxCommas: 10,
        now: () => 0,
        platform: failing,
      };
      const error = await http.getJson('https://flowsync.example/api', 'processing flow syncs', options).then(
        () => assert.fail('the request did not fail'),
        (e: unknown) => e as Error,
      );
      assert.match(error.message, /ECONNREFUSED/, 'the failure is not the one the stand-in platform gave');
      assert.ok(
        !error.message.includes(KEY),
        `a chunk does not mask the key registered at activation (it has its own copy of inert): ${error.message}`,
      );

      for (const chunk of chunks) {
        assert.ok(
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          Object.keys(require(path.join(dist, 'chunks', chunk)) as object).length > 0,
          `${chunk} exports nothing`,
        );
      }
    } finally {
      test.dispose();
      extension = saved;
      l10n.t = fillPlaceholders;
    }
  });

  it('returns the test API in ExtensionMode.Test only (where the walk does find the secret store: the walk works)', () => {
    const { exports, secrets, dispose } = activateIn(MODE.Test);
    try {
      assert.equal(typeof (exports as { reconfigure?: unknown }).reconfigure, 'function');
      assert.match(reaches(exports, secrets) ?? '', /^exports\.keys\.secrets$/);
    } finally {
      dispose();
    }
  });
});
