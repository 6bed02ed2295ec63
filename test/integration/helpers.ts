/**
 * Helpers for integration tests (they run inside the VS Code extension host).
 *
 *   const ext = await activateExtension();
 *   const mock = await startMockApi({ apiKey: TEST_KEY });   // the embedded mock API, in-process; close it in after()
 *   await connect(await testApi(), mock);         // key stored, flowsync.baseUrl set, processing loaded
 *   await withSettings({ 'flowsync.baseUrl': mock.url }, async () => { ... });
 *   const proxy = await startProxy({ hosts: { 'flowsync.test:8080': '127.0.0.1:8080' } });   // a loopback HTTP proxy
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import type { FlowSyncExplorerApi } from '../../src/extension';
import { MockFlowSyncServer, MockServerOptions } from '../../src/mock/server';

export const EXTENSION_ID = 'flowsync-tools.flowsync-explorer';

/** The extension under test, activated. */
export async function activateExtension(): Promise<vscode.Extension<unknown>> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  if (!ext.isActive) await ext.activate();
  assert.equal(ext.isActive, true, `extension ${EXTENSION_ID} did not activate`);
  return ext;
}

/**
 * The extension's test API (what activate() returns in ExtensionMode.Test, as under a test runner). VS Code resolves
 * `activate()` and sets isActive even when the extension's activate threw, so a missing API is reported here, by name.
 */
export async function testApi(): Promise<FlowSyncExplorerApi> {
  const api = (await activateExtension()).exports as FlowSyncExplorerApi | undefined;
  assert.ok(
    api && typeof api.reconfigure === 'function',
    `${EXTENSION_ID} returned no test API: its activate() failed (see "Activating extension ... failed" in the extension host log, remoteexthost.log) or it does not run in ExtensionMode.Test`,
  );
  return api;
}

/**
 * Runs `change` (writes of `count` stored keys) and waits until SecretStorage has told the extension about each: every
 * such event makes it re-apply its configuration, so events still on their way would overlap (and supersede) the
 * reconfigure() of whatever test runs next. Gives up quietly after `timeoutMs`.
 */
export async function keyChanges(
  api: FlowSyncExplorerApi,
  count: number,
  change: () => Promise<unknown>,
  timeoutMs = 5000,
): Promise<void> {
  let seen = 0;
  const listener = api.keys.onDidChange(() => seen++);
  try {
    await change();
    const until = Date.now() + timeoutMs;
    while (seen < count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    listener.dispose();
  }
  await api.reconfigure();
}

/** The API key the mock APIs of the integration tests accept: a sentinel, so never print it (see test/rig/README.md). */
export const TEST_KEY = 'fs_it_SENTINEL_4c1d2e3f';

/** Sets (or with undefined, removes) a flowsync.* user setting, as a person would in their settings.json. */
export async function setUserSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('flowsync').update(key, value, vscode.ConfigurationTarget.Global);
}

/**
 * Points the extension at `mock`, as a person would: `key` stored for the mock's origin (waiting for SecretStorage's
 * change event, see keyChanges), the user setting flowsync.baseUrl set to `mock.url`; then waits until the processing
 * list has loaded from that origin. Cheap when already connected (nothing changes, so nothing reloads): a test calls it
 * first to set up what it needs instead of relying on an earlier test.
 */
export async function connect(api: FlowSyncExplorerApi, mock: MockFlowSyncServer, key = TEST_KEY): Promise<void> {
  const origin = new URL(mock.url).origin;
  if ((await api.keys.get(origin)) !== key) await keyChanges(api, 1, () => api.keys.set(origin, key));
  await setUserSetting('baseUrl', mock.url);
  await api.reconfigure();
  await waitFor(
    () =>
      api.explorer.status === 'ready' &&
      api.explorer.scope === origin &&
      api.explorer.lists.processing.state.loadedAt !== undefined,
    {
      message: `processing loaded from ${origin}`,
    },
  );
}

/** A service a test lists in flowsync.services: its name, the mock that stands in for it and the key that mock takes. */
export interface ListedService {
  name: string;
  mock: MockFlowSyncServer;
  key: string;
}

/**
 * Lists `services` in flowsync.services, as a person who uses several would: each one's key stored for its mock's
 * origin (waiting for SecretStorage's change events, see keyChanges), then the setting, then reconfigure(). What a test
 * needs loaded it waits for itself; `setUserSetting('services', undefined)` takes them away again.
 */
export async function listServices(api: FlowSyncExplorerApi, services: readonly ListedService[]): Promise<void> {
  await keyChanges(api, services.length, async () => {
    for (const { mock, key } of services) await api.keys.set(new URL(mock.url).origin, key);
  });
  await setUserSetting(
    'services',
    services.map(({ name, mock }) => ({ name, url: mock.url })),
  );
  await api.reconfigure();
}

/** The keys of Production and Staging, each a sentinel like TEST_KEY (never printed; the rig fails if one is logged). */
export const PRODUCTION_KEY = 'fs_it_SENTINEL_prod_9a8b7c6d';
export const STAGING_KEY = 'fs_it_SENTINEL_stag_1e2f3a4b';

/**
 * Production (3 flows, 4 syncs processing) and Staging (5 flows, 6): two mock services of their own, each taking its
 * own key, as listServices lists them. Close their mocks in after(). `ownSyncs`: each mock also lists a sync of its
 * own until it closes: the seeded lifecycle alone leaves Production with only its long-stuck sync at about 7 % of
 * moments (Staging empty at 0.6 %), and a test that needs a sync of each then fails depending on the time of day (a
 * clean-clone CI run met it: 'Production holds its own service's syncs').
 */
