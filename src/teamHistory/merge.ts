import { compareNewestFirst, makeEntry, type HistoryEntry } from '../history/entry';
import { MAX_RUN_MS, type TeamRun } from './teamRows';

/*
 * One History from many observers (pure). The runs of one sync seen by several installations are one run: sightings
 * of the same sync (id and created_at) whose spans [first seen, left or last seen] meet are one run, with the earliest
 * first sighting, the latest last sighting, and as its leaving the earliest absence after that latest sighting: an
 * absence before it (or at the same instant) was a window that lagged (its answer was older than another's
 * sighting), so it can never cut a run short. A run whose sightings end with nobody seeing it leave (the windows that
 * saw it closed) is one run with the next sighting of the same sync and created_at, if any, within MAX_RUN_MS: no
 * absence was seen between them. A run nobody saw leave stays open ("last seen processing at …").
 *
 * TeamRuns keeps the team's sightings of one service merged as they are read, page after page: each run once, with
 * what a later sighting needs to merge exactly (the absences at or after its latest sighting, its observers), so
 * the order rows arrive in, and rows that arrive twice, change nothing. mergeHistory then merges this window's own
 * History into it for the views. Bounded: at most `maxRuns` runs, `maxPerSync` runs of one sync, `maxObservers`
 * installations besides this one; what a bound refuses is counted.
 */

/** One run as the merge sees a sighting of it: a TeamRun without the service and team. */
type Sighting = Pick<
  TeamRun,
  'observer' | 'id' | 'flowId' | 'flowName' | 'createdAt' | 'firstSeen' | 'lastSeen' | 'leftAt' | 'hadErrors'
>;

/** A run of the merged History: a HistoryEntry, and who saw it. */
export interface TeamEntry extends HistoryEntry {
  /** This installation saw it (its History has it, or its own rows in the store do). */
  readonly seenHere: boolean;
  /** How many installations saw it (this one included). */
  readonly observers: number;
}

/** A run no installation saw leave: still processing, or it left while nobody who had seen it was watching. */
interface OpenRun {
  readonly id: number;
  readonly flowId: number;
  readonly flowName: string;
  readonly createdAt: string;
  readonly firstSeen: number;
  readonly lastSeen: number;
  readonly hadErrors: boolean;
  readonly seenHere: boolean;
  readonly observers: number;
}

export interface MergedHistory {
  /** Every run that left, each once, newest first (compareNewestFirst). */
  readonly entries: TeamEntry[];
  /** Runs nobody saw leave, latest sighting first. */
  readonly open: OpenRun[];
}

export interface TeamRunsLimits {
  /** Runs kept at most (each run once, however many saw it). */
  readonly maxRuns: number;
  /** Runs of one sync (id and created_at) kept at most: a sync that ran again and again. */
  readonly maxPerSync: number;
  /** Installations other than this one whose rows are taken (the first seen); rows of others are refused. */
  readonly maxObservers: number;
}

/** History's own cap on runs (HISTORY_CAP), the 20 observers. */
const TEAM_LIMITS: TeamRunsLimits = { maxRuns: 50_000, maxPerSync: 64, maxObservers: 20 };
/** Absences kept per run (the smallest at or after its latest sighting): an honest run has one per observer. */
const MAX_ABSENCES = 32;

interface Cluster {
  id: number;
  createdAt: string;
  flowId: number;
  flowName: string;
  firstSeen: number;
  lastSeen: number;
  /** The latest time of any sighting (left, else last seen): the run's span ends here. */
  end: number;
  /** Absences after lastSeen, ascending, distinct, at most MAX_ABSENCES. */
  absences: number[];
  observers: string[];
  hadErrors: boolean;
  /** The raw item of this window's own entry, when one is part of the run. */
  raw?: Readonly<Record<string, unknown>>;
  /** This window's own History has it (mergeHistory's local entries). */
  local: boolean;
}

const keyOf = (s: { id: number; createdAt: string }) => `${s.id}\u0000${s.createdAt}`;

function clusterOf(s: Sighting): Cluster {
  return {
    id: s.id,
    createdAt: s.createdAt,
    flowId: s.flowId,
    flowName: s.flowName,
    firstSeen: s.firstSeen,
    lastSeen: s.lastSeen,
    end: s.leftAt ?? s.lastSeen,
    absences: s.leftAt === undefined || s.leftAt <= s.lastSeen ? [] : [s.leftAt],
    observers: [s.observer],
    hadErrors: s.hadErrors,
    local: false,
  };
}

