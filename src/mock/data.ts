/**
 * Seeded, deterministic data for the Flow Sync mock API.
 *
 * Everything derives from the seed (and, for processing flow syncs, from the clock), never from Math.random,
 * so a test or a benchmark sees the same data on every run. The only state is what a test changes on purpose
 * (startSync, finish), and it is kept here so that `processingAt` always equals what the server answers.
 */

import type { FlowSync as ApiFlowSync } from '../api/types';

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
  /** The median run time of its syncs (already divided by `speed`). */
  typicalRunMs: number;
  /** How much its run times vary: a run lasts typicalRunMs × e^(runSpread × z), z about normal within ±3, clamped. */
  runSpread: number;
}

/** A sync as the mock lists it: the API's shape (api/types), always with its flow's summary. */
export type FlowSync = ApiFlowSync & Required<Pick<ApiFlowSync, 'flow'>>;

export interface MockDataOptions {
  seed?: number;
  teams?: number;
  connections?: number;
  flows?: number;
  /** About how many flow syncs are processing at any moment, the stuck one included (0: none at all). */
  processing?: number;
  /**
   * The lifecycle runs this many times faster: run times are divided by it and syncs start that much more often,
   * so about as many are processing, but History fills `speed` times faster. The clock is not changed: created_at
   * stays honest against a real clock. Default 1.
   */
  speed?: number;
  /** created_at (ms) of the stuck sync, STUCK_SYNC_ID; default DEFAULT_STUCK_SINCE (the server: 2 h before it started). */
  stuckSince?: number;
}

/** The id of the one flow sync that never finishes (unless a test calls finish on it). */
export const STUCK_SYNC_ID = 100_000_042;
/** Its created_at when nothing else is said: far in the past of any test clock. */
export const DEFAULT_STUCK_SINCE = Date.UTC(2025, 0, 1, 3, 17, 42);

const DEFAULT_DATA_OPTIONS: Required<MockDataOptions> = {
  seed: 1,
  teams: 5,
  connections: 36,
  flows: 8,
  processing: 7,
  speed: 1,
  stuckSince: DEFAULT_STUCK_SINCE,
};

/**
 * mulberry32: a tiny, fast PRNG with good enough statistics for fake data. Returns floats in [0, 1). Also the
 * benchmarks' (bench/history.mjs loads it from out/).
 * @public
 */
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
function mixSeed(...parts: number[]): number {
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

const TEAM_NAMES = [
  'Platform',
  'Billing',
  'Growth',
  'Data',
  'Support',
  'Security',
  'Mobile',
  'Marketing',
  'Finance',
  'Operations',
  'Sales',
  'Partnerships',
];

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
  {
    type: 'pdf',
    suffix: 'PDF',
    labels: ['Invoices', 'Contracts', 'Receipts', 'Statements', 'Purchase Orders'],
    meta: (label, r) => ({ folder: `/${slug(label)}`, ocr: r() < 0.5 }),
  },
  {
    type: 'slack',
    suffix: 'Slack',
    labels: ['Sales', 'Support', 'Alerts', 'Engineering', 'Ops'],
    meta: (label) => ({ channel: `#${slug(label)}`, workspace: 'acme' }),
  },
  {
    type: 'postgres',
    suffix: 'Postgres',
    labels: ['Orders', 'Analytics', 'Users', 'Ledger'],
    meta: (label, r) => ({ host: `db-${intBetween(r, 1, 6)}.internal`, database: slug(label), ssl: true }),
  },
  {
    type: 'salesforce',
    suffix: 'Salesforce',
    labels: ['Leads', 'Accounts', 'Opportunities'],
    meta: () => ({ instance_url: 'https://acme.my.salesforce.com', api_version: '59.0' }),
  },
  {
    type: 'http',
    suffix: 'Webhook',
    labels: ['Partner', 'Status Page', 'Fulfilment', 'Payments'],
    meta: (label) => ({ url: `https://hooks.example.com/${slug(label)}`, method: 'POST' }),
  },
  {
    type: 's3',
    suffix: 'S3',
    labels: ['Exports', 'Backups', 'Raw Events', 'Reports'],
    meta: (label, r) => ({ bucket: `acme-${slug(label)}`, region: pick(r, ['eu-west-1', 'us-east-1']) }),
  },
  {
    type: 'gmail',
    suffix: 'Gmail',
    labels: ['Support Inbox', 'Billing Inbox', 'Founders'],
    meta: (label) => ({ mailbox: `${slug(label)}@acme.example` }),
  },
  {
    type: 'hubspot',
    suffix: 'HubSpot',
    labels: ['Marketing', 'Contacts', 'Deals'],
    meta: (_label, r) => ({ portal_id: intBetween(r, 100000, 999999) }),
  },
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
  'Sync invoices to ledger',
  'Push leads to CRM',
  'Nightly warehouse export',
  'Mirror support tickets',
  'Archive Slack threads',
  'Refresh pricing catalog',
  'Reconcile payouts',
  'Import contracts from PDFs',
  'Backfill user events',
  'Forward alerts to on-call',
];

