/**
 * Seeded, deterministic data for the Flow Sync mock API.
 *
 * Everything derives from the seed (and, for processing flow syncs, from the clock), never from Math.random,
 * so a test or a benchmark sees the same data on every run.
 */

export interface Team {
  id: number;
  name: string;
}

export interface Connection {
  id: number;
  name: string;
  type: string;
  team_id: number;
  team: Team;
  user_id: number;
  created_at: string;
  updated_at: string;
  meta: Record<string, unknown>;
  /** Not in the API document: a harmless extra field, so clients prove they keep unknown fields. */
  status: 'active' | 'paused';
}

/** A flow as the generator models it; the API only ever shows `{ id, name }` of it. */
export interface Flow {
  id: number;
  name: string;
  team_id: number;
}

export interface FlowSync {
  id: number;
  flow_id: number;
  status: string;
  created_at: string;
  updated_at: string;
  errors: unknown;
  webhook: boolean;
  flow: { id: number; name: string };
}

export interface MockDataOptions {
  seed?: number;
  teams?: number;
  connections?: number;
  flows?: number;
  /** About how many flow syncs are processing at any moment. */
  processing?: number;
}

export const DEFAULT_DATA_OPTIONS: Required<MockDataOptions> = { seed: 1, teams: 5, connections: 36, flows: 8, processing: 7 };

/** mulberry32: a tiny, fast PRNG with good enough statistics for fake data. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Hashes a few integers into one 32-bit seed, so any (seed, lane, window) gets its own random stream. */
export function mixSeed(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
  }
  return h >>> 0;
}

type Random = () => number;

