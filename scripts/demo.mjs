#!/usr/bin/env node
// `npm run demo`: try the extension by hand against the embedded mock API, offline.
//   - builds the extension and packages it (VSIX), compiles the mock API (npm run compile)
//   - starts the mock API (in this process) and code-server (a real VS Code in the browser) with the extension
//     installed and the user setting "flowsync.baseUrl" pointing at the mock
//   - starts the embedded team History store beside it (PGlite on loopback, test/rig/pglite.mjs: in memory, several
//     connections at once), so two windows can run Connect Team History with the same connection string
//   - prints the URL to open, the demo API key and the store's connection string; Ctrl+C stops everything
//
// The mock runs its sync lifecycle DEMO_SPEED times faster (flows' typical run times ~30 s - 3 min instead of
// 2 - 15 min, that many more starts), so History fills within the first minutes. Its clock stays the real one: the
// extension computes "started ... ago" and durations from created_at against the real clock, and a fast mock clock
// would hand out created_at values in the future. The stuck sync started 2 hours before the demo; a burst of
// syncs of the quickest flow starts BURST_AFTER_MS after the extension first loaded the list (the demo says so).
//
//   npm run demo                       code-server on 127.0.0.1:8080 (or a free port if 8080 is busy)
//   npm run demo -- --port 9000        another preferred port
//   npm run demo -- --no-build         reuse dist/ and out/ as they are
//   npm run demo -- --desktop          desktop VS Code (`code` on PATH) with --extensionDevelopmentPath instead
//   npm run demo -- --store-port 5433  the embedded store's preferred port (54320; a free one if it is busy)
//   npm run demo -- --services 2       two mock services, "Production" and "Staging" (flowsync.services), each with
//                                      its own key (Set API Key... asks which service)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  REPO_ROOT,
  RIG_DIR,
  buildProject,
  freshWorkspace,
  packageVsix,
  prepareRig,
  startCodeServer,
} from '../test/rig/codeServer.mjs';
import { startPglite } from '../test/rig/pglite.mjs';
import { onInterrupt } from '../test/rig/processes.mjs';

const DEMO_API_KEY = 'fs_demo_0123456789abcdef';
/** With --services 2: the second service's own key (each service has its own). */
const STAGING_API_KEY = 'fs_demo_staging_fedcba98765';
const DEMO_SPEED = 5;
const BURST_AFTER_MS = 30_000;
const BURST_SIZE = 4;
const { values: opts } = parseArgs({
  options: {
    desktop: { type: 'boolean', default: false },
    port: { type: 'string', default: '8080' },
    'mock-port': { type: 'string', default: '4010' },
    'store-port': { type: 'string', default: '54320' },
    build: { type: 'boolean', default: true },
    services: { type: 'string', default: '1' },
  },
  allowNegative: true,
});
const say = (msg) => console.log(`[demo] ${msg}`);
const SERVICES = Number(opts.services);
if (SERVICES !== 1 && SERVICES !== 2) {
  console.error('[demo] --services takes 1 or 2');
  process.exit(2);
}

