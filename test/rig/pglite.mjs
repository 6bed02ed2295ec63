#!/usr/bin/env node
// The embedded store of team History: PGlite (PostgreSQL compiled to WebAssembly, npm @electric-sql/pglite, a
// devDependency never shipped in the VSIX) served over TCP on loopback, for `npm run demo` and the store tests.
//
//   node test/rig/pglite.mjs try     starts it, opens two connections at once, prints how long each step took, stops
//
// `startPglite()` (imported by scripts/demo.mjs and test/unit/helpers/embeddedServer.ts): one PGlite in memory, a free
// port on 127.0.0.1 (or the one asked for), any user and password accepted (PGlite has one role, `postgres`, a
// superuser), plain TCP only (an SSLRequest is answered "N": the client's `sslmode=disable` is the only one that works).
//
// PGlite is one PostgreSQL backend: one session for every connection. Its own socket server
// (@electric-sql/pglite-socket 0.2.17, --max-connections) interleaves the connections message by message, so with two
// clients pipelining queries one gets the other's rows, or its Bind lands between the other's Parse and Execute
// (measured: 4 postgres.js clients × 1,000 queries, 318 wrong answers and 720 protocol errors). Here the
// connections take turns by whole units of the protocol instead: a connection holds the backend from its first message
// up to its Sync or simple Query, and for as long as it is inside a transaction (PGlite says so); the others queue, in
// order. So each connection sees a PostgreSQL of its own whose transactions run one after another (a transaction left
// open blocks the others until it ends; a connection that closes inside one is rolled back).
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const log = (msg) => console.log(`[pglite] ${msg}`);
const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSS_REQUEST = 80877104;

/** PGlite through require (its CommonJS build): resolved from this checkout's node_modules, or NODE_PATH. */
function loadPglite() {
  const require = createRequire(import.meta.url);
  try {
    return require('@electric-sql/pglite');
  } catch (e) {
    throw new Error(
      `the embedded store needs the devDependency @electric-sql/pglite (npm ci installs it): ${e.message.split('\n')[0]}`,
      { cause: e },
    );
  }
}

/**
 * The first whole message of what a client sent, and the rest: before the startup, an untyped one (length, code); after
 * it, a typed one (a byte, length). Undefined while it is incomplete; throws on what is not the protocol.
 */
function nextMessage(buffer, started) {
  const head = started ? 5 : 4;
  if (buffer.length < head) return undefined;
  const length = started ? 1 + buffer.readInt32BE(1) : buffer.readInt32BE(0);
  if (length < 4 || length > 1 << 30) throw new Error('not the PostgreSQL protocol');
  if (buffer.length < length) return undefined;
  return { message: buffer.subarray(0, length), rest: buffer.subarray(length) };
}

/**
 * Starts the embedded store on `port` (0: a free one; `anyPortIfBusy`: a free one when that one is taken). Returns
 * its port, `url()` (a connection string, sslmode=disable), `connections()` (how many are open) and `stop()`.
 */
