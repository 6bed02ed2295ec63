import { DAY_MS } from '../history/entry';
import { StoreError } from './storeErrors';
import { readRunRow, readSpanRow, type TeamRun, type WatchSpan } from './teamRows';
import { combineRuns } from './outbox';

/*
 * The team's store: the tables of team History in the team's PostgreSQL, versioned, in a schema of their own
 * (flowsync_history), behind SqlPort (the driver is an adapter: src/teamHistory/postgres/). Every statement is a
 * constant text with parameters; nothing is ever put into SQL text.
 *
 * - open(): creates the tables when missing (under an advisory lock, so installations connecting at once do it once),
 *   upgrades older versions, and says whether this installation may write: not when the tables are of a newer version
 *   than this release knows (it reads them as far as it can, and never writes), the role has no privilege to write, or
 *   the server takes no writes.
 * - write(): this installation's own rows only (its observer id), as idempotent upserts, runs and spans in one
 *   statement (one round trip, atomic): writing a row again changes nothing, so a replay doubles nothing.
 * - read(): the team's rows changed since a watermark, a bounded page at a time, texts cut in SQL (a huge text costs the
 *   server, not this window), every row checked (teamRows.ts). The watermark is the transaction of the last change
 *   (xid8): every row of a transaction older than the snapshot's oldest running one has been read, whatever order
 *   transactions committed in; rows of transactions running meanwhile are read again (the merge takes them twice as once).
 * - deleteOwnBefore(): retention, this installation's rows only.
 */

/** One statement's parameter: sent as text (or a boolean), cast in SQL. */
export type SqlValue = string | boolean | null;
export type SqlRow = Readonly<Record<string, unknown>>;

