#!/usr/bin/env node
// Team History (issue #51, out/src/teamHistory/*.js): what a window pays for the team's runs.
//   - the merged History at the caps: 20 services × 50,000 runs (HISTORY_CAP) each, every run seen by 20 observers
//     (one of them this window): the team's rows read into one TeamRuns per service (1,000,000 sightings each), the
//     heap they hold, and the first rows: the newest 200 runs of every service merged with this window's own History
//     (mergeNewest), then the History view's day groups of the newest 200 of all (what it draws first); and every run
//     of every service merged (mergeHistory: what stats, Export and the tools read);
//   - the same in the product path (bench/lib/teamHistoryProduct.mjs): each service's HistoryCore joined to a
//     TeamSlot; from a change of the team's runs to the first rows the History view gets, the host's tasks that merge
//     every run after them, the heap;
//   - replay after an hour offline: what 20 services' runs of an hour (10,000 syncs a day each) and their spans leave
//     in the outbox, written to the store batch by batch (Outbox.take, TeamStore.write, Outbox.sent);
//   - a poll with runs leaving: the write of one outbox batch (5 runs and a span): its CPU time on this thread and its
//     round trips, counted by a loopback proxy between the driver and the server (test/unit/helpers/roundTrips.ts).
// The store: the real PostgreSQL of test/rig/postgres.mjs (initdb must be there: `node test/rig/postgres.mjs
// prepare`), else the embedded one (test/rig/pglite.mjs); the rows say which.
//   node --expose-gc bench/teamHistory.mjs [--runs 3] [--services 20] [--store real|embedded]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { emitRows, ms, outModule, outTestHelper, progress, row, threadCpuMs, threadCpuSource } from './lib/common.mjs';
import { productPath } from './lib/teamHistoryProduct.mjs';

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    services: { type: 'string', default: '20' },
    store: { type: 'string' },
  },
});
const RUNS = Number(opts.runs);
const SERVICES = Number(opts.services);
const say = (m) => progress('teamHistory', m);
const { TeamRuns, mergeHistory, mergeNewest } = outModule('teamHistory/merge.js');
const { Outbox } = outModule('teamHistory/outbox.js');
const { TeamStore, WRITE_BATCH } = outModule('teamHistory/teamStore.js');
const { postgresSql } = outModule('teamHistory/postgres/postgresSql.js');
const { parseConnectionString } = outModule('teamHistory/connectionString.js');
const history = outModule('history/index.js');
const { HISTORY_CAP } = outModule('history/store.js');
const { mulberry32 } = outModule('mock/data.js');
/** The store tests' loopback proxy that counts round trips (test/unit/helpers/roundTrips.ts). */
const { countRoundTrips } = outTestHelper('roundTrips.js');

const NOW = Date.UTC(2026, 10, 22, 12);
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const POLL = 15_000;
const OBSERVERS = 20;
const SELF = 'observer-00-bench-window';
const observers = Array.from({ length: OBSERVERS }, (_, i) =>
  i === 0 ? SELF : `observer-${String(i).padStart(2, '0')}-bench-window`,
);
const rows = [];
const cpuNow = threadCpuSource()
  ? threadCpuMs
  : () => {
      const c = process.cpuUsage();
      return (c.user + c.system) / 1000;
    };
const cpuNote = `CPU time: this thread's (${threadCpuSource() ?? "not readable here: the whole process's, process.cpuUsage()"})`;
/** The JS heap and the typed arrays' buffers (outside the heap: TeamRuns keeps its runs in them), after gc. */
const heapMb = () => {
  globalThis.gc?.();
  globalThis.gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 1048576;
};