/** Flows' typical run times lie between these (at speed 1), log-uniformly: more short flows than long ones. */
const TYPICAL_RUN_MIN_MS = 2 * 60_000;
const TYPICAL_RUN_MAX_MS = 15 * 60_000;
const RUN_SPREAD_MIN = 0.15;
const RUN_SPREAD_MAX = 0.45;

/** `profile` is a stream of its own, so the run times do not reshuffle the flows' teams. */
function generateFlows(random: Random, profile: Random, count: number, teams: readonly Team[], speed: number): Flow[] {
  const nextId = idSequence(random, 101);
  return Array.from({ length: count }, (_, index) => {
    const round = Math.floor(index / FLOW_NAMES.length);
    const base = FLOW_NAMES[index % FLOW_NAMES.length];
    const typical = TYPICAL_RUN_MIN_MS * Math.pow(TYPICAL_RUN_MAX_MS / TYPICAL_RUN_MIN_MS, profile());
    return {
      id: nextId(),
      name: round === 0 ? base : `${base} (${round + 1})`,
      team_id: pick(random, teams).id,
      typicalRunMs: Math.round(typical / speed),
      runSpread: RUN_SPREAD_MIN + profile() * (RUN_SPREAD_MAX - RUN_SPREAD_MIN),
    };
  });
}

// ---------------------------------------------------------------- processing flow syncs: the lifecycle

/*
 * A flow sync starts at a seeded time, is listed as processing for a run time drawn from its flow's distribution
 * (Flow.typicalRunMs, Flow.runSpread), then leaves the list. Time is cut into epochs; the syncs starting in an
 * epoch come from hashing (seed, epoch), so the list at any instant is computed from the clock with nothing to
 * replay (epochs are generated when first needed, the last few are cached). Ids grow with the start time
 * (epoch × slotsPerEpoch + rank), so a sync keeps its id and created_at on every request, with irregular gaps.
 *
 * Besides the regular starts (each flow at a rate of its own): occasional bursts (3–6 syncs of one flow within
 * seconds, webhook deliveries), one stuck sync (STUCK_SYNC_ID) that never finishes, and what a test changes:
 * startSync adds syncs, finish ends one now.
 */
const TICK_MS = 10_000;
const EPOCH_MS = 5 * 60_000;
/** A run lasts within these factors of its flow's typical run time. */
const RUN_FACTOR_MIN = 0.35;
const RUN_FACTOR_MAX = 2.5;
const RUN_MIN_MS = 1000;
/** A sync is "queued" for the first part of its run: this share of it, at most QUEUED_MAX_MS. */
const QUEUED_SHARE = 0.1;
const QUEUED_MAX_MS = 30_000;
/** Bursts per epoch at speed 1, their size, and within how long their syncs start. */
const BURSTS_PER_EPOCH = 0.15;
const BURST_MIN = 3;
const BURST_MAX = 6;
const BURST_SPAN_MS = 15_000;
/** On average bursts make up at most this share of the list, so a short list stays mostly regular. */
const BURST_SHARE_MAX = 0.25;
/** Ids per epoch kept for syncs a test starts. */
const MANUAL_SLOTS = 16;
const MAX_MANUAL_COUNT = 100;
const EPOCH_CACHE_SIZE = 64;

