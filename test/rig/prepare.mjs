#!/usr/bin/env node
// Prepares the offline "real VS Code" rig, idempotently:
//   - Node 24 (code-server's engine) from the npm package node-<platform>-<arch>@24  -> <install>/node24
//   - code-server (pinned, carries a full VS Code) in its own npm prefix             -> <install>/code-server
//   - a Chromium: $CHROME_PATH, else /usr/bin/chromium or google-chrome, else (Debian, root) apt-get install chromium
// <install> is one folder per code-server version, Node major and platform in the user's cache, shared by every clone
// of the project on the machine (like npm's cache or Playwright's browsers): $FLOWSYNC_RIG_CACHE, else
// $XDG_CACHE_HOME/flowsync-explorer/rig, else ~/.cache/flowsync-explorer/rig; .vscode-test/ when none is writable. Its
// building is the one slow step (~4 min on 2 cores: native modules); a fresh clone finds it built.
// A marker file (<install>/rig.json), written last, records what was installed; a second run checks it and returns
// at once. Per-run state, logs and packaged VSIXs stay in the checkout's .vscode-test/ (gitignored).
//
//   node test/rig/prepare.mjs           prepare (prints progress for the long steps, ~2 min cold)
//   node test/rig/prepare.mjs --force   reinstall Node 24 and code-server
//   RIG_FORCE_APT=1 node test/rig/prepare.mjs   run the apt-get step even if chromium/libkrb5-dev are there (to test it)
//
// Imported by the launchers: `const rig = await prepareRig()` gives the paths and the environment to run code-server.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RIG_DIR = path.join(REPO_ROOT, '.vscode-test');
export const LOG_DIR = path.join(RIG_DIR, 'logs');
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = '24';

const INSTALL_NAME = `code-server-${CODE_SERVER_VERSION}-node${NODE_MAJOR}-${process.platform}-${process.arch}`;

/** Where the installed parts live: the user's rig cache when it can be written, else this checkout's .vscode-test/. */
function installDir() {
  const cacheHome = process.env.XDG_CACHE_HOME || (os.homedir() && path.join(os.homedir(), '.cache'));
  const root =
    process.env.FLOWSYNC_RIG_CACHE || (cacheHome && path.join(cacheHome, 'flowsync-explorer', 'rig')) || undefined;
  if (root) {
    try {
      fs.mkdirSync(root, { recursive: true });
      fs.accessSync(root, fs.constants.W_OK);
      return path.join(path.resolve(root), INSTALL_NAME);
    } catch {
      // not writable: the checkout's own folder
    }
  }
  return path.join(RIG_DIR, INSTALL_NAME);
}