/** Integer in [min, max], both inclusive. */
function intBetween(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** Ids grow with small irregular gaps, so clients cannot get away with assuming contiguous ids. */
function idSequence(random: Random, first: number): () => number {
  let next = first;
  return () => {
    const id = next;
    next += random() < 0.15 ? intBetween(random, 2, 9) : 1;
    return id;
  };
}

// ---------------------------------------------------------------- teams

const TEAM_NAMES = ['Platform', 'Billing', 'Growth', 'Data', 'Support', 'Security', 'Mobile', 'Marketing', 'Finance', 'Operations', 'Sales', 'Partnerships'];

function generateTeams(random: Random, count: number): Team[] {
  const nextId = idSequence(random, 1);
  return Array.from({ length: count }, (_, index) => {
    const round = Math.floor(index / TEAM_NAMES.length);
    const base = TEAM_NAMES[index % TEAM_NAMES.length];
    return { id: nextId(), name: round === 0 ? base : `${base} ${round + 1}` };
  });
}

// ---------------------------------------------------------------- connections

interface ConnectionKind {
  type: string;
  suffix: string;
  labels: readonly string[];
  meta: (label: string, random: Random) => Record<string, unknown>;
}

const slug = (label: string) => label.toLowerCase().replace(/[^a-z0-9]+/g, '-');

const CONNECTION_KINDS: readonly ConnectionKind[] = [
  { type: 'pdf', suffix: 'PDF', labels: ['Invoices', 'Contracts', 'Receipts', 'Statements', 'Purchase Orders'], meta: (label, r) => ({ folder: `/${slug(label)}`, ocr: r() < 0.5 }) },
  { type: 'slack', suffix: 'Slack', labels: ['Sales', 'Support', 'Alerts', 'Engineering', 'Ops'], meta: (label) => ({ channel: `#${slug(label)}`, workspace: 'acme' }) },
  { type: 'postgres', suffix: 'Postgres', labels: ['Orders', 'Analytics', 'Users', 'Ledger'], meta: (label, r) => ({ host: `db-${intBetween(r, 1, 6)}.internal`, database: slug(label), ssl: true }) },
  { type: 'salesforce', suffix: 'Salesforce', labels: ['Leads', 'Accounts', 'Opportunities'], meta: () => ({ instance_url: 'https://acme.my.salesforce.com', api_version: '59.0' }) },
  { type: 'http', suffix: 'Webhook', labels: ['Partner', 'Status Page', 'Fulfilment', 'Payments'], meta: (label) => ({ url: `https://hooks.example.com/${slug(label)}`, method: 'POST' }) },
  { type: 's3', suffix: 'S3', labels: ['Exports', 'Backups', 'Raw Events', 'Reports'], meta: (label, r) => ({ bucket: `acme-${slug(label)}`, region: pick(r, ['eu-west-1', 'us-east-1']) }) },
  { type: 'gmail', suffix: 'Gmail', labels: ['Support Inbox', 'Billing Inbox', 'Founders'], meta: (label) => ({ mailbox: `${slug(label)}@acme.example` }) },
  { type: 'hubspot', suffix: 'HubSpot', labels: ['Marketing', 'Contacts', 'Deals'], meta: (_label, r) => ({ portal_id: intBetween(r, 100000, 999999) }) },
];

const USERS_PER_TEAM = 8;
// Connections were created between these instants; fixed so the data does not depend on the day the tests run.
const CREATED_FROM_MS = Date.UTC(2023, 0, 1);
const CREATED_UNTIL_MS = Date.UTC(2025, 8, 30);
const MAX_EDIT_DELAY_MS = 200 * 24 * 3600 * 1000;

function generateConnections(random: Random, count: number, teams: readonly Team[]): Connection[] {
  const nextId = idSequence(random, 1001);
  const nameUses = new Map<string, number>();
  const connections: Connection[] = new Array(count);
  for (let index = 0; index < count; index++) {
    const kind = pick(random, CONNECTION_KINDS);
    const label = pick(random, kind.labels);
    const teamIndex = Math.floor(random() * teams.length);
    const team = teams[teamIndex];
    const createdMs = intBetween(random, CREATED_FROM_MS, CREATED_UNTIL_MS);
    const updatedMs = createdMs + (random() < 0.2 ? 0 : Math.floor(random() * MAX_EDIT_DELAY_MS));
    connections[index] = {
      id: nextId(),
      name: uniqueName(nameUses, `${label} ${kind.suffix}`),
      type: kind.type,
      team_id: team.id,
      team: { id: team.id, name: team.name },
      user_id: 10_000 + teamIndex * 50 + intBetween(random, 0, USERS_PER_TEAM - 1),
      created_at: new Date(createdMs).toISOString(),
      updated_at: new Date(updatedMs).toISOString(),
      meta: random() < 0.35 ? {} : kind.meta(label, random),
      status: random() < 0.9 ? 'active' : 'paused',
    };
  }
  return connections;
}

/** "Invoices PDF", then "Invoices PDF 2", ...: real accounts do end up with look-alike names. */
function uniqueName(uses: Map<string, number>, name: string): string {
  const count = (uses.get(name) ?? 0) + 1;
  uses.set(name, count);
  return count === 1 ? name : `${name} ${count}`;
}

// ---------------------------------------------------------------- flows

const FLOW_NAMES = [
  'Sync invoices to ledger', 'Push leads to CRM', 'Nightly warehouse export', 'Mirror support tickets',
  'Archive Slack threads', 'Refresh pricing catalog', 'Reconcile payouts', 'Import contracts from PDFs',
  'Backfill user events', 'Forward alerts to on-call',
];

function generateFlows(random: Random, count: number, teams: readonly Team[]): Flow[] {
  const nextId = idSequence(random, 101);
  return Array.from({ length: count }, (_, index) => {
    const round = Math.floor(index / FLOW_NAMES.length);
    const base = FLOW_NAMES[index % FLOW_NAMES.length];
    return { id: nextId(), name: round === 0 ? base : `${base} (${round + 1})`, team_id: pick(random, teams).id };
  });
}

// ---------------------------------------------------------------- processing flow syncs

/*
 * Time is cut into ticks. Each "lane" is a slot in which one flow runs at most one sync per window of
 * WINDOW_TICKS ticks; the run's start, length and attributes come from hashing (seed, lane, window), so the
 * syncs processing at any instant are computed directly from the clock, with no state and no history to replay.
 * Lanes are phase-shifted against each other so that window boundaries do not make every flow idle at once.
 */
const TICK_MS = 10_000;
const WINDOW_TICKS = 30;
const RUN_CHANCE = 0.8;
const MIN_RUN_TICKS = 3;
const MAX_RUN_TICKS = 26;
/** Share of the time a lane has a sync running: used to size the lane count for a wanted processing count. */
const LANE_DUTY = RUN_CHANCE * ((MIN_RUN_TICKS + MAX_RUN_TICKS) / 2 / WINDOW_TICKS);

interface SyncLane {
  index: number;
  flow: Flow;
  phaseTicks: number;
}

const SYNC_STATUSES: readonly (readonly [string, number])[] = [['pending', 0.7], ['running', 0.15], ['queued', 0.1], ['retrying', 0.05]];

// The API does not document the shape of `errors`, so several shapes appear.
const ERROR_SAMPLES: readonly unknown[] = [
  [{ message: 'E_TIMEOUT: upstream took too long' }],
  [{ message: 'E_RATE_LIMITED: Salesforce API limit reached, retrying' }],
  [{ message: 'E_VALIDATION: 3 records rejected' }, { message: 'E_VALIDATION: field "amount" is missing' }],
  { message: 'E_AUTH: token expired', retryable: true },
  'E_CONNECTION_RESET: socket hang up',
];

function generateLanes(random: Random, flows: readonly Flow[], processing: number): SyncLane[] {
  const count = Math.round(processing / LANE_DUTY);
  // Every flow gets one lane first (when there are enough), the rest go to random flows so some run 2+ syncs at once.
  return Array.from({ length: count }, (_, index) => ({
    index,
    flow: index < flows.length ? flows[index] : pick(random, flows),
    phaseTicks: intBetween(random, 0, WINDOW_TICKS - 1),
  }));
}

function pickWeighted(random: Random, weighted: readonly (readonly [string, number])[]): string {
  let roll = random();
  for (const [value, weight] of weighted) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return weighted[weighted.length - 1][0];
}

interface ScheduledSync {
  startMs: number;
  endMs: number;
  sync: FlowSync;
}

/** The run of `lane` in `window`, or undefined when the lane idles during that window. */
function scheduledRun(seed: number, lane: SyncLane, window: number, laneCount: number): ScheduledSync | undefined {
  const random = mulberry32(mixSeed(seed, lane.index, window));
  if (random() >= RUN_CHANCE) return undefined;
  const durationTicks = intBetween(random, MIN_RUN_TICKS, MAX_RUN_TICKS);
  // The run ends at least one tick before its window does, so the jitter cannot push it into the next window.
  const offsetTicks = intBetween(random, 0, WINDOW_TICKS - 1 - durationTicks);
  const startMs = (window * WINDOW_TICKS + lane.phaseTicks + offsetTicks) * TICK_MS + Math.floor(random() * TICK_MS);
  const { flow } = lane;
  const sync: FlowSync = {
    id: window * laneCount + lane.index + 1,
    flow_id: flow.id,
    status: pickWeighted(random, SYNC_STATUSES),
    created_at: new Date(startMs).toISOString(),
    updated_at: '',
    errors: random() < 0.15 ? structuredClone(pick(random, ERROR_SAMPLES)) : null,
    webhook: random() < 0.3,
    flow: { id: flow.id, name: flow.name },
  };
  return { startMs, endMs: startMs + durationTicks * TICK_MS, sync };
}

/** A dataset: teams, flows and connections generated once, processing flow syncs computed from the clock. */
export class MockDataset {
  readonly seed: number;
  readonly teams: readonly Team[];
  readonly flows: readonly Flow[];
  readonly connections: readonly Connection[];
  private readonly lanes: readonly SyncLane[];

  constructor(options: MockDataOptions = {}) {
    const settings = { ...DEFAULT_DATA_OPTIONS, ...definedOnly(options) };
    assertCount('seed', settings.seed, 0);
    assertCount('teams', settings.teams, 1);
    assertCount('flows', settings.flows, 1);
    assertCount('connections', settings.connections, 0);
    assertCount('processing', settings.processing, 0);
    this.seed = settings.seed;
    // Each kind of data has its own stream, so e.g. asking for more connections does not reshuffle the flows.
    const streamFor = (salt: number) => mulberry32(mixSeed(settings.seed, salt));
    this.teams = generateTeams(streamFor(1), settings.teams);
    this.flows = generateFlows(streamFor(2), settings.flows, this.teams);
    this.connections = generateConnections(streamFor(3), settings.connections, this.teams);
    this.lanes = generateLanes(streamFor(4), this.flows, settings.processing);
  }

  hasTeam(teamId: number): boolean {
    return this.teams.some((team) => team.id === teamId);
  }

  connectionsOfTeam(teamId: number): Connection[] {
    return this.connections.filter((connection) => connection.team_id === teamId);
  }

  /** The flow syncs processing at `nowMs`, oldest first; a pure function of (seed, options, nowMs, teamId). */
  processingAt(nowMs: number, teamId?: number): FlowSync[] {
    const running: ScheduledSync[] = [];
    const nowTick = Math.floor(nowMs / TICK_MS);
    for (const lane of this.lanes) {
      if (teamId !== undefined && lane.flow.team_id !== teamId) continue;
      const window = Math.floor((nowTick - lane.phaseTicks) / WINDOW_TICKS);
      const run = scheduledRun(this.seed, lane, window, this.lanes.length);
      if (run && run.startMs <= nowMs && nowMs < run.endMs) running.push(run);
    }
    running.sort((a, b) => a.startMs - b.startMs || a.sync.id - b.sync.id);
    return running.map(({ startMs, sync }) => ({ ...sync, updated_at: new Date(lastUpdateMs(startMs, nowMs)).toISOString() }));
  }
}

/** A running sync reports progress once per tick, so its updated_at is the last tick boundary it passed. */
function lastUpdateMs(startMs: number, nowMs: number): number {
  return startMs + Math.floor((nowMs - startMs) / TICK_MS) * TICK_MS;
}

function definedOnly(options: MockDataOptions): MockDataOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

function assertCount(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
}