/**
 * The spans [firstSeen, end] of two runs meet (closed: a sighting and an absence at one instant are of one run), and
 * together span at most MAX_RUN_MS: what no honest sightings exceed, so hostile rows cannot stretch a run past it
 * (beyond it, which sightings make the run may depend on their order; no run exceeds it).
 */
const meets = (a: Cluster, b: Cluster) =>
  a.firstSeen <= b.end &&
  b.firstSeen <= a.end &&
  Math.max(a.end, b.end) - Math.min(a.firstSeen, b.firstSeen) <= MAX_RUN_MS;

/**
 * Whether `a`'s name is the one the run keeps: the latest sighting's; at the same instant the same for every order
 * (the smaller name, then the smaller flow id).
 */
function namesRun(a: Cluster, b: Cluster): boolean {
  if (a.lastSeen !== b.lastSeen) return a.lastSeen > b.lastSeen;
  return a.flowName < b.flowName || (a.flowName === b.flowName && a.flowId <= b.flowId);
}

/** `b` merged into `a` (a is changed): the earliest first sighting, the latest last, the absences after it. */
function join(a: Cluster, b: Cluster): Cluster {
  if (!namesRun(a, b)) {
    a.flowId = b.flowId;
    a.flowName = b.flowName;
  }
  a.firstSeen = Math.min(a.firstSeen, b.firstSeen);
  a.lastSeen = Math.max(a.lastSeen, b.lastSeen);
  a.end = Math.max(a.end, b.end);
  const absences = [...a.absences, ...b.absences].filter((t) => t > a.lastSeen).sort((x, y) => x - y);
  a.absences = absences.filter((t, i) => i === 0 || t !== absences[i - 1]);
  if (a.absences.length > MAX_ABSENCES) a.absences.length = MAX_ABSENCES; // the earliest ones
  for (const o of b.observers) if (!a.observers.includes(o)) a.observers.push(o);
  a.hadErrors ||= b.hadErrors;
  a.local ||= b.local;
  a.raw ??= b.raw;
  return a;
}

function pushMerged(group: Cluster[], kept: number, merged: Cluster, maxPerSync: number): boolean {
  group.length = kept;
  if (group.length >= maxPerSync) return false;
  group.push(merged);
  return true;
}

/** The team's sightings of one service, merged as they are read (see the top of this file). */
export class TeamRuns {
  private readonly groups = new Map<string, Cluster[]>();
  private readonly others = new Set<string>();
  private runs = 0;
  private refusedRows = 0;

  /** `self`: this installation's id (its own rows count as seen here, and never against maxObservers). */
  constructor(
    private readonly self: string,
    private readonly limits: TeamRunsLimits = TEAM_LIMITS,
  ) {}

  /** Runs held (each once). */
  get size(): number {
    return this.runs;
  }

  /** Rows the bounds refused since this was made. */
  get refused(): number {
    return this.refusedRows;
  }

  /** Takes one sighting; false (and counted) when a bound refuses it. Idempotent: the same row again changes nothing. */
  add(s: Sighting): boolean {
    if (s.observer !== this.self && !this.others.has(s.observer)) {
      if (this.others.size >= this.limits.maxObservers) return this.refuse();
      this.others.add(s.observer);
    }
    const key = keyOf(s);
    const group = this.groups.get(key);
    if (!group) {
      if (this.runs >= this.limits.maxRuns) return this.refuse();
      this.groups.set(key, [clusterOf(s)]);
      this.runs++;
      return true;
    }
    const before = group.length;
    const fresh = clusterOf(s);
    if (this.runs >= this.limits.maxRuns && !group.some((c) => meets(c, fresh))) return this.refuse();
    if (!mergeInto(group, fresh, this.limits.maxPerSync)) return this.refuse();
    this.runs += group.length - before;
    return true;
  }

  /** Forgets the runs whose span ended before `before` (History's days moved on). */
  forgetBefore(before: number): void {
    for (const [key, group] of this.groups) {
      const kept = group.filter((c) => c.end >= before);
      this.runs -= group.length - kept.length;
      if (kept.length) this.groups.set(key, kept);
      else this.groups.delete(key);
    }
  }

  /** The installations whose rows were taken, this one excluded. */
  get observers(): ReadonlySet<string> {
    return this.others;
  }