/** The status a sync shows once it is no longer queued. */
const SYNC_STATUSES: readonly (readonly [string, number])[] = [
  ['pending', 0.75],
  ['running', 0.15],
  ['retrying', 0.05],
  ['queued', 0.05],
];

// The API does not document the shape of `errors`, so several shapes appear.
const ERROR_SAMPLES: readonly unknown[] = [
  [{ message: 'E_TIMEOUT: upstream took too long' }],
  [{ message: 'E_RATE_LIMITED: Salesforce API limit reached, retrying' }],
  [{ message: 'E_VALIDATION: 3 records rejected' }, { message: 'E_VALIDATION: field "amount" is missing' }],
  { message: 'E_AUTH: token expired', retryable: true },
  'E_CONNECTION_RESET: socket hang up',
];

function pickWeighted(random: Random, weighted: readonly (readonly [string, number])[]): string {
  let roll = random();
  for (const [value, weight] of weighted) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return weighted[weighted.length - 1][0];
}

/** Roughly standard normal, always within ±3 (the sum of three uniforms). */
function aboutNormal(random: Random): number {
  return (random() + random() + random() - 1.5) * 2;
}

function runTimeOf(random: Random, flow: Flow): number {
  const factor = Math.min(RUN_FACTOR_MAX, Math.max(RUN_FACTOR_MIN, Math.exp(flow.runSpread * aboutNormal(random))));
  return Math.max(RUN_MIN_MS, Math.round(flow.typicalRunMs * factor));
}

/** Average run time of a flow's syncs (log-normal mean; the clamping changes it little). */
function meanRunMs(flow: Flow): number {
  return flow.typicalRunMs * Math.exp(flow.runSpread ** 2 / 2);
}

/** The most trials boundedCount makes for an expected count: the count never exceeds it. */
function countCap(expected: number): number {
  return expected > 0 ? Math.ceil(expected * 1.5 + 2) : 0;
}

/** A binomial count with mean `expected`, never above `cap`. */
function boundedCount(random: Random, expected: number, cap: number): number {
  let count = 0;
  for (let trial = 0; trial < cap; trial++) if (random() * cap < expected) count++;
  return count;
}

interface Run {
  startMs: number;
  /** Infinity for the stuck sync. */
  endMs: number;
  queuedUntilMs: number;
  teamId: number;
  /** As listed once queued; updated_at is filled in per request. */
  sync: FlowSync;
}

export interface StartSyncOptions {
  /** How many syncs of the flow start at once (a burst); default 1, at most 100. */
  count?: number;
  /** How long they run; default drawn from the flow's run times; Infinity: until finish. */
  runMs?: number;
}

/** A dataset: teams, flows and connections generated once, processing flow syncs computed from the clock. */
export class MockDataset {
  readonly seed: number;
  readonly speed: number;
  readonly teams: readonly Team[];
  readonly flows: readonly Flow[];
  readonly connections: readonly Connection[];
  /** created_at of the stuck sync; undefined when `processing` is 0. */
  readonly stuckSince: number | undefined;
  /** STUCK_SYNC_ID; undefined when `processing` is 0. */
  readonly stuckSyncId: number | undefined;
  private readonly stuck: Run | undefined;
  /** Cumulative start weights of the flows, for picking which flow a regular start belongs to. */
  private readonly cumulativeWeights: readonly number[];
  private readonly regularPerEpoch: number;
  private readonly regularCap: number;
  private readonly burstsPerEpoch: number;
  private readonly burstCap: number;
  private readonly slotsPerEpoch: number;
  /** No run is longer: how far back a sync still processing can have started. */
  private readonly lookbackMs: number;
  private readonly epochs = new Map<number, readonly Run[]>();
  private readonly started: Run[] = [];
  private readonly finishedAt = new Map<number, number>();
  /** The errors reportErrors gave a sync: listed with it from then on. */
  private readonly errorsGiven = new Map<number, unknown>();
  private readonly manualSlotsUsed = new Map<number, number>();
  private manualCount = 0;

