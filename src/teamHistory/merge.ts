import { compareNewestFirst, durationOf, itemHasErrors, type HistoryEntry } from '../history/entry';
import { HISTORY_CAP } from '../history/store';
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
 * what a later sighting needs to merge exactly (the absences after its latest sighting, who saw it), so
 * the order rows arrive in, and rows that arrive twice, change nothing. mergeHistory then merges this window's own
 * History into it for the views. Bounded: at most `maxRuns` runs, `maxPerSync` runs of one sync, `maxObservers`
 * installations besides this one; what a bound refuses is counted.
 */

/** One run as the merge sees a sighting of it: a TeamRun without the service and team. */
type Sighting = Pick<
  TeamRun,
  'observer' | 'id' | 'flowId' | 'flowName' | 'createdAt' | 'firstSeen' | 'lastSeen' | 'leftAt' | 'hadErrors'
>;

/** Who saw a run of the merged History. */
interface SeenBy {
  /** This installation saw it (its History has it, or its own rows in the store do). */
  readonly seenHere: boolean;
  /** How many installations saw it (this one included). */
  readonly observers: number;
}

/** A run of the merged History: a HistoryEntry, and who saw it. */
export interface TeamEntry extends HistoryEntry {
  readonly seenHere: boolean;
  readonly observers: number;
}

/** A run no installation saw leave: still processing, or it left while nobody who had seen it was watching. */
type OpenRun = Omit<Sighting, 'observer' | 'leftAt'> & SeenBy;

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

/** History's own cap on runs, the 20 observers. */
const TEAM_LIMITS: TeamRunsLimits = { maxRuns: HISTORY_CAP, maxPerSync: 64, maxObservers: 20 };
/** Absences kept per run (the earliest after its latest sighting): an honest run has one per observer. */
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
  /** Who saw it: a bit per installation (SELF_BIT this one; TeamRuns numbers the others). */
  seen: number;
  hadErrors: boolean;
  /** The raw item of this window's own entry, when one is part of the run. */
  raw?: Readonly<Record<string, unknown>>;
  /** This window's own History has it (mergeHistory's local entries). */
  local: boolean;
}

const keyOf = (s: { id: number; createdAt: string }) => `${s.id}\u0000${s.createdAt}`;
/** This installation's bit in Cluster.seen; the others' are the next ones (at most MAX_OBSERVER_BITS). */
const SELF_BIT = 1;
const MAX_OBSERVER_BITS = 30;

/** The installations of a `seen` (bits set). */
function count(seen: number): number {
  let n = 0;
  for (let bits = seen; bits; bits &= bits - 1) n++;
  return n;
}

function clusterOf(s: Omit<Sighting, 'observer'>, seen: number): Cluster {
  return {
    id: s.id,
    createdAt: s.createdAt,
    flowId: s.flowId,
    flowName: s.flowName,
    firstSeen: s.firstSeen,
    lastSeen: s.lastSeen,
    end: s.leftAt ?? s.lastSeen,
    absences: s.leftAt === undefined || s.leftAt <= s.lastSeen ? [] : [s.leftAt],
    seen,
    hadErrors: s.hadErrors,
    local: false,
  };
}

/**
 * The spans [firstSeen, end] of two runs meet (closed: a sighting and an absence at one instant are of one run), and
 * together span at most MAX_RUN_MS: what no honest sightings exceed, so hostile rows cannot stretch a run past it
 * (beyond it, which sightings make the run may depend on their order; no run exceeds it).
 */
const meets = (a: Cluster, b: Cluster) => meetsSpan(a, b.firstSeen, b.end);
const meetsSpan = (a: Cluster, firstSeen: number, end: number) =>
  a.firstSeen <= end && firstSeen <= a.end && Math.max(a.end, end) - Math.min(a.firstSeen, firstSeen) <= MAX_RUN_MS;

/**
 * Whether `a`'s name is the one the run keeps: the latest sighting's; at the same instant the same for every order
 * (the smaller name, then the smaller flow id).
 */
function namesRun(a: Cluster, b: Cluster): boolean {
  if (a.lastSeen !== b.lastSeen) return a.lastSeen > b.lastSeen;
  return a.flowName < b.flowName || (a.flowName === b.flowName && a.flowId <= b.flowId);
}

/** Drops the absences at or before `after` (they are ascending). */
function absencesAfter(absences: number[], after: number): void {
  let k = 0;
  while (k < absences.length && absences[k] <= after) k++;
  if (k) absences.splice(0, k);
}

