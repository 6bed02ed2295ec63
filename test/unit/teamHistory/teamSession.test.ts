import * as assert from 'node:assert/strict';
import { MAX_FLOW_NAME, makeEntry, type HistoryEntry } from '../../../src/history/entry';
import { TeamSlot, type TeamReader } from '../../../src/history/teamPort';
import { Outbox } from '../../../src/teamHistory/outbox';
import { StoreError } from '../../../src/teamHistory/storeErrors';
import type { TeamEntry } from '../../../src/teamHistory/merge';
import { PAGES_A_STEP, TeamSession, type TeamSessionPorts } from '../../../src/teamHistory/teamSession';
import type { TeamRun, WatchSpan } from '../../../src/teamHistory/teamRows';
import {
  START,
  TeamStore,
  type SqlPort,
  type StoreState,
  type TeamPage,
  type Watermark,
} from '../../../src/teamHistory/teamStore';
import { flowStats } from '../../../src/history/stats';
import { MAX_UNSEEN_MS } from '../../../src/base/plausibleTime';
import { FakeClock } from '../helpers/fakeClock';
import { teamRunAt } from '../helpers/teamRuns';

/*
 * The team History session of one window on the fake clock, over a store in memory that a test makes fail, hang or
 * answer page after page: nothing sleeps.
 */

const SEC = 1000;
const MIN = 60 * SEC;
const DAY = 24 * 60 * MIN;
const SELF = 'self-installation-1';
const ANNA = 'anna-installation-1';
const SERVICE = 'https://flowsync.example.com';

type Store = Pick<TeamStore, 'open' | 'write' | 'read' | 'deleteOwnBefore' | 'close'>;
const YEAR = 365 * DAY;

/** A store in memory: every row written, the team's rows to read, and what each call should do. */
class MemoryStore implements Store {
  readonly written: { runs: TeamRun[]; spans: WatchSpan[] }[] = [];
  readonly reads: Watermark[] = [];
  readonly deletes: number[] = [];
  team: TeamRun[] = [];
  spans: WatchSpan[] = [];
  fail: StoreError | undefined;
  state: StoreState = { version: 1, readOnly: undefined };
  opens = 0;
  /** Every read says more pages wait. */
  endless = false;
  closed = false;

  async open(): Promise<StoreState> {
    this.opens++;
    if (this.fail) throw this.fail;
    return this.state;
  }
  async write(runs: readonly TeamRun[], spans: readonly WatchSpan[]) {
    if (this.fail) throw this.fail;
    this.written.push({ runs: [...runs], spans: [...spans] });
    return { runs: runs.length, spans: spans.length };
  }
  async read(_services: readonly string[], since: Watermark): Promise<TeamPage> {
    this.reads.push(since);
    if (this.fail) throw this.fail;
    const n = this.reads.length;
    return {
      runs: since === START || this.endless ? this.team : [],
      spans: since === START ? this.spans : [],
      refused: 0,
      watermark: { runs: { tx: String(n), row: '0' }, spans: { tx: String(n), row: '0' } },
      more: this.endless,
    };
  }
  async deleteOwnBefore(cutoff: number) {
    if (this.fail) throw this.fail;
    this.deletes.push(cutoff);
    return { runs: 0, spans: 0 };
  }
  async close() {
    this.closed = true;
  }
}

function teamRun(clock: FakeClock, observer: string, id: number, minutesAgo: number): TeamRun {
  return teamRunAt(SERVICE, observer, id, clock.now() - minutesAgo * MIN);
}

function entry(clock: FakeClock, id: number, minutesAgo: number): HistoryEntry {
  const { leftAt, ...run } = teamRun(clock, SELF, id, minutesAgo);
  return makeEntry({ ...run, leftAt: leftAt as number });
}

/** What every reader of History sees: `local` merged with the team's runs, every run (undefined: `local` as it is). */
function mergedOf(slot: TeamSlot, reader: TeamReader, local: readonly HistoryEntry[]): TeamEntry[] | undefined {
  const runs = slot.newestFirst(reader, local);
  if (!runs) return undefined;
  const merged: TeamEntry[] = [];
  for (let next = runs.next(); !next.done; next = runs.next()) merged.push(next.value as TeamEntry);
  return merged;
}