export const INSTALL_DIR = installDir();
const NODE_DIR = path.join(INSTALL_DIR, 'node24');
const NODE_BIN = path.join(NODE_DIR, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
const CS_PREFIX = path.join(INSTALL_DIR, 'code-server');
const CS_ENTRY = path.join(CS_PREFIX, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const MARKER = path.join(INSTALL_DIR, 'rig.json');
const MARKER_FORMAT = 1;
/** Where a checkout of an older layout installed the same parts (moved into INSTALL_DIR once, not built again). */
const LEGACY = {
  marker: path.join(RIG_DIR, 'rig.json'),
  node: path.join(RIG_DIR, 'node24'),
  codeServer: path.join(RIG_DIR, 'code-server'),
};

const log = (msg) => console.log(`[rig] ${msg}`);

/** The environment code-server (and npm installing it) must run with: Node 24 first on PATH, its headers for node-gyp. */
export function rigEnv(extra = {}) {
  const env = { ...process.env };
  // A parent VS Code / Electron must not leak into the child VS Code.
  for (const key of Object.keys(env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') delete env[key];
    // Under `npm run`/`npm test` the parent npm exports its config (npm_config_user_agent naming Node 20, ...), which a
    // nested npm would take as its own: code-server's postinstall reads the Node version from that user agent.
    if (/^npm_/i.test(key) || key === 'NODE' || key === 'INIT_CWD') delete env[key];
  }
  env.PATH = `${path.dirname(NODE_BIN)}${path.delimiter}${env.PATH ?? ''}`;
  env.npm_config_nodedir = NODE_DIR;
  return { ...env, ...extra };
}

/** XDG_* (code-server's config.yaml and data, Chromium's caches) pointed into a scratch dir, away from $HOME. */
export function xdgEnv(dir) {
  const env = {
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_DATA_HOME: path.join(dir, 'data'),
    XDG_CACHE_HOME: path.join(dir, 'cache'),
  };
  for (const d of Object.values(env)) fs.mkdirSync(d, { recursive: true });
  return env;
}

function readMarker() {
  try {
    return JSON.parse(fs.readFileSync(MARKER, 'utf8'));
  } catch {
    return undefined;
  }
}

function which(cmd) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, cmd);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** $CHROME_PATH, else a system Chromium/Chrome; undefined when there is none. */
export function findBrowser() {
  if (process.env.CHROME_PATH) {
    if (!fs.existsSync(process.env.CHROME_PATH))
      throw new Error(`CHROME_PATH=${process.env.CHROME_PATH} does not exist`);
    return process.env.CHROME_PATH;
  }
  for (const candidate of [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  return which('chromium') ?? which('chromium-browser') ?? which('google-chrome') ?? which('google-chrome-stable');
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function debPackageInstalled(name) {
  if (!which('dpkg-query')) return undefined;
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/** Runs a command, streaming its output to a log file, with a heartbeat line every 15 s. Rejects on non-zero exit. */
function runLogged(label, cmd, args, { cwd, env, logFile }) {
  return new Promise((resolve, reject) => {
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    const out = fs.openSync(logFile, 'a');
    fs.writeSync(out, `\n$ ${cmd} ${args.join(' ')}   (cwd ${cwd})\n`);
    const started = Date.now();
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', out, out] });
    const beat = setInterval(() => log(`  ... ${label}: ${Math.round((Date.now() - started) / 1000)} s`), 15000);
    const stopOnSignal = () => child.kill('SIGTERM');
    process.once('SIGINT', stopOnSignal);
    process.once('SIGTERM', stopOnSignal);
    child.on('error', (e) => finish(e));
    child.on('exit', (code, signal) =>
      finish(code === 0 ? undefined : new Error(`${label} failed (${signal ?? `exit ${code}`})`)),
    );
    let done = false;
    function finish(err) {
      if (done) return;
      done = true;
      clearInterval(beat);
      process.off('SIGINT', stopOnSignal);
      process.off('SIGTERM', stopOnSignal);
      fs.closeSync(out);
      if (!err) return resolve(Math.round((Date.now() - started) / 1000));
      const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
      reject(new Error(`${err.message}; last lines of ${path.relative(REPO_ROOT, logFile)}:\n${tail}`));
    }
  });
}

async function aptInstall(packages) {
  if (!packages.length) return;
  if (!isRoot() || !which('apt-get')) {
    throw new Error(
      `missing system packages: ${packages.join(', ')}. Install them (Debian: apt-get install -y ${packages.join(' ')})` +
        ` or set CHROME_PATH to a Chromium/Chrome binary.`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const logFile = path.join(LOG_DIR, 'prepare-apt.log');
  log(`apt-get install ${packages.join(' ')} (log: ${path.relative(REPO_ROOT, logFile)})`);
  await runLogged('apt-get update', 'apt-get', ['update'], { cwd: REPO_ROOT, env, logFile });
  const secs = await runLogged('apt-get install', 'apt-get', ['install', '-y', ...packages], {
    cwd: REPO_ROOT,
    env,
    logFile,
  });
  log(`apt-get install done in ${secs} s`);
}

async function installNode() {
  const pkg = `node-${process.platform}-${process.arch}@${NODE_MAJOR}`;
  log(`installing Node ${NODE_MAJOR} from npm package ${pkg} -> ${path.relative(REPO_ROOT, NODE_DIR)}`);
  const tmp = path.join(INSTALL_DIR, 'tmp-node');
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(NODE_DIR, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  const packed = spawnSync('npm', ['pack', pkg, '--pack-destination', tmp, '--silent'], {
    cwd: tmp,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (packed.status !== 0) throw new Error(`npm pack ${pkg} failed:\n${packed.stderr}`);
  const tgz = fs.readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error(`npm pack ${pkg} produced no tarball`);
  fs.mkdirSync(NODE_DIR, { recursive: true });
  const untar = spawnSync('tar', ['xzf', path.join(tmp, tgz), '-C', NODE_DIR, '--strip-components=1'], {
    encoding: 'utf8',
  });
  if (untar.status !== 0) throw new Error(`extracting ${tgz} failed:\n${untar.stderr}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.chmodSync(NODE_BIN, 0o755);
}

function nodeVersion() {
  const r = spawnSync(NODE_BIN, ['-v'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

async function installCodeServer() {
  log(
    `installing code-server@${CODE_SERVER_VERSION} with Node ${nodeVersion()} -> ${path.relative(REPO_ROOT, CS_PREFIX)} (~2 min: its postinstall builds native modules)`,
  );
  fs.rmSync(CS_PREFIX, { recursive: true, force: true });
  fs.mkdirSync(CS_PREFIX, { recursive: true });
  // A prefix of its own, so the extension's package.json/lockfile never see code-server.
  fs.writeFileSync(
    path.join(CS_PREFIX, 'package.json'),
    JSON.stringify(
      { name: 'flowsync-rig-code-server', private: true, dependencies: { 'code-server': CODE_SERVER_VERSION } },
      null,
      2,
    ) + '\n',
  );
  fs.writeFileSync(
    path.join(CS_PREFIX, '.npmrc'),
    'audit=false\nfund=false\nupdate-notifier=false\npackage-lock=true\n',
  );
  const logFile = path.join(LOG_DIR, 'prepare-code-server.log');
  fs.rmSync(logFile, { force: true });
  log(`  npm install log: ${path.relative(REPO_ROOT, logFile)}`);
  // code-server's postinstall runs a nested `npm install` in lib/vscode and lib/vscode/extensions whose native modules
  // (spdlog, sqlite, kerberos, node-pty, ...) MUST build. npm 11 skips dependency install scripts that the root
  // package.json's allowScripts does not list, and the nested installs have no such list; this env setting (inherited by
  // the nested npm processes) allows them, for this isolated prefix only. Older npm ignores it (scripts run anyway).
  const env = rigEnv({
    npm_config_dangerously_allow_all_scripts: 'true',
    npm_config_ignore_scripts: 'false',
    npm_config_foreground_scripts: 'true',
    npm_config_update_notifier: 'false',
    // node-gyp's make with one job per core (npm runs the install scripts one at a time anyway: its limit is cores - 1).
    JOBS: 'max',
  });
  // The npm on PATH runs under Node 24 (first on PATH), which code-server's postinstall checks via npm_config_user_agent.
  const secs = await runLogged('npm install code-server', 'npm', ['install', '--no-audit', '--no-fund'], {
    cwd: CS_PREFIX,
    env,
    logFile,
  });
  log(`code-server installed in ${secs} s`);
  const missing = ['lib/vscode/node_modules', 'lib/vscode/extensions/node_modules'].filter(
    (p) => !fs.existsSync(path.join(CS_PREFIX, 'node_modules', 'code-server', p)),
  );
  if (missing.length)
    throw new Error(`code-server's postinstall did not run (missing ${missing.join(', ')}); see ${logFile}`);
}

/** code-server --version must answer with the pinned version, under Node 24. */
function checkCodeServer() {
  const scratch = path.join(INSTALL_DIR, 'tmp-check');
  const r = spawnSync(NODE_BIN, [CS_ENTRY, '--version'], {
    encoding: 'utf8',
    env: rigEnv(xdgEnv(scratch)),
    timeout: 60000,
  });
  fs.rmSync(scratch, { recursive: true, force: true });
  if (r.status !== 0 || !r.stdout.includes(CODE_SERVER_VERSION)) {
    throw new Error(`code-server --version failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout.trim().split('\n').pop();
}

/**
 * Makes sure the rig is there; returns its paths. Fast (a stat or two) when the marker says everything is installed.
 * @returns {Promise<{nodeBin: string, nodeDir: string, codeServerEntry: string, browser: string, rigDir: string, logDir: string}>}
 */
export async function prepareRig({ force = false } = {}) {
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const marker = readMarker();
  const complete =
    !force &&
    marker?.format === MARKER_FORMAT &&
    marker.codeServer === CODE_SERVER_VERSION &&
    marker.platform === `${process.platform}-${process.arch}` &&
    fs.existsSync(NODE_BIN) &&
    fs.existsSync(CS_ENTRY);

  const browser = findBrowser();
  if (complete && browser && !process.env.RIG_FORCE_APT) return result(browser);

  const release = await lock();
  try {
    // Another process may have finished the job while we waited for the lock.
    if (
      !force &&
      !process.env.RIG_FORCE_APT &&
      readMarker()?.codeServer === CODE_SERVER_VERSION &&
      fs.existsSync(CS_ENTRY) &&
      findBrowser()
    ) {
      return result(findBrowser());
    }
    return await install({ force, complete, browser });
  } finally {
    release();
  }
}

/** One preparer at a time (two test runs starting together on a cold machine): a lock dir holding the owner's pid. */
async function lock() {
  fs.mkdirSync(INSTALL_DIR, { recursive: true });
  const dir = path.join(INSTALL_DIR, '.prepare.lock');
  const until = Date.now() + 15 * 60 * 1000;
  for (let waited = 0; ; waited++) {
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
      return () => fs.rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let owner;
      try {
        owner = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
        process.kill(owner, 0);
      } catch {
        // stale lock (owner gone, or it has not written its pid yet: give it a moment)
        if (waited > 2) fs.rmSync(dir, { recursive: true, force: true });
      }
      if (Date.now() > until)
        throw new Error(`timed out waiting for another rig preparation (pid ${owner}) to finish`, { cause: error });
      if (waited % 30 === 0) log(`waiting for another rig preparation (pid ${owner}) to finish`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

async function install({ force, complete, browser }) {
  const started = Date.now();
  log(`preparing the real-VS-Code rig in ${INSTALL_DIR}`);
  if (!complete && !force && moveLegacyInstall()) complete = true;

  // System packages first: libkrb5-dev for code-server's kerberos module, chromium as the browser.
  const apt = [];
  if (!browser || process.env.RIG_FORCE_APT) apt.push('chromium');
  if (
    (!complete && process.platform === 'linux' && debPackageInstalled('libkrb5-dev') === false) ||
    process.env.RIG_FORCE_APT
  )
    apt.push('libkrb5-dev');
  await aptInstall(apt);
  browser = findBrowser();
  if (!browser) throw new Error('no Chromium/Chrome found after installing; set CHROME_PATH');

  if (!complete) {
    fs.rmSync(MARKER, { force: true });
    if (force || !nodeVersion()?.startsWith(`v${NODE_MAJOR}.`)) await installNode();
    const nodeV = nodeVersion();
    if (!nodeV?.startsWith(`v${NODE_MAJOR}.`))
      throw new Error(`Node ${NODE_MAJOR} at ${NODE_BIN} does not run (got ${nodeV})`);
    log(`Node ${nodeV} ready`);
    await installCodeServer();
    const version = checkCodeServer();
    log(`code-server ${version} answers`);
    fs.writeFileSync(
      MARKER,
      JSON.stringify(
        {
          format: MARKER_FORMAT,
          codeServer: CODE_SERVER_VERSION,
          node: nodeV,
          platform: `${process.platform}-${process.arch}`,
          installedAt: new Date().toISOString(),
        },
        null,
        2,
      ) + '\n',
    );
  }
  log(`rig ready in ${((Date.now() - started) / 1000).toFixed(1)} s (browser: ${browser})`);
  return result(browser);
}

/**
 * A checkout prepared before the rig moved to the user's cache has the same parts in .vscode-test/: moved (a rename on
 * one file system, else a copy) instead of built again, then checked. Returns whether the install is now complete.
 */
function moveLegacyInstall() {
  let legacy;
  try {
    legacy = JSON.parse(fs.readFileSync(LEGACY.marker, 'utf8'));
  } catch {
    return false;
  }
  if (
    legacy?.format !== MARKER_FORMAT ||
    legacy.codeServer !== CODE_SERVER_VERSION ||
    legacy.platform !== `${process.platform}-${process.arch}` ||
    !fs.existsSync(LEGACY.node) ||
    !fs.existsSync(LEGACY.codeServer)
  )
    return false;
  log(`moving the rig this checkout built in ${path.relative(REPO_ROOT, RIG_DIR)}/ to ${INSTALL_DIR}`);
  for (const [from, to] of [
    [LEGACY.node, NODE_DIR],
    [LEGACY.codeServer, CS_PREFIX],
  ]) {
    fs.rmSync(to, { recursive: true, force: true });
    try {
      fs.renameSync(from, to);
    } catch {
      fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true });
      fs.rmSync(from, { recursive: true, force: true });
    }
  }
  fs.rmSync(LEGACY.marker, { force: true });
  try {
    log(`code-server ${checkCodeServer()} answers`);
  } catch (error) {
    log(`the moved rig does not run (${error.message.split('\n')[0]}): installing it again`);
    return false;
  }
  fs.writeFileSync(MARKER, JSON.stringify({ ...legacy, movedAt: new Date().toISOString() }, null, 2) + '\n');
  return true;
}

function result(browser) {
  return { nodeBin: NODE_BIN, nodeDir: NODE_DIR, codeServerEntry: CS_ENTRY, browser, rigDir: RIG_DIR, logDir: LOG_DIR };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  prepareRig({ force: process.argv.includes('--force') })
    .then((rig) => {
      log(`ok (${Date.now() - t0} ms): code-server ${CODE_SERVER_VERSION}, ${rig.nodeBin}, browser ${rig.browser}`);
    })
    .catch((e) => {
      console.error(`[rig] FAILED: ${e.message}`);
      process.exit(1);
    });
}