// ------------------------------------------------------------ the merged History at the caps
/** The runs of one service: HISTORY_CAP of them over the last days, newest first (as History keeps them). */
function runsOf(service) {
  const random = mulberry32(11 + service);
  const perDay = 10_000;
  return Array.from({ length: HISTORY_CAP }, (_, i) => {
    const left = NOW - Math.floor((i * DAY) / perDay);
    const flowId = 1 + Math.floor(random() ** 2 * 200);
    const created = left - Math.round((0.5 + random() * random() * 60) * MIN);
    return {
      id: 50_000_000 - i,
      flowId,
      flowName: `Flow ${flowId} · ${['Invoices', 'Payroll', 'CRM sync', 'Mailing'][flowId % 4]}`,
      createdAt: new Date(created).toISOString(),
      firstSeen: created + Math.round(random() * POLL),
      left,
    };
  });
}
/** Observer k's sighting of a run: its polls `k` seconds later than the first observer's. */
const sighting = (r, k) => ({
  observer: observers[k],
  id: r.id,
  flowId: r.flowId,
  flowName: r.flowName,
  createdAt: r.createdAt,
  firstSeen: Math.min(r.left - POLL + k * 1000, r.firstSeen + k * 1000),
  lastSeen: r.left - POLL + k * 1000,
  leftAt: r.left + k * 1000,
  hadErrors: false,
});

say(`${SERVICES} services × ${HISTORY_CAP.toLocaleString('en-US')} runs × ${OBSERVERS} observers`);
const base = heapMb();
const teams = [];
const readMs = [];
for (let s = 0; s < SERVICES; s++) {
  const runs = runsOf(s);
  const team = new TeamRuns(SELF);
  const t0 = performance.now();
  for (let k = 0; k < OBSERVERS; k++) for (const r of runs) team.add(sighting(r, k));
  readMs.push(ms(t0));
  if (team.size !== HISTORY_CAP) throw new Error(`service ${s}: ${team.size} runs merged, expected ${HISTORY_CAP}`);
  teams.push(team);
  if (s === 0)
    say(`service 1: ${readMs[0].toFixed(0)} ms to merge ${(HISTORY_CAP * OBSERVERS).toLocaleString('en-US')} rows`);
}
const teamMb = heapMb() - base;
/** This window's own History of each service: its sightings (observer 0), as entries. */
const locals = [];
for (let s = 0; s < SERVICES; s++) locals.push(runsOf(s).map((r) => history.makeEntry(sighting(r, 0))));
const withLocal = heapMb() - base;
const note = `${SERVICES} services × ${HISTORY_CAP.toLocaleString('en-US')} runs (HISTORY_CAP), each seen by ${OBSERVERS} observers (polls 1 s apart), this window one of them; heap (JS heap + array buffers) after gc`;
rows.push(
  row('teamHistory', `team runs read into TeamRuns: ${HISTORY_CAP * OBSERVERS} rows of one service`, 'ms', readMs, {
    note,
  }),
);
rows.push(
  row('teamHistory', `heap held by the team's runs (${SERVICES} TeamRuns at the caps)`, 'MB', [teamMb], {
    target: { max: 100, text: '≤ 100 MB' },
  }),
);
rows.push(row('teamHistory', `heap held by the team's runs, per service`, 'MB', [teamMb / SERVICES]));
rows.push(row('teamHistory', `heap: the team's runs and this window's History together`, 'MB', [withLocal]));

