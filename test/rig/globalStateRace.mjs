#!/usr/bin/env node
// Two windows writing globalState at once, in the real workbench (issue 49 #4): one code-server, one browser context,
// two pages on one profile (two windows, two extension hosts, one IndexedDB), each running the probe extension
// (test/fixtures/globalStateProbe, loaded as a development extension). In each trial both windows write a key of their
// own (A's key, B's key) `offset` ms apart (0-200 ms; which window goes first alternates); once both are acknowledged
// and everything has settled, it reads back what each window reads and what the profile keeps (the page's IndexedDB,
// what a window opened later starts from) and counts the writes lost.
//
//   node test/rig/globalStateRace.mjs                       raw globalState and ReadYourWritesState, 3 trials an offset
//   node test/rig/globalStateRace.mjs --trials 2 --modes ryw
//   node test/rig/globalStateRace.mjs --ryw /path/to/out/src/base/readYourWrites.js   another build of the wrapper
//
// Needs the compiled wrapper (npm run compile: out/src/base/readYourWrites.js) and the rig (npm run rig:prepare).
// Cheap on purpose (the machine is shared): one code-server, one browser, two pages; 6 offsets x trials x modes.
/* global document, indexedDB -- page functions run in the browser (page.evaluate) */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  LOG_DIR,
  REPO_ROOT,
  devPayload,
  freshWorkspace,
  launchBrowser,
  openWorkbench,
  prepareRig,
  startCodeServer,
  waitForWorkbench,
  workbenchUrl,
} from './codeServer.mjs';

const PROBE_DIR = path.join(REPO_ROOT, 'test', 'fixtures', 'globalStateProbe');
const PROBE_ID = 'flowsync-tests.globalstate-probe';
const OFFSETS_MS = [0, 25, 50, 100, 150, 200];
/** How long before the first write its order goes out (both windows must have it in time). */
const LEAD_MS = 600;