export async function startProductionAndStaging({ ownSyncs = false } = {}): Promise<[ListedService, ListedService]> {
  const production = await startMockApi({ apiKey: PRODUCTION_KEY, seed: 11, flows: 3, processing: 4 });
  try {
    const staging = await startMockApi({ apiKey: STAGING_KEY, seed: 29, flows: 5, processing: 6 });
    if (ownSyncs) {
      const [ownProduction] = production.startSync(production.dataset.flows[0].id, { runMs: Infinity });
      for (let tries = 0; tries < 5; tries++) {
        const [ownStaging] = staging.startSync(staging.dataset.flows[0].id, { runMs: Infinity });
        if (ownStaging.id !== ownProduction.id) break;
        staging.finish(ownStaging.id); // the same id in both: not one of Staging's own
      }
    }
    return [
      { name: 'Production', mock: production, key: PRODUCTION_KEY },
      { name: 'Staging', mock: staging, key: STAGING_KEY },
    ];
  } catch (error) {
    await production.close();
    throw error;
  }
}

/** Waits until the extension holds `count` services, each ready and its Processing list loaded. */
export async function servicesLoaded(api: FlowSyncExplorerApi, count: number): Promise<void> {
  await waitFor(
    () =>
      api.services.all.length === count &&
      api.services.all.every(
        (s) => s.explorer.status === 'ready' && s.explorer.lists.processing.state.items !== undefined,
      ),
    { message: count === 2 ? 'both services loaded' : `${count} services loaded` },
  );
}

/** Starts the embedded Flow Sync mock API in this process (port 0: a free port). */
export async function startMockApi(options: MockServerOptions = {}): Promise<MockFlowSyncServer> {
  return MockFlowSyncServer.start({ port: 0, ...options });
}

/** Sets (global) settings for the duration of `fn`, then restores the previous values. */
export async function withSettings<T>(
  values: Record<string, unknown>,
  fn: () => Promise<T>,
  section?: string,
): Promise<T> {
  const config = vscode.workspace.getConfiguration(section);
  const previous = Object.keys(values).map((key) => [key, config.inspect(key)?.globalValue] as const);
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
  try {
    return await fn();
  } finally {
    for (const [key, value] of previous) await config.update(key, value, vscode.ConfigurationTarget.Global);
  }
}

/**
 * Polls `check` until it returns a truthy value (or throws after `timeoutMs`, saying `message`: a function is asked then,
 * so it can say the state it timed out in).
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  {
    timeoutMs = 10000,
    intervalMs = 50,
    message = 'condition' as string | (() => string),
  }: { timeoutMs?: number; intervalMs?: number; message?: string | (() => string) } = {},
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > until) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${typeof message === 'function' ? message() : message}${lastError ? `: ${String(lastError)}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** What the proxy was asked for: `url` as the client sent it (absolute URL, or host:port for CONNECT). */
export interface ProxiedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface TestProxy {
  /** http://127.0.0.1:PORT, or with the credentials when started with some. */
  url: string;
  port: number;
  /** Every request and CONNECT in arrival order, before any authentication. */
  seen: ProxiedRequest[];
  close(): Promise<void>;
}

/** The part of the `proxy` package (ESM only) used here. */
type CreateProxy = (server: http.Server) => http.Server & { authenticate?: (req: http.IncomingMessage) => boolean };

/**
 * `import()` kept as a real dynamic import: TypeScript compiles `import()` to require() in CommonJS output, and the
 * `proxy` package is ESM only. The specifier must be absolute (a file URL): a Function has no module to resolve from.
 */
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/**
 * A loopback HTTP proxy (the npm package `proxy`: plain requests and CONNECT tunnels) on 127.0.0.1, a free port.
 * @param hosts       `name:port` → `host:port` the proxy connects to instead: names only this proxy can resolve, so
 *                    a request that reaches such a host can only have come through the proxy
 * @param credentials `user:password` for Basic proxy authentication (407 without it); also put in `url`
 */
export async function startProxy({
  hosts = {},
  credentials,
}: { hosts?: Record<string, string>; credentials?: string } = {}): Promise<TestProxy> {
  const { createProxy } = (await importEsm(pathToFileURL(require.resolve('proxy')).href)) as {
    createProxy: CreateProxy;
  };
  const seen: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Registered before the package's own listeners, so they record and re-target every request first.
  const targets = new Map(Object.entries(hosts).map(([from, to]) => [from.toLowerCase(), to]));
  const mapped = (hostPort: string) => targets.get(hostPort.toLowerCase()) ?? hostPort;
  server.on('request', (req: http.IncomingMessage) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers } });
    const target = /^http:\/\/([^/]+)(.*)$/i.exec(req.url ?? '');
    if (target) req.url = `http://${mapped(target[1])}${target[2]}`;
  });
  server.on('connect', (req: http.IncomingMessage) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers } });
    req.url = mapped(req.url ?? '');
  });
  const proxy = createProxy(server);
  if (credentials) {
    const expected = `Basic ${Buffer.from(credentials).toString('base64')}`;
    proxy.authenticate = (req) => req.headers['proxy-authorization'] === expected;
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://${credentials ? `${credentials}@` : ''}127.0.0.1:${port}`,
    port,
    seen,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** The Processing view's row of sync `id` (under its group, or at the top when not grouped), as VS Code gets it. */
export function processingLeaf(api: FlowSyncExplorerApi, id: number) {
  const tree = api.views.processing.tree;
  return tree
    .getChildren()
    .flatMap((g) => (g.kind === 'group' ? tree.getChildren(g) : [g]))
    .find((n) => n.kind === 'leaf' && n.item.value.id === id)!;
}