say('first rows: the newest page of every service (mergeNewest), then the day groups; then every run');
/** The History view's first page: the newest rows of all services together. */
const PAGE = 200;
const firstRows = [];
const firstRowsCpu = [];
const oneService = [];
const everyRun = [];
let page;
let merged;
/** What the team's runs and this window's History hold after the first rows (each service's order and local index kept). */
let settledMb = 0;
for (let i = 0; i < RUNS; i++) {
  // First rows: each service's newest PAGE (the newest PAGE of all are among them), the newest PAGE of those, grouped
  // by day. The first run after the reads includes sorting each service's runs (once per change).
  globalThis.gc?.();
  const c0 = cpuNow();
  let t0 = performance.now();
  const newest = [];
  for (let s = 0; s < SERVICES; s++) newest.push(...mergeNewest(locals[s], teams[s], PAGE));
  page = newest.sort(history.compareNewestFirst).slice(0, PAGE);
  history.historyGroups(page, NOW);
  firstRows.push(ms(t0));
  firstRowsCpu.push(cpuNow() - c0);
  if (i === 0) settledMb = heapMb() - base;
  globalThis.gc?.();
  t0 = performance.now();
  mergeHistory(locals[0], teams[0]);
  oneService.push(ms(t0));
  globalThis.gc?.();
  t0 = performance.now();
  merged = [];
  for (let s = 0; s < SERVICES; s++) merged.push(...mergeHistory(locals[s], teams[s]).entries);
  merged.sort(history.compareNewestFirst);
  everyRun.push(ms(t0));
}
if (merged.length !== SERVICES * HISTORY_CAP) throw new Error(`merged ${merged.length} runs`);
const sameHead = page.every((e, k) => history.compareNewestFirst(e, merged[k]) === 0);
if (!sameHead || page.length !== PAGE) throw new Error('the first page is not the head of every run merged');
rows.push(
  row(
    'teamHistory',
    `first rows: the newest ${PAGE} of ${SERVICES} services (mergeNewest) + day groups`,
    'ms',
    firstRows,
    {
      target: { max: 300, text: '≤ 300 ms' },
      note: "all samples; the first includes ordering each service's runs and indexing each local History once",
    },
  ),
);
rows.push(
  row('teamHistory', 'first rows, the first time after the reads (each order and index made)', 'ms', [firstRows[0]], {
    target: { max: 300, text: '≤ 300 ms' },
  }),
);
rows.push(row('teamHistory', 'first rows, again (the orders and indexes kept)', 'ms', firstRows.slice(1)));
rows.push(
  row('teamHistory', 'first rows: CPU time of this thread, each sample', 'ms', firstRowsCpu, { note: cpuNote }),
);
rows.push(
  row('teamHistory', 'heap: the same after the first rows (with the orders and indexes they keep)', 'MB', [settledMb]),
);
rows.push(
  row('teamHistory', 'mergeHistory of one service, every run (50,000 local, 50,000 team runs)', 'ms', oneService),
);
rows.push(row('teamHistory', `mergeHistory of ${SERVICES} services, every run (stats, Export, tools)`, 'ms', everyRun));
merged.length = 0;
const newestRuns = teams.map((_, s) => runsOf(s)[0]);
say('the product path: HistoryCore of each service, joined to a TeamSlot (bench/lib/teamHistoryProduct.mjs)');
rows.push(
  ...(await productPath({
    teams,
    locals,
    now: NOW,
    heapMb,
    cpuNow,
    runs: RUNS,
    say,
    section: 'teamHistory',
    laterSighting: (s, n) => {
      const r = newestRuns[s];
      const lastSeen = r.left - POLL + OBSERVERS * 1000 + n;
      return { ...sighting(r, 1), lastSeen, leftAt: lastSeen + 1000 };
    },
  })),
);
teams.length = 0;
locals.length = 0;
merged.length = 0;

// ------------------------------------------------------------ the store: replay, and one poll's write
async function startStore() {
  if (opts.store !== 'embedded') {
    try {
      const { startPostgres, findPostgresBin } = await import('../test/rig/postgres.mjs');
      if (findPostgresBin() || opts.store === 'real') {
        const pg = await startPostgres();
        return { kind: 'real PostgreSQL 15 (test/rig/postgres.mjs)', url: pg.url('owner'), stop: () => pg.stop() };
      }
    } catch (e) {
      if (opts.store === 'real') throw e;
      say(`no real PostgreSQL (${e.message.split('\n')[0]}): the embedded store`);
    }
  }
  const { startPglite } = await import('../test/rig/pglite.mjs');
  const store = await startPglite();
  return { kind: 'embedded PGlite (test/rig/pglite.mjs)', url: store.url(), stop: () => store.stop() };
}