/** Adds an absence to ascending, distinct absences, keeping the MAX_ABSENCES earliest. */
function addAbsence(absences: number[], t: number): void {
  let i = absences.length;
  while (i > 0 && absences[i - 1] > t) i--;
  if (i > 0 && absences[i - 1] === t) return;
  if (i >= MAX_ABSENCES) return;
  absences.splice(i, 0, t);
  if (absences.length > MAX_ABSENCES) absences.length = MAX_ABSENCES;
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
  absencesAfter(a.absences, a.lastSeen);
  for (const t of b.absences) if (t > a.lastSeen) addAbsence(a.absences, t);
  a.seen |= b.seen;
  a.hadErrors ||= b.hadErrors;
  a.local ||= b.local;
  a.raw ??= b.raw;
  return a;
}

/** join(c, clusterOf(s, bit)) without making the cluster: the common case of a row of a run already held. */
function absorb(c: Cluster, s: Sighting, bit: number): void {
  if (
    s.lastSeen > c.lastSeen ||
    (s.lastSeen === c.lastSeen && (s.flowName < c.flowName || (s.flowName === c.flowName && s.flowId < c.flowId)))
  ) {
    c.flowId = s.flowId;
    c.flowName = s.flowName;
  }
  c.firstSeen = Math.min(c.firstSeen, s.firstSeen);
  c.lastSeen = Math.max(c.lastSeen, s.lastSeen);
  c.end = Math.max(c.end, s.leftAt ?? s.lastSeen);
  absencesAfter(c.absences, c.lastSeen);
  if (s.leftAt !== undefined && s.leftAt > c.lastSeen) addAbsence(c.absences, s.leftAt);
  c.seen |= bit;
  c.hadErrors ||= s.hadErrors;
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
  /** The other installations whose rows are taken, each with its bit. */
  private readonly others = new Map<string, number>();
  private runs = 0;
  private refusedRows = 0;

  /** `self`: this installation's id (its own rows count as seen here, and never against maxObservers). */
  constructor(
    private readonly self: string,
    private readonly limits: TeamRunsLimits = TEAM_LIMITS,
  ) {
    if (limits.maxObservers > MAX_OBSERVER_BITS) throw new RangeError(`at most ${MAX_OBSERVER_BITS} observers`);
  }

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
    let bit = s.observer === this.self ? SELF_BIT : this.others.get(s.observer);
    if (bit === undefined) {
      if (this.others.size >= this.limits.maxObservers) return this.refuse();
      this.others.set(s.observer, (bit = SELF_BIT << (this.others.size + 1)));
    }
    const key = keyOf(s);
    const group = this.groups.get(key);
    if (!group) {
      if (this.runs >= this.limits.maxRuns) return this.refuse();
      this.groups.set(key, [clusterOf(s, bit)]);
      this.runs++;
      return true;
    }
    const end = s.leftAt ?? s.lastSeen;
    let met = -1;
    let meeting = 0;
    for (let i = 0; i < group.length; i++) {
      if (meetsSpan(group[i], s.firstSeen, end)) {
        meeting++;
        met = i;
      }
    }
    if (meeting === 1) {
      absorb(group[met], s, bit);
      return true;
    }
    if (meeting === 0 && (this.runs >= this.limits.maxRuns || group.length >= this.limits.maxPerSync)) {
      return this.refuse();
    }
    const before = group.length;
    mergeInto(group, clusterOf(s, bit), this.limits.maxPerSync);
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

  /** The runs of one sync (copies), for mergeHistory. */
  copiesOf(key: string): Cluster[] | undefined {
    return this.groups.get(key)?.map(copyOf);
  }

  /** Every run (read only). */
  *all(): IterableIterator<[string, readonly Cluster[]]> {
    yield* this.groups;
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
    if (e.leftAt <= e.lastSeen) {
      entries.push(teamEntry(e, true, 1)); // answers at one instant: no absence after the sighting to merge by
      continue;
    }
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
    const c = clusterOf(e, 0);
    c.local = true;
    c.raw = e.raw;
    mergeInto(group, c, Infinity);
  }
  const emit = (c: Cluster) => {
    const selfSaw = c.local || (c.seen & SELF_BIT) !== 0;
    const observers = count(c.seen | (c.local ? SELF_BIT : 0));
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
  return { ...c, absences: [...c.absences] };
}

function teamEntry(e: HistoryEntry | Cluster, seenHere: boolean, observers: number): TeamEntry {
  const leftAt = 'absences' in e ? e.absences[0] : e.leftAt;
  return {
    id: e.id,
    flowId: e.flowId,
    flowName: e.flowName,
    createdAt: e.createdAt,
    firstSeen: e.firstSeen,
    lastSeen: e.lastSeen,
    leftAt,
    duration: durationOf({ createdAt: e.createdAt, firstSeen: e.firstSeen, lastSeen: e.lastSeen, leftAt }),
    raw: e.raw,
    hadErrors: e.hadErrors || itemHasErrors(e.raw),
    seenHere,
    observers,
  };
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