function which(cmd) {
  const r = spawnSync(process.platform === 'win32' ? 'where' : 'which', [cmd], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().split('\n')[0] : undefined;
}

/** The mock service (Production), and with --services 2 a second one (Staging: its own key and data). */
async function startMocks() {
  const modulePath = path.join(REPO_ROOT, 'out', 'src', 'mock', 'server.js');
  if (!fs.existsSync(modulePath))
    throw new Error(`${path.relative(REPO_ROOT, modulePath)} is missing: run npm run compile`);
  const { MockFlowSyncServer } = createRequire(import.meta.url)(modulePath);
  let mock;
  try {
    mock = await MockFlowSyncServer.start({ port: Number(opts['mock-port']), speed: DEMO_SPEED });
  } catch (error) {
    if (error.code !== 'EADDRINUSE') throw error;
    mock = await MockFlowSyncServer.start({ port: 0, speed: DEMO_SPEED });
  }
  onInterrupt(() => mock.close());
  scheduleBurst(mock);
  const mocks = [{ name: 'Production', mock, key: DEMO_API_KEY }];
  if (SERVICES === 2) {
    const staging = await MockFlowSyncServer.start({
      port: 0,
      speed: DEMO_SPEED,
      apiKey: STAGING_API_KEY,
      seed: 29,
      flows: 5,
      processing: 6,
    });
    onInterrupt(() => staging.close());
    mocks.push({ name: 'Staging', mock: staging, key: STAGING_API_KEY });
  }
  return mocks;
}

/** The embedded team History store (PGlite in memory, on loopback): its rows last as long as the demo. */
async function startStore() {
  const store = await startPglite({ port: Number(opts['store-port']), anyPortIfBusy: true });
  onInterrupt(() => store.stop());
  return store;
}

/** What the banner says about the store. */
const storeLines = (store) => [
  `team store:   ${store.url()}`,
  '              (embedded PGlite: run "Flow Sync: Connect Team History..." in each window with this string)',
];

/** The quickest flow: its burst finishes soon, so History shows it within the first minutes. */
const quickestFlow = (mock) =>
  mock.dataset.flows.reduce((best, flow) => (flow.typicalRunMs < best.typicalRunMs ? flow : best));

/** A burst (several syncs of one flow at once) BURST_AFTER_MS after the extension first loaded the processing list. */
function scheduleBurst(mock) {
  const watch = setInterval(() => {
    if (!mock.requests.some((r) => r.authorized && r.status === 200 && r.path.endsWith('/flowsyncs/processing')))
      return;
    clearInterval(watch);
    setTimeout(() => {
      const flow = quickestFlow(mock);
      mock.startSync(flow.id, { count: BURST_SIZE });
      say(`mock: a burst of ${BURST_SIZE} syncs of "${flow.name}" started`);
    }, BURST_AFTER_MS).unref();
  }, 1000);
  watch.unref();
}

/** What the banner says about the mock's syncs. */
function mockLines(mock) {
  const runTimes = mock.dataset.flows.map((flow) => Math.round(flow.typicalRunMs / 1000));
  return [
    `mock syncs:   ${DEMO_SPEED}x faster lifecycle than real flows (typical run ${Math.min(...runTimes)} s - ${Math.max(...runTimes)} s,`,
    '              by flow) on the real clock, so "started ... ago" and durations are true',
    `stuck sync:   #${mock.dataset.stuckSyncId} (started ${new Date(mock.dataset.stuckSince).toLocaleTimeString()}, never finishes)`,
    `burst:        ${BURST_SIZE} syncs of "${quickestFlow(mock).name}" ${BURST_AFTER_MS / 1000} s after the extension first loads the list`,
  ];
}

function settingsFor(mocks) {
  if (mocks.length === 1) return { 'flowsync.baseUrl': mocks[0].mock.url };
  return { 'flowsync.services': mocks.map(({ name, mock }) => ({ name, url: mock.url })) };
}

/** What the banner says about each service: its URL and its key. */
function serviceLines(mocks) {
  if (mocks.length === 1) return [`mock API:     ${mocks[0].mock.url}`, `API key:      ${mocks[0].key}`];
  return mocks
    .flatMap(({ name, mock, key }) => [`${name}:`.padEnd(14) + `${mock.url}   API key: ${key}`])
    .concat(['(Set API Key... asks which service each key is for)']);
}

/** The first step in the window, said in the banner and in the demo folder's README.md: the views stay empty until then. */
function firstStep(mocks, where) {
  return mocks.length === 1
    ? `click "Flow Sync: Set API Key" in the status bar and paste the key ${where}`
    : `run "Flow Sync: Set API Key..." (F1) once per service, with its key ${where}`;
}

/** A README in the demo folder (shown in the Explorer) with the first step and the keys. */
function writeDemoReadme(workspace, mocks, store) {
  const keys = mocks.map(({ name, key }) => (mocks.length === 1 ? `- API key: \`${key}\`` : `- ${name}: \`${key}\``));
  const text = [
    '# Flow Sync Explorer demo',
    '',
    `Next: ${firstStep(mocks, 'below')}, then open Flow Sync in the activity bar.`,
    '',
    ...keys,
    '',
    'Team History: run "Flow Sync: Connect Team History..." in two windows with the demo\'s embedded store,',
    `\`${store.url()}\`, and watch History fill in both.`,
    '',
  ];
  fs.writeFileSync(path.join(workspace, 'README.md'), text.join('\n'));
}

async function desktop() {
  const code = which('code');
  if (!code) {
    console.error(
      "[demo] `code` (desktop VS Code's shell command) is not on PATH. Install VS Code and its `code` command, or run `npm run demo` for the browser version.",
    );
    return 1;
  }
  if (opts.build) {
    buildProject();
  }
  const [mocks, store] = await Promise.all([startMocks(), startStore()]);
  const mock = mocks[0].mock;
  // A profile of its own so the demo's settings don't touch the user's.
  const profile = path.join(RIG_DIR, 'demo-desktop');
  fs.mkdirSync(path.join(profile, 'user-data', 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(profile, 'user-data', 'User', 'settings.json'),
    JSON.stringify(settingsFor(mocks), null, 2) + '\n',
  );
  const workspace = freshWorkspace('demo');
  writeDemoReadme(workspace, mocks, store);
  serviceLines(mocks).forEach((line) => say(line));
  storeLines(store).forEach((line) => say(line));
  mockLines(mock).forEach((line) => say(line));
  say(`then:         ${firstStep(mocks, 'above')}`);
  say(`starting ${code} --extensionDevelopmentPath=${REPO_ROOT} (close the window or press Ctrl+C to stop)`);
  const child = spawn(
    code,
    [
      `--extensionDevelopmentPath=${REPO_ROOT}`,
      `--user-data-dir=${path.join(profile, 'user-data')}`,
      '--new-window',
      '--wait',
      workspace,
    ],
    { stdio: 'inherit' },
  );
  const status = await new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 0)));
  await Promise.all([...mocks.map((m) => m.mock.close()), store.stop()]);
  fs.rmSync(workspace, { recursive: true, force: true });
  return status;
}