  constructor(options: MockDataOptions = {}) {
    const settings = { ...DEFAULT_DATA_OPTIONS, ...definedOnly(options) };
    assertCount('seed', settings.seed, 0);
    assertCount('teams', settings.teams, 1);
    assertCount('flows', settings.flows, 1);
    assertCount('connections', settings.connections, 0);
    assertCount('processing', settings.processing, 0);
    if (!(Number.isFinite(settings.speed) && settings.speed > 0 && settings.speed <= 1000)) {
      throw new RangeError(`speed must be > 0 and <= 1000, got ${settings.speed}`);
    }
    if (!Number.isSafeInteger(settings.stuckSince)) {
      throw new RangeError(`stuckSince must be an integer (ms), got ${settings.stuckSince}`);
    }
    this.seed = settings.seed;
    this.speed = settings.speed;
    // Each kind of data has its own stream, so e.g. asking for more connections does not reshuffle the flows.
    const streamFor = (salt: number) => mulberry32(mixSeed(settings.seed, salt));
    this.teams = generateTeams(streamFor(1), settings.teams);
    this.flows = generateFlows(streamFor(2), streamFor(5), settings.flows, this.teams, settings.speed);
    this.connections = generateConnections(streamFor(3), settings.connections, this.teams);

    // Sizing: on average `processing` syncs are listed: the stuck one, bursts, and regular starts for the rest
    // (Little's law: starts per ms × mean run time = how many are running).
    const weightStream = streamFor(4);
    const weights = this.flows.map(() => 0.5 + 1.5 * weightStream());
    let total = 0;
    this.cumulativeWeights = weights.map((weight) => (total += weight));
    const budget = Math.max(0, settings.processing - 1);
    const meanBurstRunMs = this.flows.reduce((sum, flow) => sum + meanRunMs(flow), 0) / this.flows.length;
    const listedPerBurst = ((BURST_MIN + BURST_MAX) / 2) * (meanBurstRunMs / EPOCH_MS);
    this.burstsPerEpoch = Math.min(BURSTS_PER_EPOCH * settings.speed, (BURST_SHARE_MAX * budget) / listedPerBurst);
    const regularListed = budget - this.burstsPerEpoch * listedPerBurst;
    const weightedMeanRunMs =
      this.flows.reduce((sum, flow, index) => sum + weights[index] * meanRunMs(flow), 0) / total;
    this.regularPerEpoch = (regularListed / weightedMeanRunMs) * EPOCH_MS;
    this.regularCap = countCap(this.regularPerEpoch);
    this.burstCap = countCap(this.burstsPerEpoch);
    this.slotsPerEpoch = this.regularCap + this.burstCap * BURST_MAX + MANUAL_SLOTS;
    this.lookbackMs = Math.max(...this.flows.map((flow) => flow.typicalRunMs)) * RUN_FACTOR_MAX + BURST_SPAN_MS;

    if (settings.processing > 0) {
      this.stuckSince = settings.stuckSince;
      this.stuckSyncId = STUCK_SYNC_ID;
      const flow = pick(streamFor(6), this.flows);
      this.stuck = this.makeRun(STUCK_SYNC_ID, settings.stuckSince, flow, Infinity, undefined);
    }
  }

  hasTeam(teamId: number): boolean {
    return this.teams.some((team) => team.id === teamId);
  }

  connectionsOfTeam(teamId: number): Connection[] {
    return this.connections.filter((connection) => connection.team_id === teamId);
  }