  /** The runs of one sync (copies), for mergeHistory. */
  copiesOf(key: string): Cluster[] | undefined {
    return this.groups.get(key)?.map(copyOf);
  }

  /** Every run (read only). */
  *all(): IterableIterator<[string, readonly Cluster[]]> {
    yield* this.groups;
  }

  /** Whether this is this installation's id. */
  isSelf(observer: string): boolean {
    return observer === this.self;
  }

  private refuse(): false {
    this.refusedRows++;
    return false;
  }
}

/** `c` merged into `group` (changed in place) with every run it meets; false when maxPerSync refuses a new run. */
function mergeInto(group: Cluster[], c: Cluster, maxPerSync: number): boolean {
  let merged = c;
  let kept = 0;
  for (let i = 0; i < group.length; i++) {
    const other = group[i];
    if (meets(merged, other)) merged = join(other, merged);
    else group[kept++] = other;
  }
  return pushMerged(group, kept, merged, maxPerSync);
}

/**
 * This window's History (`local`, as HistoryCore keeps it: each run once) merged with the team's runs: the History
 * every view of this window shows. A run that only teammates saw has seenHere false. Linear in both but for sorting.
 */
export function mergeHistory(local: readonly HistoryEntry[], team: TeamRuns): MergedHistory {
  const entries: TeamEntry[] = [];
  const open: OpenRun[] = [];
  const touched = new Map<string, Cluster[]>();
  for (const e of local) {
    const key = keyOf(e);
    let group = touched.get(key);
    if (!group) {
      group = team.copiesOf(key);
      if (!group) {
        entries.push(teamEntry(e, true, 1));
        continue;
      }
      touched.set(key, group);
    }
    const c = clusterOf({ ...e, observer: '' });
    c.local = true;
    c.observers = [];
    c.raw = e.raw;
    mergeInto(group, c, Infinity);
  }
  const emit = (c: Cluster) => {
    const selfSaw = c.local || c.observers.some((o) => team.isSelf(o));
    const others = c.observers.filter((o) => !team.isSelf(o)).length;
    const observers = others + (selfSaw ? 1 : 0);
    if (c.absences.length) entries.push(teamEntry(c, selfSaw, observers));
    else open.push(openRun(c, selfSaw, observers));
  };
  for (const [key, group] of team.all()) for (const c of withOpenFolded(touched.get(key) ?? group)) emit(c);
  entries.sort(compareNewestFirst);
  open.sort((a, b) => b.lastSeen - a.lastSeen || b.id - a.id);
  return { entries, open };
}

const isOpen = (c: Cluster) => c.absences.length === 0;

/**
 * The runs of one sync with each open one (nobody saw it leave) merged into the next one, when that follows within
 * MAX_RUN_MS of its start: no absence separates them. Copies when it merges (the team's runs are left as they are).
 */
function withOpenFolded(group: readonly Cluster[]): readonly Cluster[] {
  if (group.length < 2 || !group.some(isOpen)) return group;
  const sorted = group.map(copyOf).sort((a, b) => a.firstSeen - b.firstSeen);
  const out: Cluster[] = [];
  for (const c of sorted) {
    const last = out[out.length - 1];
    if (last && isOpen(last) && c.end - last.firstSeen <= MAX_RUN_MS) join(last, c);
    else out.push(c);
  }
  return out;
}

function copyOf(c: Cluster): Cluster {
  return { ...c, absences: [...c.absences], observers: [...c.observers] };
}

function teamEntry(e: HistoryEntry | Cluster, seenHere: boolean, observers: number): TeamEntry {
  const leftAt = 'absences' in e ? e.absences[0] : e.leftAt;
  const entry = makeEntry({
    id: e.id,
    flowId: e.flowId,
    flowName: e.flowName,
    createdAt: e.createdAt,
    firstSeen: e.firstSeen,
    lastSeen: e.lastSeen,
    leftAt,
    raw: e.raw,
    hadErrors: e.hadErrors,
  });
  return { ...entry, seenHere, observers };
}

function openRun(c: Cluster, seenHere: boolean, observers: number): OpenRun {
  return {
    id: c.id,
    flowId: c.flowId,
    flowName: c.flowName,
    createdAt: c.createdAt,
    firstSeen: c.firstSeen,
    lastSeen: c.lastSeen,
    hadErrors: c.hadErrors,
    seenHere,
    observers,
  };
}