function setUp(options: { outbox?: Outbox; days?: number; store?: (clock: FakeClock) => Store } = {}) {
  const clock = new FakeClock();
  const store = new MemoryStore();
  const used = options.store?.(clock) ?? store;
  const slot = new TeamSlot();
  let local: HistoryEntry[] = [];
  const reader: TeamReader = { service: () => SERVICE, team: () => '', shared: () => true, local: () => local };
  slot.join(reader);
  let retention: number | undefined = clock.now();
  const logs: string[] = [];
  const ports: TeamSessionPorts = {
    store: used,
    observer: SELF,
    clock,
    random: () => 0.5,
    readers: () => slot.readers(),
    retention: { last: () => retention, ran: (at) => (retention = at) },
    pollIntervalMs: () => 30 * SEC,
    historyDays: () => options.days ?? 7,
    label: 'flowsync@db.example.com:5432/history',
    log: (_level, line) => logs.push(line),
    outbox: options.outbox,
  };
  const session = new TeamSession(ports);
  slot.use(session);
  return {
    clock,
    store,
    slot,
    session,
    reader,
    logs,
    setLocal: (entries: HistoryEntry[]) => (local = entries),
    retention: () => retention,
    setRetention: (at: number | undefined) => (retention = at),
  };
}

describe('teamHistory session: one window, one store, on the fake clock', () => {
  it('opens at once, reads the team within 30 s of connecting and hands History the merge', async () => {
    const s = setUp();
    s.store.team = [teamRun(s.clock, ANNA, 41, 5)];
    s.setLocal([entry(s.clock, 40, 3)]);
    let changes = 0;
    s.slot.onDidChange(() => changes++);
    s.session.start();
    assert.equal(s.session.status.kind, 'connecting');
    assert.deepEqual(await Promise.race([s.session.opened, Promise.resolve('not yet')]), 'not yet');
    await s.clock.advance(30 * SEC);
    assert.deepEqual(await s.session.opened, { version: 1, readOnly: undefined });
    assert.equal(s.session.status.kind, 'connected');
    assert.equal(s.store.reads[0], START, 'the first read from the start, within 30 s');
    assert.ok(changes > 0);
    const merged = mergedOf(s.slot, s.reader, [entry(s.clock, 40, 3)]) as TeamEntry[];
    assert.deepEqual(
      merged.map((e) => [e.id, e.seenHere]),
      [
        [40, true],
        [41, false],
      ],
    );
    assert.match(s.session.summary().status, /connected to flowsync@db\.example\.com:5432\/history/);
  });

  it("says when nobody of the team watched the service, from every installation's spans", async () => {
    const s = setUp();
    const now = s.clock.now();
    s.store.spans = [
      { observer: ANNA, service: SERVICE, team: '', from: now - 60 * MIN, to: now - 40 * MIN },
      { observer: SELF, service: SERVICE, team: '', from: now - 30 * MIN, to: now - 10 * MIN },
      { observer: ANNA, service: 'https://other.example.com', team: '', from: now - 40 * MIN, to: now - 30 * MIN },
    ];
    s.session.start();
    await s.clock.advance(SEC);
    assert.deepEqual(s.slot.unwatched(s.reader, now - 60 * MIN, now), [
      { from: now - 40 * MIN, to: now - 30 * MIN, teams: [] },
      { from: now - 10 * MIN, to: now, teams: [] },
    ]);
    assert.equal(s.session.summary().watchedToday, 2);
  });

  it('reads again every poll interval from its watermark', async () => {
    const s = setUp();
    s.session.start();
    await s.clock.advance(SEC);
    assert.equal(s.store.reads.length, 1);
    await s.clock.advance(29 * SEC);
    assert.equal(s.store.reads.length, 2);
    assert.deepEqual(s.store.reads[1], { runs: { tx: '1', row: '0' }, spans: { tx: '1', row: '0' } });
    await s.clock.advance(30 * SEC);
    assert.equal(s.store.reads.length, 3);
  });

  it('a read at the caps costs a bounded amount: at most PAGES_A_STEP pages, then a wait', async () => {
    const s = setUp();
    s.store.endless = true;
    s.session.start();
    await s.clock.advance(1);
    assert.equal(s.store.reads.length, PAGES_A_STEP);
    await s.clock.advance(999);
    assert.equal(s.store.reads.length, 2 * PAGES_A_STEP);
  });

  it('a long pass at the caps tells History of the change at most every 10 s, not after every step', async () => {
    const s = setUp();
    s.store.endless = true;
    s.store.team = [teamRun(s.clock, ANNA, 41, 5)];
    s.session.start();
    await s.clock.advance(1);
    let changes = 0;
    s.slot.onDidChange(() => changes++);
    await s.clock.advance(9 * SEC);
    assert.ok(s.store.reads.length >= 9 * PAGES_A_STEP, 'it reads on');
    assert.ok(changes <= 1, `${changes} changes in 9 s`);
  });

  it('writes what the poller observed in one batch: the runs that left, its watch span, its open runs', async () => {
    const s = setUp();
    s.session.start();
    await s.clock.advance(SEC);
    const left = entry(s.clock, 40, 0);
    const open = {
      id: 42,
      flowId: 7,
      flowName: 'Orders',
      createdAt: 'x',
      firstSeen: s.clock.now() - MIN,
      lastSeen: s.clock.now(),
      hadErrors: false,
    };
    s.slot.observed(s.reader, { at: s.clock.now(), left: [left], open: () => [open] });
    assert.equal(s.store.written.length, 0, 'observing only fills the outbox');
    await s.clock.advance(2 * SEC);
    assert.equal(s.store.written.length, 1, 'one statement');
    const [batch] = s.store.written;
    assert.deepEqual(
      batch.runs.map((r) => [r.observer, r.id, r.leftAt]),
      [
        [SELF, 40, left.leftAt],
        [SELF, 42, undefined],
      ],
    );
    assert.deepEqual(batch.spans, [
      { observer: SELF, service: SERVICE, team: '', from: s.clock.now() - 2 * SEC, to: s.clock.now() - 2 * SEC },
    ]);
    // the next answer extends the span; the open runs wait five minutes
    s.slot.observed(s.reader, { at: s.clock.now(), left: [], open: () => assert.fail('open runs again too soon') });
    await s.clock.advance(2 * SEC);
    assert.deepEqual(
      s.store.written[1].spans.map((x) => x.to - x.from),
      [2 * SEC],
    );
  });

  it('a service whose entry says "teamHistory": false is neither written nor merged', async () => {
    const s = setUp();
    const off: TeamReader = { ...s.reader, shared: () => false };
    s.store.team = [teamRun(s.clock, ANNA, 41, 5)];
    s.session.start();
    await s.clock.advance(SEC);
    s.slot.observed(off, { at: s.clock.now(), left: [entry(s.clock, 40, 0)], open: () => [] });
    await s.clock.advance(5 * SEC);
    assert.equal(s.store.written.length, 0);
    assert.equal(mergedOf(s.slot, off, []), undefined);
  });

  it('the store down: the status says it, retries with backoff and jitter, and then writes everything once', async () => {
    const s = setUp();
    s.store.fail = new StoreError('unreachable', 'ECONNREFUSED');
    s.session.start();
    const opened = await (async () => {
      await s.clock.advance(1);
      return s.session.opened;
    })();
    assert.ok(opened instanceof StoreError);
    assert.equal(s.session.status.kind, 'problem');
    assert.match(s.session.summary().status, /cannot be reached/);
    const before = s.store.opens;
    await s.clock.advance(4 * SEC);
    assert.equal(s.store.opens, before, 'the first retry after 5 s (±20 %)');
    await s.clock.advance(2 * SEC);
    assert.equal(s.store.opens, before + 1);
    s.slot.observed(s.reader, { at: s.clock.now(), left: [entry(s.clock, 40, 0)], open: () => [] });
    s.store.fail = undefined;
    await s.clock.advance(20 * SEC);
    assert.equal(s.session.status.kind, 'connected');
    assert.deepEqual(
      s.logs.filter((l) => /connected to/.test(l)),
      ['team History: connected to flowsync@db.example.com:5432/history'],
      'the log says it once it is back',
    );
    assert.deepEqual(
      s.store.written.flatMap((w) => w.runs.map((r) => r.id)),
      [40],
    );
    await s.clock.advance(10 * MIN);
    assert.deepEqual(
      s.store.written.flatMap((w) => w.runs.map((r) => r.id)),
      [40],
      'nothing doubled',
    );
  });

  it('a refused certificate is never a tight loop: a few attempts in ten minutes', async () => {
    const s = setUp();
    s.store.fail = new StoreError('certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT');
    s.session.start();
    await s.clock.advance(10 * MIN);
    assert.ok(s.store.opens <= 4, `${s.store.opens} attempts`);
    assert.match(s.session.summary().status, /certificate was refused/);
    assert.equal(s.logs.filter((l) => /certificate/.test(l)).length, 1, 'logged once, not on every attempt');
  });

  it('a write that fails keeps the rows waiting; the status recovers by itself', async () => {
    const s = setUp();
    s.session.start();
    await s.clock.advance(SEC);
    s.store.fail = new StoreError('connectionLost', '57P01');
    s.slot.observed(s.reader, { at: s.clock.now(), left: [entry(s.clock, 40, 0)], open: () => [] });
    await s.clock.advance(3 * SEC);
    assert.equal(s.session.status.kind, 'problem');
    assert.equal(s.session.waiting, 2, 'the run and the span wait');
    s.store.fail = undefined;
    await s.clock.advance(MIN);
    assert.equal(s.session.status.kind, 'connected');
    assert.equal(s.session.waiting, 0);
  });

  it('read-only: shows the team, writes nothing, says why', async () => {
    const s = setUp();
    s.store.state = { version: 2, readOnly: 'newerSchema' };
    s.session.start();
    await s.clock.advance(SEC);
    s.slot.observed(s.reader, { at: s.clock.now(), left: [entry(s.clock, 40, 0)], open: () => [] });
    await s.clock.advance(MIN);
    assert.equal(s.store.written.length, 0);
    assert.equal(s.store.deletes.length, 0);
    assert.match(s.session.summary().status, /read-only \(its tables are of a newer version of this extension\)/);
  });

  it('replays the local History when the outbox had to drop runs', async () => {
    const s = setUp({ outbox: new Outbox({ maxRuns: 2, maxSpans: 10 }) });
    const local = [40, 41, 42].map((id, i) => entry(s.clock, id, 10 - i));
    s.setLocal(local);
    s.store.fail = new StoreError('unreachable', 'ECONNREFUSED');
    s.session.start();
    await s.clock.advance(SEC);
    s.slot.observed(s.reader, { at: s.clock.now(), left: local, open: () => [] }); // three runs, room for two
    s.store.fail = undefined;
    await s.clock.advance(MIN);
    const ids = [...new Set(s.store.written.flatMap((w) => w.runs.map((r) => r.id)))].sort();
    assert.deepEqual(
      ids,
      [40, 41, 42],
      'the dropped run offered again from the local History (an upsert: once in the store)',
    );
  });

  it('deletes its own old rows once a day', async () => {
    const s = setUp();
    s.setRetention(undefined);
    s.session.start();
    await s.clock.advance(SEC);
    assert.equal(s.store.deletes.length, 1);
    assert.equal(s.store.deletes[0], s.clock.now() - SEC - 90 * DAY);
    await s.clock.advance(DAY - 2 * SEC);
    assert.equal(s.store.deletes.length, 1);
    await s.clock.advance(MIN);
    assert.equal(s.store.deletes.length, 2);
  });

  it('polling never waits for it: observing while a write hangs returns at once', async () => {
    const s = setUp();
    s.session.start();
    await s.clock.advance(SEC);
    s.store.write = () => new Promise(() => undefined);
    s.slot.observed(s.reader, { at: s.clock.now(), left: [entry(s.clock, 40, 0)], open: () => [] });
    await s.clock.advance(3 * SEC);
    const started = process.hrtime.bigint();
    for (let i = 0; i < 100; i++) {
      s.slot.observed(s.reader, { at: s.clock.now(), left: [entry(s.clock, 100 + i, 0)], open: () => [] });
    }
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 50);
  });

  it('close writes what waits once, then closes the store', async () => {
    const s = setUp();
    s.session.start();
    await s.clock.advance(SEC);
    s.slot.observed(s.reader, { at: s.clock.now(), left: [entry(s.clock, 40, 0)], open: () => [] });
    await s.session.close();
    assert.deepEqual(
      s.store.written.flatMap((w) => w.runs.map((r) => r.id)),
      [40],
    );
    assert.ok(s.store.closed);
  });

  it('a hostile table: impossible rows refused, texts inert and cut, what is learned bounded by the longest run', async () => {
    /** The rows a hostile writer put in the table, as the server returns them (bigints as text). */
    const hostile = (clock: FakeClock) => {
      const now = clock.now();
      const row = (id: number, firstSeen: number, lastSeen: number, leftAt: number | null, extra: object = {}) => ({
        snapshot_floor: '1',
        tx: '1',
        row_id: String(id),
        observer: 'mallory-installation',
        service: SERVICE,
        team: '',
        sync_id: String(id),
        flow_id: '7',
        flow_name: 'Invoices',
        created_at: new Date(firstSeen - 10 * MIN).toISOString(),
        first_seen: String(firstSeen),
        last_seen: String(lastSeen),
        left_at: leftAt === null ? null : String(leftAt),
        had_errors: false,
        ...extra,
      });
      const rows = [
        row(1, now - 10 * YEAR, now - MIN, now), // a run of 10 years
        row(2, now - 10 * MIN, now - 5 * MIN, now - 20 * MIN), // gone before its last sighting
        row(3, now - 20 * MIN, now - 30 * MIN, now), // last seen before first seen
        row(4, now - 20 * MIN, now - MIN, now, { flow_name: `\u202e[click](command:x)<b>${'x'.repeat(1_000_000)}` }),
        // the longest runs a row may claim: 7 days from first seen to gone, created 7 days before it was first seen
        ...[5, 6, 7].map((id) =>
          row(id, now - 7 * DAY + MIN, now - MIN, now, {
            created_at: new Date(now - 14 * DAY + 2 * MIN).toISOString(),
          }),
        ),
      ];
      const sql: SqlPort = {
        query: async (text) => {
          if (text.includes('to_regclass')) return [{ present: true }];
          if (text.includes("key = 'schema_version'")) return [{ value: '1' }];
          if (text.includes('may_write')) return [{ may_write: true, may_use: true, read_only: 'off' }];
          if (text.includes('flow_name') && text.includes('LIMIT')) return rows;
          if (text.includes('LIMIT')) return [{ snapshot_floor: '1', row_id: null }];
          return [{ runs: '0', spans: '0' }];
        },
        transaction: async (work) => work(sql),
        close: async () => undefined,
      };
      return new TeamStore(sql, SELF, () => clock.now());
    };
    const s = setUp({ store: hostile });
    s.session.start();
    await s.clock.advance(SEC);
    const merged = mergedOf(s.slot, s.reader, []) ?? [];
    assert.deepEqual(
      merged.map((e) => e.id).sort(),
      [4, 5, 6, 7],
      'a run of 10 years, or one that ends before it started, is refused',
    );
    const name = merged.find((e) => e.id === 4)!.flowName;
    assert.ok(name.length <= MAX_FLOW_NAME, `${name.length} characters`);
    assert.ok(!/[\u202e<>]|\]\(/.test(name), name);
    const stats = flowStats(merged).get(7)!;
    assert.ok(stats.p95Ms <= MAX_UNSEEN_MS * 2, 'no run it learns from is longer than 14 days');
  });
});
