#!/usr/bin/env node
// A real PostgreSQL for the team History store's tests: one server per test run, on loopback only, in a temporary
// folder, from the machine's Debian `postgresql` package (15 or later), installed here where it is missing.
//
//   node test/rig/postgres.mjs prepare   installs PostgreSQL where initdb is absent (root, Debian: apt-get), else
//                                        returns at once; `npm test` runs it before the unit tests
//   node test/rig/postgres.mjs try       starts a server, prints how long each step took, stops it
//
// `startPostgres()` (imported by test/unit/teamHistory/pgServer.ts): initdb as the `postgres` user when run as root
// (initdb refuses root) into a fresh folder under the system's temporary folder, a free port on 127.0.0.1, a unix
// socket in that folder (nothing under /var/run), no fsync (a test server); a superuser with a password drawn per
// run, a database `flowsync`, TLS with a self-signed certificate for localhost (plain TCP too), and two login roles: `fs_owner` (owns the database: may create the schema) and
// `fs_reader` (may only connect: a test grants it SELECT). `stop()` stops the server and deletes the folder; a process
// that exits without calling it stops the server and deletes the folder on its way out.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const log = (msg) => console.log(`[postgres] ${msg}`);
/** The oldest major version the store is tested against (the "PostgreSQL 15"). */
const MIN_MAJOR = 15;
const DEBIAN_PACKAGE = 'postgresql-15';

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function onPath(cmd) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, cmd);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The folder of initdb, pg_ctl and postgres: $PG_BIN, else Debian's newest /usr/lib/postgresql/N/bin (N >= 15), else PATH. */
export function findPostgresBin() {
  if (process.env.PG_BIN)
    return fs.existsSync(path.join(process.env.PG_BIN, 'initdb')) ? process.env.PG_BIN : undefined;
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => /^\d+$/.test(v) && Number(v) >= MIN_MAJOR)
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const major of majors) {
    const bin = path.join(root, major, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  const initdb = onPath('initdb');
  return initdb ? path.dirname(fs.realpathSync(initdb)) : undefined;
}

/** Runs a command to its end, its output kept; rejects with the output's last lines when it fails. */
function run(cmd, args, { env, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(out)
        : reject(
            new Error(
              `${path.basename(cmd)} ${args[0] ?? ''} failed (${code}): ${out.trim().split('\n').slice(-8).join('\n')}`,
            ),
          ),
    );
  });
}

/**
 * apt-get, waiting its turn: `npm test` prepares the code-server rig (which may apt-get Chromium) beside the unit tests,
 * and apt takes one lock at a time. Waits for dpkg's lock itself, and tries again (every 5 s, 10 min at most) while
 * another apt holds the lists' lock.
 */
async function aptGet(args, env) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], { env });
    } catch (e) {
      if (attempt >= 120 || !/Could not get lock|Unable to lock/i.test(e.message)) throw e;
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
  }
}

/**
 * Makes sure PostgreSQL's server programs are on this machine: where initdb is absent, installs Debian's
 * postgresql-15 (root and apt-get only; without creating or starting the package's own cluster). Returns the bin folder.
 */
export async function preparePostgres() {
  const found = findPostgresBin();
  if (found) return found;
  if (!isRoot() || !onPath('apt-get')) {
    throw new Error(
      `PostgreSQL ${MIN_MAJOR} is not installed and cannot be installed here (needs root and apt-get). ` +
        `Install it (Debian: apt-get install -y ${DEBIAN_PACKAGE}) or set PG_BIN to the folder of its initdb.`,
    );
  }
  // The tests start their own server: the package's cluster "main" on port 5432 is neither created nor started.
  fs.mkdirSync('/etc/postgresql-common/createcluster.d', { recursive: true });
  fs.writeFileSync('/etc/postgresql-common/createcluster.d/flowsync-tests.conf', 'create_main_cluster = false\n');
  const started = Date.now();
  log(`apt-get install ${DEBIAN_PACKAGE} (initdb not found)`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  await aptGet(['update'], env);
  await aptGet(['install', '-y', '--no-install-recommends', DEBIAN_PACKAGE], env);
  log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
  const bin = findPostgresBin();
  if (!bin) throw new Error(`${DEBIAN_PACKAGE} was installed but its initdb was not found`);
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const password = () => randomBytes(18).toString('base64url');

/** The folders and servers this process started, stopped and deleted when it exits without stopping them itself. */
const running = new Set();
let exitHookInstalled = false;
function stopAllNow() {
  for (const server of running) server.stopNow();
}
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', stopAllNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      stopAllNow();
      process.kill(process.pid, signal);
    });
  }
}

/**
 * Starts a PostgreSQL server for one test run. Returns its port, the three roles' connection strings (`url(role)`:
 * admin, owner, reader), and stop/restart.
 */