  /**
   * The flow syncs processing at `nowMs`, oldest first: a pure function of (seed, options, nowMs, teamId) and of
   * what startSync and finish changed.
   */
  processingAt(nowMs: number, teamId?: number): FlowSync[] {
    const listed: Run[] = [];
    const consider = (run: Run) => {
      if (run.startMs > nowMs || nowMs >= run.endMs || (teamId !== undefined && run.teamId !== teamId)) return;
      const finished = this.finishedAt.get(run.sync.id);
      if (finished === undefined || nowMs < finished) listed.push(run);
    };
    if (this.stuck) consider(this.stuck);
    const lastEpoch = Math.floor(nowMs / EPOCH_MS);
    for (let epoch = Math.floor((nowMs - this.lookbackMs) / EPOCH_MS); epoch <= lastEpoch; epoch++) {
      this.runsOf(epoch).forEach(consider);
    }
    this.started.forEach(consider);
    listed.sort((a, b) => a.startMs - b.startMs || a.sync.id - b.sync.id);
    return listed.map((run) => {
      const sync = listedAt(run, nowMs);
      return this.errorsGiven.has(sync.id) ? { ...sync, errors: structuredClone(this.errorsGiven.get(sync.id)) } : sync;
    });
  }

  /**
   * The sync `id` reports `errors` from now on (its `errors` turns from null: the API's only failure signal). Returns
   * it as listed at `atMs` with them, or undefined when it is not processing then.
   */
  reportErrors(id: number, atMs: number, errors: unknown): FlowSync | undefined {
    if (!this.processingAt(atMs).some((candidate) => candidate.id === id)) return undefined;
    this.errorsGiven.set(id, structuredClone(errors));
    return this.processingAt(atMs).find((candidate) => candidate.id === id);
  }

  /**
   * Ends the sync `id` at `atMs`: from then on it is no longer listed (it is, before). Returns it as it was
   * listed at `atMs`, or undefined when it was not processing then.
   */
  finish(id: number, atMs: number): FlowSync | undefined {
    const sync = this.processingAt(atMs).find((candidate) => candidate.id === id);
    if (sync) this.finishedAt.set(id, atMs);
    return sync;
  }