/** What the store needs of a PostgreSQL driver. */
export interface SqlPort {
  /** Runs one statement with its parameters ($1, $2, ...: never interpolated); rejects with a StoreError. */
  query(text: string, params?: readonly SqlValue[]): Promise<readonly SqlRow[]>;
  /** Runs `work` in one transaction (on one connection); rejects with a StoreError. */
  transaction<T>(work: (sql: Pick<SqlPort, 'query'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const SCHEMA = 'flowsync_history';
/** The version of the tables this release writes. */
export const SCHEMA_VERSION = 1;
/** Why this installation reads the store and does not write to it. */
type ReadOnlyReason = 'newerSchema' | 'noWritePrivilege' | 'readOnlyServer';
export interface StoreState {
  readonly version: number;
  readonly readOnly: ReadOnlyReason | undefined;
}

/** Where the last read of a table ended: [transaction, row] of the last row read, and the pass's oldest snapshot. */
export interface Mark {
  readonly tx: string;
  readonly row: string;
  /** While a pass reads page after page: the oldest running transaction when it started. */
  readonly passFloor?: string;
}
export interface Watermark {
  readonly runs: Mark;
  readonly spans: Mark;
}
/** Read everything. */
export const START: Watermark = { runs: { tx: '0', row: '0' }, spans: { tx: '0', row: '0' } };

export interface ReadLimits {
  /** Runs read at most in one read (one page). */
  readonly runs: number;
  readonly spans: number;
}
/** A page of 5,000 runs (about 1 MB at the most each text can be) and 2,000 spans. */
const READ_LIMITS: ReadLimits = { runs: 5_000, spans: 2_000 };
/** Runs written at most in one statement (the outbox's batch). */
export const WRITE_BATCH = 500;

export interface TeamPage {
  readonly runs: TeamRun[];
  readonly spans: WatchSpan[];
  /** Rows refused as impossible (teamRows.ts). */
  readonly refused: number;
  readonly watermark: Watermark;
  /** More rows wait: read again at once (a full page was read). */
  readonly more: boolean;
}

const T = (table: string) => `${SCHEMA}.${table}`;
/** One number for the advisory lock that serialises creating and upgrading the tables ("flowsync" in ASCII). */
const MIGRATION_LOCK = '7380397838211425091';

/** The statements that bring the tables from version i to i + 1 (index i). Each is safe to run again. */
const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`,
    `CREATE TABLE IF NOT EXISTS ${T('meta')} (key text PRIMARY KEY, value text NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${T('runs')} (
      row_id bigint GENERATED ALWAYS AS IDENTITY,
      observer text NOT NULL,
      service text NOT NULL,
      team text NOT NULL,
      sync_id bigint NOT NULL,
      flow_id bigint NOT NULL,
      flow_name text NOT NULL,
      created_at text NOT NULL,
      first_seen bigint NOT NULL,
      last_seen bigint NOT NULL,
      left_at bigint,
      had_errors boolean NOT NULL,
      tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
      PRIMARY KEY (observer, service, sync_id, first_seen))`,
    `CREATE INDEX IF NOT EXISTS runs_by_change ON ${T('runs')} (tx, row_id)`,
    `CREATE TABLE IF NOT EXISTS ${T('spans')} (
      row_id bigint GENERATED ALWAYS AS IDENTITY,
      observer text NOT NULL,
      service text NOT NULL,
      team text NOT NULL,
      from_ms bigint NOT NULL,
      to_ms bigint NOT NULL,
      tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
      PRIMARY KEY (observer, service, team, from_ms))`,
    `CREATE INDEX IF NOT EXISTS spans_by_change ON ${T('spans')} (tx, row_id)`,
  ],
];

const VERSION_OF = `SELECT value FROM ${T('meta')} WHERE key = 'schema_version'`;
const SET_VERSION = `INSERT INTO ${T('meta')} (key, value) VALUES ('schema_version', $1)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value
  WHERE ${T('meta')}.value !~ '^[0-9]{1,9}$' OR ${T('meta')}.value::int < excluded.value::int`;
/** Each privilege on its own: has_table_privilege with several is true when any one is held. */
const MAY_WRITE = `SELECT ${['runs', 'spans']
  .flatMap((table) => ['INSERT', 'UPDATE', 'DELETE'].map((p) => `has_table_privilege('${T(table)}', '${p}')`))
  .join(' AND ')} AS may_write,
  has_schema_privilege('${SCHEMA}', 'USAGE') AS may_use,
  current_setting('transaction_read_only') AS read_only`;

const UPSERT = `WITH
runs AS (
  INSERT INTO ${T('runs')} AS t (observer, service, team, sync_id, flow_id, flow_name, created_at, first_seen, last_seen, left_at, had_errors)
  SELECT $1, x.service, x.team, x.sync_id, x.flow_id, x.flow_name, x.created_at, x.first_seen, x.last_seen, x.left_at, x.had_errors
  FROM jsonb_to_recordset($2::text::jsonb) AS x(service text, team text, sync_id bigint, flow_id bigint, flow_name text,
    created_at text, first_seen bigint, last_seen bigint, left_at bigint, had_errors boolean)
  ON CONFLICT (observer, service, sync_id, first_seen) DO UPDATE SET
    team = excluded.team, flow_id = excluded.flow_id, flow_name = excluded.flow_name, created_at = excluded.created_at,
    last_seen = GREATEST(t.last_seen, excluded.last_seen), left_at = LEAST(t.left_at, excluded.left_at),
    had_errors = t.had_errors OR excluded.had_errors, tx = pg_current_xact_id()
  WHERE (t.team, t.flow_id, t.flow_name, t.created_at, t.last_seen, t.left_at, t.had_errors) IS DISTINCT FROM
    (excluded.team, excluded.flow_id, excluded.flow_name, excluded.created_at, GREATEST(t.last_seen, excluded.last_seen),
     LEAST(t.left_at, excluded.left_at), t.had_errors OR excluded.had_errors)
  RETURNING 1),
spans AS (
  INSERT INTO ${T('spans')} AS t (observer, service, team, from_ms, to_ms)
  SELECT $1, x.service, x.team, x.from_ms, x.to_ms
  FROM jsonb_to_recordset($3::text::jsonb) AS x(service text, team text, from_ms bigint, to_ms bigint)
  ON CONFLICT (observer, service, team, from_ms) DO UPDATE SET to_ms = excluded.to_ms, tx = pg_current_xact_id()
  WHERE excluded.to_ms > t.to_ms
  RETURNING 1)
SELECT (SELECT count(*) FROM runs)::text AS runs, (SELECT count(*) FROM spans)::text AS spans`;

/**
 * A page of changed rows after a mark, with the oldest running transaction of the same snapshot (a row for it even
 * when no row changed). Texts are cut here, so a hostile row's megabytes never leave the server.
 */
const pageOf = (table: string, columns: string) => `SELECT s.floor::text AS snapshot_floor, r.*
FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS floor) s
LEFT JOIN LATERAL (
  SELECT t.tx::text AS tx, t.row_id::text AS row_id, left(t.observer, 65) AS observer, left(t.service, 301) AS service,
    left(t.team, 19) AS team, ${columns}
  FROM ${T(table)} t
  WHERE (t.tx, t.row_id) > ($1::xid8, $2::bigint)
    AND t.service IN (SELECT jsonb_array_elements_text($3::text::jsonb))
    AND ${table === 'runs' ? 'coalesce(t.left_at, t.last_seen)' : 't.to_ms'} >= $4::bigint
  ORDER BY t.tx, t.row_id
  LIMIT $5::int) r ON true`;
const READ_RUNS = pageOf(
  'runs',
  `t.sync_id::text AS sync_id, t.flow_id::text AS flow_id, left(t.flow_name, 480) AS flow_name,
    left(t.created_at, 65) AS created_at, t.first_seen::text AS first_seen, t.last_seen::text AS last_seen,
    t.left_at::text AS left_at, t.had_errors`,
);
const READ_SPANS = pageOf('spans', 't.from_ms::text AS from_ms, t.to_ms::text AS to_ms');

const DELETE_OWN = `WITH
runs AS (DELETE FROM ${T('runs')} WHERE observer = $1 AND coalesce(left_at, last_seen) < $2::bigint RETURNING 1),
spans AS (DELETE FROM ${T('spans')} WHERE observer = $1 AND to_ms < $2::bigint RETURNING 1)
SELECT (SELECT count(*) FROM runs)::text AS runs, (SELECT count(*) FROM spans)::text AS spans`;

/** How long this installation keeps its rows in the store: History's longest keep. */
export const RETENTION_MS = 90 * DAY_MS;

/** Whether the daily retention is due (never run, or a day since it last ran; a clock that went back runs it too). */
export function retentionDue(lastRun: number | undefined, now: number): boolean {
  return lastRun === undefined || now - lastRun >= DAY_MS || now < lastRun;
}

const DIGITS = /^[0-9]{1,20}$/;

export class TeamStore {
  private state: StoreState | undefined;

  /** `observer`: this installation's id (its rows only are written and deleted); `now`: the clock. */
  constructor(
    private readonly sql: SqlPort,
    private readonly observer: string,
    private readonly now: () => number,
  ) {}

  /** What open() found; undefined before it. */
  get opened(): StoreState | undefined {
    return this.state;
  }

  /** Creates or upgrades the tables where needed; says whether this installation may write. */
  async open(): Promise<StoreState> {
    let version = await this.version(this.sql);
    if (version < SCHEMA_VERSION) {
      version = await this.sql.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK]);
        const found = await this.version(tx); // another installation may have done it meanwhile
        for (let v = found; v < SCHEMA_VERSION; v++) for (const statement of MIGRATIONS[v]) await tx.query(statement);
        if (found < SCHEMA_VERSION) await tx.query(SET_VERSION, [String(SCHEMA_VERSION)]);
        return Math.max(found, SCHEMA_VERSION);
      });
    }
    let readOnly: ReadOnlyReason | undefined;
    if (version > SCHEMA_VERSION) readOnly = 'newerSchema';
    else {
      const [row] = await this.sql.query(MAY_WRITE);
      if (row?.read_only === 'on') readOnly = 'readOnlyServer';
      else if (row?.may_write !== true || row?.may_use !== true) readOnly = 'noWritePrivilege';
    }
    this.state = { version, readOnly };
    return this.state;
  }

  /** The version of the tables: 0 when there are none; a value that is not a version counts as a newer one. */
  private async version(sql: Pick<SqlPort, 'query'>): Promise<number> {
    // Looked up first: a failed statement would end the transaction open() creates the tables in.
    const [found] = await sql.query(`SELECT to_regclass('${T('meta')}') IS NOT NULL AS present`);
    if (found?.present !== true) return 0;
    const [row] = await sql.query(VERSION_OF);
    const value = row?.value;
    if (value === undefined) return 0;
    return typeof value === 'string' && /^[0-9]{1,9}$/.test(value) ? Number(value) : Number.MAX_SAFE_INTEGER;
  }

  /**
   * Writes this installation's rows (each combined with any other version of it in the batch), at most WRITE_BATCH
   * runs: one statement. Refused (StoreError 'readOnly') when open() found the store read-only.
   */
  async write(runs: readonly TeamRun[], spans: readonly WatchSpan[]): Promise<{ runs: number; spans: number }> {
    const readOnly = this.state?.readOnly;
    if (readOnly) throw new StoreError(readOnly === 'newerSchema' ? 'newerSchema' : 'readOnly', undefined);
    if (runs.length > WRITE_BATCH) throw new RangeError(`at most ${WRITE_BATCH} runs a write`);
    const byKey = new Map<string, TeamRun>();
    for (const r of runs) {
      const key = `${r.service}\u0000${r.id}\u0000${r.firstSeen}`;
      const other = byKey.get(key);
      byKey.set(key, other ? combineRuns(other, r) : r);
    }
    const spanByKey = new Map<string, WatchSpan>();
    for (const s of spans) {
      const key = `${s.service}\u0000${s.team}\u0000${s.from}`;
      const other = spanByKey.get(key);
      spanByKey.set(key, other && other.to > s.to ? other : s);
    }
    const runRows = [...byKey.values()].map((r) => ({
      service: r.service,
      team: r.team,
      sync_id: r.id,
      flow_id: r.flowId,
      flow_name: r.flowName,
      created_at: r.createdAt,
      first_seen: r.firstSeen,
      last_seen: r.lastSeen,
      left_at: r.leftAt ?? null,
      had_errors: r.hadErrors,
    }));
    const spanRows = [...spanByKey.values()].map((s) => ({
      service: s.service,
      team: s.team,
      from_ms: s.from,
      to_ms: s.to,
    }));
    const [row] = await this.sql.query(UPSERT, [this.observer, JSON.stringify(runRows), JSON.stringify(spanRows)]);
    return { runs: Number(row?.runs ?? 0), spans: Number(row?.spans ?? 0) };
  }

  /**
   * The team's rows of `services` (this installation's among them) changed after `since`, of runs that left (or
   * spans that ended) at `fromMs` or later: one page of each table. A full page says `more`: read again at once. The
   * caller keeps the watermark (and starts again from START when the services or fromMs change).
   */
  async read(
    services: readonly string[],
    since: Watermark,
    fromMs: number,
    limits: ReadLimits = READ_LIMITS,
    hide?: string,
  ): Promise<TeamPage> {
    const now = this.now();
    const list = JSON.stringify(services);
    const from = String(Math.floor(fromMs));
    const runsPage = await this.page(READ_RUNS, since.runs, list, from, limits.runs);
    const spansPage = await this.page(READ_SPANS, since.spans, list, from, limits.spans);
    let refused = 0;
    const runs: TeamRun[] = [];
    for (const row of runsPage.rows) {
      const run = readRunRow(row, now, hide);
      if (run) runs.push(run);
      else refused++;
    }
    const spans: WatchSpan[] = [];
    for (const row of spansPage.rows) {
      const span = readSpanRow(row, now);
      if (span) spans.push(span);
      else refused++;
    }
    return {
      runs,
      spans,
      refused,
      watermark: { runs: runsPage.mark, spans: spansPage.mark },
      more: runsPage.full || spansPage.full,
    };
  }

  private async page(
    statement: string,
    since: Mark,
    services: string,
    from: string,
    limit: number,
  ): Promise<{ rows: SqlRow[]; mark: Mark; full: boolean }> {
    const tx = DIGITS.test(since.tx) ? since.tx : '0';
    const row = DIGITS.test(since.row) ? since.row : '0';
    const result = await this.sql.query(statement, [tx, row, services, from, String(limit)]);
    const floor = result[0]?.snapshot_floor;
    const rows = result.filter((r) => r.row_id !== null && r.row_id !== undefined);
    const passFloor =
      since.passFloor !== undefined && DIGITS.test(since.passFloor)
        ? since.passFloor
        : typeof floor === 'string' && DIGITS.test(floor)
          ? floor
          : tx;
    const full = rows.length >= limit;
    const last = rows[rows.length - 1];
    if (
      full &&
      typeof last?.tx === 'string' &&
      DIGITS.test(last.tx) &&
      typeof last.row_id === 'string' &&
      DIGITS.test(last.row_id)
    ) {
      return { rows, mark: { tx: last.tx, row: last.row_id, passFloor }, full };
    }
    // The pass is read to its end: every row of a transaction older than its first snapshot's oldest running one is read.
    return { rows, mark: { tx: passFloor, row: '0' }, full: false };
  }

  /** Deletes this installation's rows of runs that left (and spans that ended) before `cutoff`. */
  async deleteOwnBefore(cutoff: number): Promise<{ runs: number; spans: number }> {
    const [row] = await this.sql.query(DELETE_OWN, [this.observer, String(Math.floor(cutoff))]);
    return { runs: Number(row?.runs ?? 0), spans: Number(row?.spans ?? 0) };
  }

  /** Deletes every row of this installation (Disconnect Team History, when asked to). */
  deleteOwn(): Promise<{ runs: number; spans: number }> {
    return this.deleteOwnBefore(Number.MAX_SAFE_INTEGER);
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}