async function browser() {
  const rig = await prepareRig();
  if (opts.build) {
    say('building: npm run compile, node esbuild.js --production, vsce package');
    buildProject({ production: true });
  }
  const vsix = packageVsix();
  const [mocks, store] = await Promise.all([startMocks(), startStore()]);
  const mock = mocks[0].mock;
  const server = await startCodeServer({
    rig,
    name: 'demo',
    vsix: [vsix],
    settings: settingsFor(mocks),
    port: Number(opts.port),
    quiet: true,
  });
  const workspace = freshWorkspace('demo');
  writeDemoReadme(workspace, mocks, store);
  onInterrupt(() => fs.rmSync(workspace, { recursive: true, force: true }));
  const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
  console.log('');
  serviceLines(mocks).forEach((line) => say(line));
  storeLines(store).forEach((line) => say(line));
  mockLines(mock).forEach((line) => say(line));
  say(`open:         ${url}`);
  say(`then:         ${firstStep(mocks, 'above')}`);
  say(`(code-server log: ${path.relative(REPO_ROOT, server.logFile)}; Ctrl+C stops everything)`);
  let interrupted = false;
  onInterrupt(() => (interrupted = true));
  const how = await server.exited;
  if (interrupted) return new Promise(() => {}); // the interrupt handler (test/rig/processes.mjs) cleans up and exits
  console.error(`[demo] code-server stopped (${how}); log ${server.logFile}`);
  await Promise.all([...mocks.map((m) => m.mock.close()), store.stop()]);
  fs.rmSync(workspace, { recursive: true, force: true });
  return 1;
}

(opts.desktop ? desktop() : browser()).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[demo] ${error?.stack ?? error}`);
    process.exit(1);
  },
);