  /** Starts `count` syncs of the flow at `atMs` (status "queued", then "pending"); returns them as listed then. */
  startSync(flowId: number, atMs: number, options: StartSyncOptions = {}): FlowSync[] {
    const flow = this.flows.find((candidate) => candidate.id === flowId);
    if (!flow) {
      throw new RangeError(
        `no flow with id ${flowId}; flows: ${this.flows.map((candidate) => candidate.id).join(', ')}`,
      );
    }
    const count = options.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > MAX_MANUAL_COUNT) {
      throw new RangeError(`count must be an integer within 1 – ${MAX_MANUAL_COUNT}, got ${count}`);
    }
    if (options.runMs !== undefined && !(options.runMs > 0)) {
      throw new RangeError(`runMs must be > 0, got ${options.runMs}`);
    }
    if (!Number.isSafeInteger(atMs)) throw new RangeError(`the start time must be an integer (ms), got ${atMs}`);
    return Array.from({ length: count }, () => {
      const random = mulberry32(mixSeed(this.seed, 7, this.manualCount++));
      const run = this.makeRun(this.manualId(atMs), atMs, flow, options.runMs ?? runTimeOf(random, flow), undefined);
      this.started.push(run);
      return listedAt(run, atMs);
    });
  }

  /** Forgets what startSync, finish and reportErrors changed. */
  resetSyncs(): void {
    this.started.length = 0;
    this.finishedAt.clear();
    this.errorsGiven.clear();
    this.manualSlotsUsed.clear();
    this.manualCount = 0;
  }

  /** The syncs starting in `epoch`, ordered by start. */
  private runsOf(epoch: number): readonly Run[] {
    const cached = this.epochs.get(epoch);
    if (cached) return cached;
    const random = mulberry32(mixSeed(this.seed, 5, epoch));
    const epochStart = epoch * EPOCH_MS;
    const starts: { startMs: number; flow: Flow; burst: boolean }[] = [];
    const regular = boundedCount(random, this.regularPerEpoch, this.regularCap);
    for (let index = 0; index < regular; index++) {
      starts.push({ startMs: epochStart + Math.floor(random() * EPOCH_MS), flow: this.pickFlow(random), burst: false });
    }
    const bursts = boundedCount(random, this.burstsPerEpoch, this.burstCap);
    for (let index = 0; index < bursts; index++) {
      const flow = pick(random, this.flows);
      const size = intBetween(random, BURST_MIN, BURST_MAX);
      const at = epochStart + Math.floor(random() * (EPOCH_MS - BURST_SPAN_MS));
      for (let member = 0; member < size; member++) {
        starts.push({ startMs: at + Math.floor(random() * BURST_SPAN_MS), flow, burst: true });
      }
    }
    starts.sort((a, b) => a.startMs - b.startMs);
    const runs = starts
      .map(({ startMs, flow, burst }, rank) =>
        this.makeRun(epoch * this.slotsPerEpoch + rank + 1, startMs, flow, runTimeOf(random, flow), { random, burst }),
      )
      .filter((run) => run.sync.id !== STUCK_SYNC_ID);
    if (this.epochs.size >= EPOCH_CACHE_SIZE) this.epochs.delete(this.epochs.keys().next().value as number);
    this.epochs.set(epoch, runs);
    return runs;
  }

  private pickFlow(random: Random): Flow {
    const roll = random() * this.cumulativeWeights[this.cumulativeWeights.length - 1];
    const index = this.cumulativeWeights.findIndex((cumulative) => roll < cumulative);
    return this.flows[index < 0 ? this.flows.length - 1 : index];
  }

  /** `varied`: status, errors and webhook drawn at random; otherwise a plain "pending" sync without errors. */
  private makeRun(
    id: number,
    startMs: number,
    flow: Flow,
    runMs: number,
    varied: { random: Random; burst: boolean } | undefined,
  ): Run {
    const status = varied ? pickWeighted(varied.random, SYNC_STATUSES) : 'pending';
    const hasError = varied !== undefined && (status === 'retrying' || varied.random() < 0.12);
    return {
      startMs,
      endMs: startMs + runMs,
      queuedUntilMs: startMs + Math.min(runMs * QUEUED_SHARE, QUEUED_MAX_MS),
      teamId: flow.team_id,
      sync: {
        id,
        flow_id: flow.id,
        status,
        created_at: new Date(startMs).toISOString(),
        updated_at: '',
        errors: varied && hasError ? structuredClone(pick(varied.random, ERROR_SAMPLES)) : null,
        webhook: varied !== undefined && (varied.burst || varied.random() < 0.3),
        flow: { id: flow.id, name: flow.name },
      },
    };
  }

  /** An id among the slots kept for test-started syncs of the epoch of `atMs` (or a later one when those are used up). */
  private manualId(atMs: number): number {
    for (let epoch = Math.floor(atMs / EPOCH_MS); ; epoch++) {
      const used = this.manualSlotsUsed.get(epoch) ?? 0;
      if (used >= MANUAL_SLOTS) continue;
      this.manualSlotsUsed.set(epoch, used + 1);
      const id = (epoch + 1) * this.slotsPerEpoch - MANUAL_SLOTS + used + 1;
      if (id !== STUCK_SYNC_ID) return id;
    }
  }
}

/** The sync as listed at `nowMs`: queued at first, and updated_at at the last progress report. */
function listedAt(run: Run, nowMs: number): FlowSync {
  return {
    ...run.sync,
    status: nowMs < run.queuedUntilMs ? 'queued' : run.sync.status,
    errors: run.sync.errors === null ? null : structuredClone(run.sync.errors),
    updated_at: new Date(lastUpdateMs(run.startMs, nowMs)).toISOString(),
  };
}

/** A processing sync reports progress once per tick (the stuck one too: it looks alive), so updated_at is the last tick boundary it passed. */
function lastUpdateMs(startMs: number, nowMs: number): number {
  return startMs + Math.floor((nowMs - startMs) / TICK_MS) * TICK_MS;
}

function definedOnly(options: MockDataOptions): MockDataOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

function assertCount(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  }
}