export async function startPglite({ port = 0, host = '127.0.0.1', anyPortIfBusy = false } = {}) {
  const timings = {};
  let t = Date.now();
  const { PGlite } = loadPglite();
  const db = await PGlite.create();
  timings.create = Date.now() - t;

  /** The connection that holds the backend (inside a unit or a transaction), and those waiting for it, in order. */
  let holder;
  const waiting = [];
  const clients = new Set();
  let driving = false;

  /** Runs the holder's units while it may keep the backend, then the next waiting connection's; one loop at a time. */
  async function drive() {
    driving = true;
    try {
      for (;;) {
        if (!holder) {
          holder = waiting.shift();
          if (!holder) return;
        }
        const client = holder;
        if (!client.open) {
          // Closed while it held the backend: what it left open is rolled back.
          if (db.isInTransaction()) await db.exec('ROLLBACK');
          holder = undefined;
          continue;
        }
        const unit = client.units.shift();
        if (!unit) {
          // Nothing more from it yet: it keeps the backend inside an unfinished exchange (messages up to a Flush, or
          // part of a unit) or a transaction only.
          if (client.flushed || client.partial.length > 0 || db.isInTransaction()) return;
          holder = undefined;
          continue;
        }
        client.flushed = unit[unit.length - 1][0] === 0x48; // 'H': postgres.js describes first, then binds
        try {
          await db.runExclusive(async () => {
            for (const message of unit) {
              await db.execProtocolRawStream(new Uint8Array(message), {
                onRawData: (data) => {
                  if (client.open && data.length > 0) client.socket.write(Buffer.from(data));
                },
              });
            }
          });
        } catch {
          client.socket.destroy();
          client.open = false;
        }
      }
    } finally {
      driving = false;
    }
  }
  const kick = () => {
    if (!driving) void drive();
  };

  const server = net.createServer((socket) => {
    const client = {
      socket,
      units: [],
      partial: [],
      buffer: Buffer.alloc(0),
      started: false,
      open: true,
      flushed: false,
    };
    clients.add(client);
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      client.buffer = Buffer.concat([client.buffer, chunk]);
      for (;;) {
        let next;
        try {
          next = nextMessage(client.buffer, client.started);
        } catch {
          socket.destroy();
          return;
        }
        if (!next) break;
        const { message } = next;
        client.buffer = next.rest;
        if (!client.started) {
          const code = message.length >= 8 ? message.readInt32BE(4) : 0;
          if (code === SSL_REQUEST || code === GSS_REQUEST) {
            socket.write('N'); // no TLS here: plain TCP on loopback
            continue;
          }
          if (code === CANCEL_REQUEST) {
            socket.end(); // one backend: nothing to cancel
            continue;
          }
          client.started = true; // the StartupMessage: PGlite answers it (authentication ok, parameters, ready)
          client.units.push([message]);
          continue;
        }
        const type = String.fromCharCode(message[0]);
        if (type === 'X') {
          socket.end(); // Terminate: closing rolls back what it left open
          continue;
        }
        client.partial.push(message);
        // A unit ends where PostgreSQL answers: Sync and a simple Query (ReadyForQuery), Flush (what is pending).
        if (type === 'S' || type === 'Q' || type === 'H') {
          client.units.push(client.partial);
          client.partial = [];
        }
      }
      if (client.units.length > 0 && holder !== client && !waiting.includes(client)) waiting.push(client);
      kick();
    });
    const closed = () => {
      if (!client.open && !clients.has(client)) return;
      client.open = false;
      clients.delete(client);
      const at = waiting.indexOf(client);
      if (at >= 0) waiting.splice(at, 1);
      kick();
    };
    socket.on('close', closed);
    socket.on('error', closed);
  });

  t = Date.now();
  const listen = (at) =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen(port).catch((e) => {
      if (e.code === 'EADDRINUSE' && port !== 0 && anyPortIfBusy) return listen(0);
      throw e;
    });
  } catch (e) {
    await db.close();
    throw e;
  }
  timings.listen = Date.now() - t;
  const bound = server.address().port;
  return {
    host,
    port: bound,
    timings,
    /** A connection string (PGlite takes any user and password; its database is the one there is). */
    url() {
      return `postgres://postgres:postgres@${host}:${bound}/postgres?sslmode=disable`;
    },
    /** How many connections are open now. */
    connections() {
      return clients.size;
    },
    async stop() {
      for (const client of clients) client.socket.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}

/** The command line: starts it, two connections at once, stops it. */
async function main(command) {
  if (command !== 'try') {
    console.error('usage: node test/rig/pglite.mjs try');
    process.exitCode = 2;
    return;
  }
  const t = Date.now();
  const store = await startPglite();
  log(`started on ${store.host}:${store.port} in ${Date.now() - t} ms (${JSON.stringify(store.timings)})`);
  const require = createRequire(import.meta.url);
  const postgres = require('postgres');
  const clients = [1, 2].map(() => postgres(store.url(), { max: 1, fetch_types: false, onnotice: () => undefined }));
  const answers = await Promise.all(clients.map((sql, i) => sql`SELECT ${i}::int AS i, pg_backend_pid() AS pid`));
  log(`two connections at once: ${JSON.stringify(answers.map((rows) => rows[0]))}, open ${store.connections()}`);
  await Promise.all(clients.map((sql) => sql.end()));
  await store.stop();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv[2] ?? 'try').catch((e) => {
    console.error(`[pglite] ${e.message}`);
    process.exitCode = 1;
  });
}