const { values: opts } = parseArgs({
  options: {
    trials: { type: 'string', default: '3' },
    modes: { type: 'string', default: 'raw,ryw' },
    ryw: { type: 'string', default: path.join(REPO_ROOT, 'out', 'src', 'base', 'readYourWrites.js') },
    json: { type: 'string' },
  },
});
const trials = Number(opts.trials);
const modes = opts.modes.split(',').filter(Boolean);
if (!(trials >= 1) || modes.some((m) => m !== 'raw' && m !== 'ryw')) {
  console.error('usage: globalStateRace.mjs [--trials N] [--modes raw,ryw] [--ryw path] [--json out.json]');
  process.exit(2);
}
if (!fs.existsSync(opts.ryw)) {
  console.error(`${opts.ryw} is missing: run npm run compile`);
  process.exit(2);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (msg) => console.log(`[globalstate-race] ${msg}`);

/** The harness's side of the probes' long poll: orders queued per window, answers awaited by order number. */
function coordinator() {
  const windows = new Map(); // id -> { queue: order[], waiting?: res }
  const answers = new Map(); // n -> resolve
  const hellos = [];
  let n = 0;
  const deliver = (w) => {
    if (w.waiting && w.queue.length) {
      const res = w.waiting;
      w.waiting = undefined;
      res.end(JSON.stringify(w.queue.shift()));
    }
  };
  const server = http.createServer((req, res) => {
    const id = new URL(req.url, 'http://x').searchParams.get('id');
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const answer = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      let w = windows.get(id);
      if (!w) windows.set(id, (w = { queue: [] }));
      if (answer.hello) hellos.push(id);
      if (answer.order !== undefined) answers.get(answer.order)?.(answer);
      w.waiting?.end(JSON.stringify({ op: 'noop' })); // a poll left over from before
      w.waiting = res;
      deliver(w);
    });
  });
  return {
    listen: () =>
      new Promise((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${server.address().port}`))),
    hellos,
    /** Sends an order to a window; resolves with its answer. */
    order(id, order) {
      const w = windows.get(id);
      const mine = ++n;
      const answered = new Promise((resolve) => answers.set(mine, resolve));
      w.queue.push({ ...order, n: mine });
      deliver(w);
      return answered;
    },
    close() {
      for (const w of windows.values()) w.waiting?.end(JSON.stringify({ op: 'noop' }));
      server.closeAllConnections?.();
      return new Promise((r) => server.close(r));
    },
  };
}

/** What the profile keeps of the probe's globalState: its value in the page's IndexedDB (VS Code's web storage). */
function persisted(page) {
  return page.evaluate(async (extensionId) => {
    const get = (name) =>
      new Promise((resolve) => {
        const open = indexedDB.open(name);
        open.onerror = () => resolve(undefined);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('ItemTable')) return resolve(db.close());
          const read = db.transaction('ItemTable', 'readonly').objectStore('ItemTable').get(extensionId);
          read.onsuccess = () => {
            db.close();
            resolve(read.result);
          };
          read.onerror = () => resolve(db.close());
        };
      });
    for (const { name } of await indexedDB.databases()) {
      if (!name?.startsWith('vscode-web-state-db-global')) continue;
      const raw = await get(name);
      if (typeof raw === 'string') return JSON.parse(raw);
    }
    return undefined;
  }, PROBE_ID);
}

async function main() {
  const t0 = Date.now();
  const rig = await prepareRig();
  const probes = coordinator();
  process.env.FLOWSYNC_PROBE_URL = await probes.listen(); // inherited by code-server's extension hosts
  process.env.FLOWSYNC_PROBE_RYW = path.resolve(opts.ryw);
  const server = await startCodeServer({ rig, name: 'globalstate-race', smokeTestDriver: true, quiet: true });
  const workspace = freshWorkspace('globalstate-race');
  let browser;
  let first;
  const results = [];
  try {
    browser = await launchBrowser(rig);
    const payload = devPayload(server, { extensionDevelopmentPath: PROBE_DIR });
    first = await openWorkbench({ server, browser, folder: workspace, payload, name: 'globalstate-race' });
    // The second window: a page of the same browser context (same profile, same IndexedDB and broadcast channel).
    const page = await first.context.newPage();
    await page.exposeFunction('codeAutomationLog', () => {});
    await page.exposeFunction('codeAutomationExit', () => {});
    await page.goto(workbenchUrl(server, { folder: workspace, payload }), {
      waitUntil: 'domcontentloaded',
      timeout: 120000,
    });
    await waitForWorkbench(page);
    for (const deadline = Date.now() + 60000; probes.hellos.length < 2; await sleep(100)) {
      if (Date.now() > deadline) throw new Error(`${probes.hellos.length} probe(s) started, not 2`);
    }
    const [A, B] = probes.hellos;
    const visibility = await Promise.all([first.page, page].map((p) => p.evaluate(() => document.visibilityState)));
    say(`two windows ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (pages ${visibility.join(', ')})`);
    say(`ReadYourWritesState from ${path.relative(REPO_ROOT, opts.ryw) || opts.ryw}`);

    const readAll = async (keys) => {
      const [a, b] = await Promise.all([probes.order(A, { op: 'read', keys }), probes.order(B, { op: 'read', keys })]);
      return { A: a.read, B: b.read, kept: await persisted(first.page) };
    };
    let n = 0;
    for (const mode of modes) {
      for (let t = 0; t < trials; t++) {
        for (const offset of OFFSETS_MS) {
          n++;
          const keys = { A: `${mode}.A`, B: `${mode}.B` };
          const [early, late] = (n + t) % 2 ? ['A', 'B'] : ['B', 'A'];
          const ids = { A, B };
          const at = Date.now() + LEAD_MS;
          const [e, l] = await Promise.all([
            probes.order(ids[early], { op: 'write', mode, key: keys[early], value: n, at }),
            probes.order(ids[late], { op: 'write', mode, key: keys[late], value: n, at: at + offset }),
          ]);
          if (e.error || l.error) throw new Error(`a write failed: ${e.error ?? l.error}`);
          // Settled: the same reads twice, a second apart, from 1.5 s after the last acknowledgement (at most 8 s).
          await sleep(1500);
          let read = await readAll([keys.A, keys.B]);
          for (let i = 0; i < 6; i++) {
            await sleep(1000);
            const again = await readAll([keys.A, keys.B]);
            const same = JSON.stringify(again) === JSON.stringify(read);
            read = again;
            if (same) break;
          }
          const outcome = {};
          for (const w of ['A', 'B']) {
            const other = w === 'A' ? 'B' : 'A';
            outcome[w] = {
              kept: read.kept?.[keys[w]] === n, // in the profile: what a window opened now reads
              writerReads: read[w][mode][keys[w]] === n,
              otherReads: read[other][mode][keys[w]] === n,
            };
          }
          const wrote = { [early]: e.wroteAt, [late]: l.wroteAt };
          results.push({ n, mode, offset, early, measuredOffset: wrote[late] - wrote[early], outcome });
          const lost = ['A', 'B'].filter((w) => !outcome[w].kept);
          say(
            `#${n} ${mode} offset ${offset} ms (measured ${wrote[late] - wrote[early]} ms, ${early} first): ` +
              (lost.length ? `LOST ${lost.join('+')}` : 'both kept') +
              ['A', 'B']
                .filter((w) => !outcome[w].writerReads || !outcome[w].otherReads)
                .map((w) => {
                  const who = [!outcome[w].writerReads && 'its writer', !outcome[w].otherReads && 'the other window'];
                  return `; ${w}'s write not read by ${who.filter(Boolean).join(' nor ')}`;
                })
                .join(''),
          );
        }
      }
    }
  } finally {
    await first?.close();
    await browser?.close();
    await server.stop();
    await probes.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }

  console.log('\nwrites lost (not in the profile after settling) / writes, by offset:');
  console.log(
    `  ${'mode'.padEnd(5)} ${OFFSETS_MS.map((o) => `${o} ms`.padStart(9)).join('')}      all   writer reads it back`,
  );
  for (const mode of modes) {
    const row = OFFSETS_MS.map((offset) => {
      const rs = results.filter((r) => r.mode === mode && r.offset === offset);
      const lost = rs.reduce((s, r) => s + ['A', 'B'].filter((w) => !r.outcome[w].kept).length, 0);
      return `${lost}/${rs.length * 2}`.padStart(9);
    });
    const rs = results.filter((r) => r.mode === mode);
    const lost = rs.reduce((s, r) => s + ['A', 'B'].filter((w) => !r.outcome[w].kept).length, 0);
    const unread = rs.reduce((s, r) => s + ['A', 'B'].filter((w) => !r.outcome[w].writerReads).length, 0);
    console.log(
      `  ${mode.padEnd(5)} ${row.join('')} ${`${lost}/${rs.length * 2}`.padStart(8)}   ${rs.length * 2 - unread}/${rs.length * 2}`,
    );
  }
  const out =
    opts.json ?? path.join(LOG_DIR, `globalstate-race-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ ryw: opts.ryw, results }, null, 2) + '\n');
  say(
    `${results.length} trials in ${((Date.now() - t0) / 1000).toFixed(1)} s; each trial in ${path.relative(REPO_ROOT, out)}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