export async function startPostgres() {
  const timings = {};
  let t = Date.now();
  const bin = await preparePostgres();
  const asPostgres = isRoot();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  if (asPostgres) spawnSync('chown', ['postgres:postgres', dir]);
  /** Runs a server program as the postgres user when this process is root (initdb and postgres refuse root). */
  const pg = (program, args) =>
    asPostgres
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args], { cwd: dir })
      : run(path.join(bin, program), args, { cwd: dir });
  const secrets = { admin: password(), owner: password(), reader: password() };
  const pwfile = path.join(dir, 'pw');
  fs.writeFileSync(pwfile, secrets.admin, { mode: 0o600 });
  if (asPostgres) spawnSync('chown', ['postgres:postgres', pwfile]);
  await pg('initdb', [
    '-D',
    data,
    '-U',
    'fs_admin',
    `--pwfile=${pwfile}`,
    '--auth-local=scram-sha-256',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--no-locale',
    '--no-sync',
    '--no-instructions',
  ]);
  fs.rmSync(pwfile);
  timings.initdb = Date.now() - t;
  // A self-signed certificate for "localhost": clients that ask for TLS get it (sslmode=require works, verify-full
  // refuses it as unverified); the others stay plain.
  t = Date.now();
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost',
    '-keyout',
    path.join(data, 'server.key'),
    '-out',
    path.join(data, 'server.crt'),
  ]);
  fs.chmodSync(path.join(data, 'server.key'), 0o600);
  if (asPostgres)
    spawnSync('chown', ['postgres:postgres', path.join(data, 'server.key'), path.join(data, 'server.crt')]);
  timings.certificate = Date.now() - t;
  const port = await freePort();
  fs.appendFileSync(
    path.join(data, 'postgresql.conf'),
    [
      '',
      '# flowsync test server: loopback only, no durability',
      "listen_addresses = '127.0.0.1'",
      `port = ${port}`,
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'shared_buffers = 16MB',
      'max_connections = 40',
      'ssl = on',
      '',
    ].join('\n'),
  );
  const ctl = (...args) => pg('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '60', ...args]);
  t = Date.now();
  await ctl('start');
  timings.start = Date.now() - t;
  const server = {
    dir,
    port,
    host: '127.0.0.1',
    timings,
    /** The server's self-signed certificate (for localhost): a client that trusts it can verify the server. */
    certificate: path.join(data, 'server.crt'),
    users: { admin: 'fs_admin', owner: 'fs_owner', reader: 'fs_reader' },
    /** A connection string of one of the roles (admin: the superuser, on the database `flowsync`). */
    url(role = 'owner', database = 'flowsync', { host = '127.0.0.1', sslmode = 'disable' } = {}) {
      const user = server.users[role];
      return `postgres://${user}:${encodeURIComponent(secrets[role])}@${host}:${port}/${database}?sslmode=${sslmode}`;
    },
    password(role) {
      return secrets[role];
    },
    /** Stops the server (fast: open connections are cut) and starts it again on the same port. */
    async stopServer() {
      await ctl('stop', '-m', 'fast');
    },
    async startServer() {
      await ctl('start');
    },
    async stop() {
      running.delete(server);
      try {
        await ctl('stop', '-m', 'fast');
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
    /** Synchronous, for process exit: stops the server at once and deletes its folder. */
    stopNow() {
      running.delete(server);
      const args = [path.join(bin, 'pg_ctl'), '-D', data, 'stop', '-m', 'immediate', '-w'];
      if (asPostgres) spawnSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'ignore', cwd: dir });
      else spawnSync(args[0], args.slice(1), { stdio: 'ignore', cwd: dir });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(server);
  installExitHook();
  // The roles and the database, through psql as the superuser over the unix socket in the folder.
  t = Date.now();
  const psql = (database, sql) =>
    run(
      path.join(bin, 'psql'),
      ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', dir, '-p', String(port), '-U', 'fs_admin', '-d', database, '-c', sql],
      {
        env: { PGPASSWORD: secrets.admin },
      },
    );
  await psql(
    'postgres',
    `CREATE ROLE fs_owner LOGIN PASSWORD '${secrets.owner}'; CREATE ROLE fs_reader LOGIN PASSWORD '${secrets.reader}';`,
  );
  await psql('postgres', 'CREATE DATABASE flowsync OWNER fs_owner');
  // PostgreSQL 15 no longer lets every role create in the public schema; the store makes its own schema anyway.
  await psql(
    'flowsync',
    'REVOKE ALL ON DATABASE flowsync FROM PUBLIC; GRANT CONNECT ON DATABASE flowsync TO fs_reader;',
  );
  timings.roles = Date.now() - t;
  return server;
}

/** The command line (no top-level await: the unit tests require() this module). */
async function main(command) {
  if (command === 'prepare') {
    const bin = await preparePostgres();
    log(`server programs in ${bin}`);
  } else if (command === 'try') {
    const t = Date.now();
    const server = await startPostgres();
    log(`started on 127.0.0.1:${server.port} in ${Date.now() - t} ms (${JSON.stringify(server.timings)})`);
    const s = Date.now();
    await server.stop();
    log(`stopped and deleted in ${Date.now() - s} ms`);
  } else {
    console.error('usage: node test/rig/postgres.mjs [prepare|try]');
    process.exitCode = 2;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv[2] ?? 'prepare').catch((e) => {
    console.error(`[postgres] ${e.message}`);
    process.exitCode = 1;
  });
}