const store = await startStore();
say(`store: ${store.kind}`);
const target = parseConnectionString(store.url).target;
const proxy = await countRoundTrips(target.port);
const sql = postgresSql({ ...target, port: proxy.port });
try {
  const writer = new TeamStore(sql, SELF, () => NOW);
  await writer.open();
  // An hour offline: 20 services × 10,000 syncs a day → ~417 runs an hour each, and each service's span.
  const perHour = Math.round(10_000 / 24);
  let serial = 0;
  /** This window's row of a run of `service` that left at `left`. */
  const teamRun = (service, id, left, flowId, hadErrors = false) => ({
    observer: SELF,
    service: `https://service-${service}.example.com`,
    team: '',
    id,
    flowId,
    flowName: `Flow ${flowId} · Invoices`,
    createdAt: new Date(left - 10 * MIN).toISOString(),
    firstSeen: left - 9 * MIN,
    lastSeen: left - POLL,
    leftAt: left,
    hadErrors,
  });
  const hourOf = (svc) =>
    Array.from({ length: perHour }, (_, i) =>
      teamRun(svc, 70_000_000 + ++serial, NOW - Math.floor((i * 3_600_000) / perHour), 1 + (i % 200), i % 17 === 0),
    );
  say(`replay after an hour offline: ${SERVICES} services × ${perHour} runs`);
  const replay = [];
  const replayCpu = [];
  let replayTrips = 0;
  let written = 0;
  for (let i = 0; i < RUNS; i++) {
    const outbox = new Outbox();
    for (let svc = 0; svc < SERVICES; svc++) {
      for (const r of hourOf(svc)) outbox.addRun(r);
      outbox.addSpan({
        observer: SELF,
        service: `https://service-${svc}.example.com`,
        team: '',
        from: NOW - 3_600_000 - i,
        to: NOW,
      });
    }
    written = outbox.size;
    globalThis.gc?.();
    const trips0 = proxy.trips();
    const c0 = cpuNow();
    const t0 = performance.now();
    while (outbox.size) {
      const batch = outbox.take(WRITE_BATCH);
      await writer.write(batch.runs, batch.spans);
      outbox.sent(batch);
    }
    replay.push(ms(t0));
    replayCpu.push(cpuNow() - c0);
    replayTrips = proxy.trips() - trips0;
  }
  const storeNote = `against the ${store.kind}, through a loopback proxy that counts round trips; ${cpuNote}`;
  rows.push(
    row(
      'teamHistory',
      `replay after an hour offline (${written.toLocaleString('en-US')} rows): wall time`,
      'ms',
      replay,
      {
        target: { max: 5000, text: '≤ 5 s' },
        note: storeNote,
      },
    ),
  );
  rows.push(row('teamHistory', 'replay after an hour offline: CPU time', 'ms', replayCpu));
  rows.push(row('teamHistory', 'replay after an hour offline: round trips', '', [replayTrips]));

  say('a poll with runs leaving: one outbox batch (5 runs and the span) written');
  const POLLS = 20;
  const pollCpu = [];
  const pollWall = [];
  const trips = [];
  const outbox = new Outbox();
  const poll = async (p) => {
    for (let k = 0; k < 5; k++) outbox.addRun(teamRun(0, 80_000_000 + p * 5 + k, NOW - 600_000 + p * POLL, 7));
    outbox.addSpan({
      observer: SELF,
      service: 'https://service-0.example.com',
      team: '',
      from: NOW - DAY,
      to: NOW - 600_000 + p * POLL,
    });
    const batch = outbox.take(WRITE_BATCH);
    await writer.write(batch.runs, batch.spans);
    outbox.sent(batch);
  };
  await poll(-1); // the statement is prepared on the connection's first write
  for (let i = 0; i < RUNS; i++) {
    globalThis.gc?.();
    const trips0 = proxy.trips();
    const c0 = cpuNow();
    const t0 = performance.now();
    for (let p = 0; p < POLLS; p++) await poll(i * POLLS + p);
    pollWall.push(ms(t0) / POLLS);
    pollCpu.push((cpuNow() - c0) / POLLS);
    trips.push((proxy.trips() - trips0) / POLLS);
  }
  rows.push(
    row('teamHistory', 'a poll with runs leaving: round trips of its write', '', trips, {
      target: { max: 1, text: '≤ 1' },
      note: `${POLLS} polls per sample, each 5 runs and its span; ${storeNote}`,
    }),
  );
  rows.push(
    row('teamHistory', 'a poll with runs leaving: CPU time of its write', 'ms', pollCpu, {
      target: { max: 2, text: '≤ 2 ms' },
    }),
  );
  rows.push(row('teamHistory', 'a poll with runs leaving: wall time of its write', 'ms', pollWall));
} finally {
  await sql.close();
  await proxy.close();
  await store.stop();
}
emitRows(rows);
