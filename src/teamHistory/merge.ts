import { compareNewestFirst, durationOf, itemHasErrors, type HistoryEntry } from '../history/entry';
import { HISTORY_CAP } from '../history/store';
import { canonicalTime } from '../base/plausibleTime';
import { MAX_ABSENCES, RunTable, type RunFields } from './runTable';
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
 * installations besides this one; a row no honest installation writes (times that are not integers, a run ending
 * before it started or spanning more than MAX_RUN_MS: what readRunRow refuses) is refused too; what a bound refuses is
 * counted. The runs are kept in columns (runTable.ts: about 80 bytes a run), each once however many saw it.
 *
 * The merge is lazy, from the newest end: a run's leftAt after the merge is one of its sightings' absences, so it is
 * at most the latest end of any part of it. mergedNewestFirst walks this window's runs (by leftAt, newest first, as
 * History keeps them) and the team's (by the end of their span, ordered once per change) as two sorted sequences, works out each
 * sync's run when its first part comes, and hands out a run once no part still to come can be newer: the first page
 * of the History view costs that page, not every run. mergeHistory is the same walk to the end (stats, Export, the
 * tools: what needs every run).
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

function pushMerged(group: Cluster[], kept: number, merged: Cluster, maxPerSync: number): boolean {
  group.length = kept;
  if (group.length >= maxPerSync) return false;
  group.push(merged);
  return true;
}

/** The team's sightings of one service, merged as they are read (see the top of this file). */
export class TeamRuns {
  private readonly table: RunTable;
  /** The other installations whose rows are taken, each with its bit. */
  private readonly others = new Map<string, number>();
  private refusedRows = 0;
  /** The live slots by their end, newest first (made again after a change: see newestFirst). */
  private order: SlotOrder | undefined;

  /** `self`: this installation's id (its own rows count as seen here, and never against maxObservers). */
  constructor(
    private readonly self: string,
    private readonly limits: TeamRunsLimits = TEAM_LIMITS,
  ) {
    if (limits.maxObservers > MAX_OBSERVER_BITS) throw new RangeError(`at most ${MAX_OBSERVER_BITS} observers`);
    this.table = new RunTable(limits.maxRuns);
  }

  /** Runs held (each once). */
  get size(): number {
    return this.table.size;
  }

  /** Rows the bounds refused since this was made. */
  get refused(): number {
    return this.refusedRows;
  }

  /** Changes whenever a run held changes (a row read again that changes nothing leaves it): a merge made holds until then. */
  get version(): number {
    return this.table.version;
  }

  /** Bytes the runs' columns hold (not the flow names' texts, kept once per flow). */
  get bytes(): number {
    return this.table.bytes;
  }

  /** Takes one sighting; false (and counted) when a bound refuses it. Idempotent: the same row again changes nothing. */
  add(s: Sighting): boolean {
    const end = s.leftAt ?? s.lastSeen;
    if (!honest(s, end)) return this.refuse();
    let bit = s.observer === this.self ? SELF_BIT : this.others.get(s.observer);
    if (bit === undefined) {
      if (this.others.size >= this.limits.maxObservers) return this.refuse();
      this.others.set(s.observer, (bit = SELF_BIT << (this.others.size + 1)));
    }
    const table = this.table;
    const created = canonicalTime(s.createdAt);
    const group = table.slotsOf(s.id, created, s.createdAt, slotsFound);
    if (group.length === 0) {
      if (table.size >= this.limits.maxRuns) return this.refuse();
      const c = clusterOf(s, bit);
      table.write(table.add(s.id, created, s.createdAt), c, c.absences, c.absences.length);
      return true;
    }
    let met = -1;
    let meeting = 0;
    for (const slot of group) {
      const firstSeen = table.firstSeen(slot);
      const until = table.end(slot);
      if (
        firstSeen <= end &&
        s.firstSeen <= until &&
        Math.max(until, end) - Math.min(firstSeen, s.firstSeen) <= MAX_RUN_MS
      ) {
        meeting++;
        met = slot;
      }
    }
    if (meeting === 1) {
      this.absorb(met, s, bit);
      return true;
    }
    if (meeting === 0 && (table.size >= this.limits.maxRuns || group.length >= this.limits.maxPerSync)) {
      return this.refuse();
    }
    // A new run of the sync, or a row that bridges runs: the rule on the sync's runs as objects, written back.
    const slots = [...group];
    const clusters = slots.map((slot) => this.clusterAt(slot, s.createdAt));
    mergeInto(clusters, clusterOf(s, bit), this.limits.maxPerSync);
    clusters.forEach((c, i) => {
      const slot = i < slots.length ? slots[i] : table.add(s.id, created, s.createdAt);
      table.write(slot, c, c.absences, c.absences.length);
    });
    for (let i = clusters.length; i < slots.length; i++) table.remove(slots[i]);
    return true;
  }

  /** join(run, clusterOf(s, bit)) on the columns: the common case of a row of a run already held. */
  private absorb(slot: number, s: Sighting, bit: number): void {
    const table = this.table;
    const lastSeen = table.lastSeen(slot);
    let flowId = table.flowId(slot);
    let flowName = table.flowName(slot);
    if (
      s.lastSeen > lastSeen ||
      (s.lastSeen === lastSeen && (s.flowName < flowName || (s.flowName === flowName && s.flowId < flowId)))
    ) {
      flowId = s.flowId;
      flowName = s.flowName;
    }
    const latest = Math.max(lastSeen, s.lastSeen);
    const had = table.absences(slot, absences);
    let dropped = 0;
    while (dropped < had && absences[dropped] <= latest) dropped++;
    let n = had - dropped;
    if (dropped) absences.copyWithin(0, dropped, had);
    let added = false;
    const t = s.leftAt;
    if (t !== undefined && t > latest) {
      let i = n;
      while (i > 0 && absences[i - 1] > t) i--;
      if (!(i > 0 && absences[i - 1] === t) && i < MAX_ABSENCES) {
        absences.copyWithin(i + 1, i, n);
        absences[i] = t;
        n = Math.min(n + 1, MAX_ABSENCES);
        added = true;
      }
    }
    const run: RunFields = {
      flowId,
      flowName,
      firstSeen: Math.min(table.firstSeen(slot), s.firstSeen),
      lastSeen: latest,
      end: Math.max(table.end(slot), s.leftAt ?? s.lastSeen),
      seen: table.seen(slot) | bit,
      hadErrors: table.hadErrors(slot) || s.hadErrors,
    };
    const same =
      !added &&
      dropped === 0 &&
      latest === lastSeen &&
      run.firstSeen === table.firstSeen(slot) &&
      run.end === table.end(slot) &&
      run.seen === table.seen(slot) &&
      run.hadErrors === table.hadErrors(slot) &&
      flowId === table.flowId(slot) &&
      flowName === table.flowName(slot);
    if (!same) table.write(slot, run, absences, n); // a row read again changes nothing, and keeps the order made
  }

  /** A run held, as the merge's object (its absences copied out). */
  private clusterAt(slot: number, createdAt: string): Cluster {
    const table = this.table;
    const n = table.absences(slot, absences);
    return {
      id: table.syncId(slot),
      createdAt,
      flowId: table.flowId(slot),
      flowName: table.flowName(slot),
      firstSeen: table.firstSeen(slot),
      lastSeen: table.lastSeen(slot),
      end: table.end(slot),
      absences: Array.from(absences.subarray(0, n)),
      seen: table.seen(slot),
      hadErrors: table.hadErrors(slot),
      local: false,
    };
  }

  /** Forgets the runs whose span ended before `before` (History's days moved on), and compacts what they held. */
  forgetBefore(before: number): void {
    const table = this.table;
    for (let slot = 0; slot < table.slots; slot++) {
      if (table.isLive(slot) && table.end(slot) < before) table.remove(slot);
    }
    table.settle();
  }

  /** The runs of the sync (id, created_at), as objects, for the merge; `done` marks them taken. */
  runsOf(id: number, createdAt: string, done: Set<number>): Cluster[] {
    const group = this.table.slotsOf(id, canonicalTime(createdAt), createdAt, slotsFound);
    const runs: Cluster[] = [];
    for (const slot of group) {
      done.add(slot);
      runs.push(this.clusterAt(slot, createdAt));
    }
    return runs;
  }

  /** The sync of a slot: its id and created_at. */
  syncOf(slot: number): { id: number; createdAt: string } {
    return { id: this.table.syncId(slot), createdAt: this.table.createdAt(slot) };
  }

  /** A slot's span's end: no absence of it is later, so no merged run with it can have left later. */
  endOf(slot: number): number {
    return this.table.end(slot);
  }

  /** The live slots, latest end first: made once after each change (reads that change nothing keep it). */
  newestFirst(): SlotOrder {
    const table = this.table;
    if (this.order?.version !== table.version) this.order = new SlotOrder(table, table.version);
    return this.order;
  }

  private refuse(): false {
    this.refusedRows++;
    return false;
  }
}

/**
 * The live slots of a table by their span's end, latest first, sorted as far as asked: put in buckets of about four
 * by end at once (linear), each bucket sorted when the walk reaches it. The first page costs a pass over the slots,
 * not a sort of them all.
 */
class SlotOrder {
  private readonly slots: Int32Array;
  /** Where each bucket starts in `slots` (the latest ends first), and one past the last. */
  private readonly starts: Int32Array;
  /** Buckets sorted so far. */
  private sortedBuckets = 0;

  constructor(
    private readonly table: RunTable,
    readonly version: number,
  ) {
    const n = table.size;
    const live = new Int32Array(n);
    const ends = new Float64Array(n);
    table.liveEnds(live, ends);
    let lo = Infinity;
    let hi = -Infinity;
    for (let j = 0; j < n; j++) {
      if (ends[j] < lo) lo = ends[j];
      if (ends[j] > hi) hi = ends[j];
    }
    const buckets = Math.max(1, n >> 2);
    const width = (hi - lo) / buckets || 1;
    const bucket = new Int32Array(n);
    const starts = new Int32Array(buckets + 1);
    for (let j = 0; j < n; j++) {
      const b = Math.min(buckets - 1, Math.floor((hi - ends[j]) / width));
      bucket[j] = b;
      starts[b + 1]++;
    }
    for (let b = 0; b < buckets; b++) starts[b + 1] += starts[b];
    const next = Int32Array.from(starts.subarray(0, buckets));
    this.slots = new Int32Array(n);
    for (let j = 0; j < n; j++) this.slots[next[bucket[j]]++] = live[j];
    this.starts = starts;
  }

  get length(): number {
    return this.slots.length;
  }

  /** The slot at place `i` (0: the latest end). */
  at(i: number): number {
    const starts = this.starts;
    while (starts[this.sortedBuckets] <= i) {
      const from = starts[this.sortedBuckets];
      const to = starts[++this.sortedBuckets];
      if (to - from > 1) {
        const part = Array.from(this.slots.subarray(from, to)).sort(
          (a, b) => this.table.end(b) - this.table.end(a) || a - b,
        );
        this.slots.set(part, from);
      }
    }
    return this.slots[i];
  }
}

/**
 * A row within what readRunRow lets through (and a stale answer's absence before the last sighting, which the merge
 * ignores): a safe integer sync id, integer times, first seen ≤ last seen, its span (first seen to its end, and last
 * seen to an earlier end) at most MAX_RUN_MS.
 */
function honest(s: Sighting, end: number): boolean {
  return (
    Number.isSafeInteger(s.id) &&
    Number.isSafeInteger(s.firstSeen) &&
    Number.isSafeInteger(s.lastSeen) &&
    Number.isSafeInteger(end) &&
    s.firstSeen <= s.lastSeen &&
    end - s.firstSeen <= MAX_RUN_MS &&
    s.lastSeen - end <= MAX_RUN_MS &&
    s.lastSeen - s.firstSeen <= MAX_RUN_MS
  );
}

/** Scratch of TeamRuns: the slots of one sync, a run's absences (one more place: an insert shifts them first). */
const slotsFound: number[] = [];
const absences = new Float64Array(MAX_ABSENCES + 1);

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
 * every view of this window shows. A run that only teammates saw has seenHere false. Every run: for what needs them
 * all (stats, the activity chart, Insights, Export, the tools); the History view's rows need only mergeNewest.
 * `local` must not change once handed in (History hands in a new array when its runs change): what the merge needs of
 * it (its order, an index by sync id) is made once per array.
 */
export function mergeHistory(local: readonly HistoryEntry[], team: TeamRuns): MergedHistory {
  const runs = new NewestFirst(local, team);
  const entries: TeamEntry[] = [];
  for (let e = runs.next(); e; e = runs.next()) entries.push(e);
  const open = runs.open.sort((a, b) => b.lastSeen - a.lastSeen || b.id - a.id);
  return { entries, open };
}

/**
 * The first `count` runs of mergeHistory(local, team).entries (newest first), working out only as many runs as they
 * need: the History view's first rows.
 */
export function mergeNewest(local: readonly HistoryEntry[], team: TeamRuns, count: number): TeamEntry[] {
  const runs = new NewestFirst(local, team);
  const entries: TeamEntry[] = [];
  for (
    let e = entries.length < count ? runs.next() : undefined;
    e;
    e = entries.length < count ? runs.next() : undefined
  ) {
    entries.push(e);
  }
  return entries;
}

/**
 * The runs of mergeHistory(local, team).entries one at a time, newest first (a page, then the next): valid while
 * neither `local` nor `team` changes.
 */
export function mergedNewestFirst(local: readonly HistoryEntry[], team: TeamRuns): Iterator<TeamEntry, undefined> {
  const runs = new NewestFirst(local, team);
  return {
    next: () => {
      const value = runs.next();
      return value ? { done: false, value } : { done: true, value: undefined };
    },
  };
}

/** The lazy merge (see the top of this file). */
class NewestFirst {
  /** Runs nobody saw leave, as the walk meets them (all of them once it ended). */
  readonly open: OpenRun[] = [];
  /** The local runs in order of leftAt, newest first: their places in `local` (undefined: `local` is in that order). */
  private readonly localOrder: Int32Array | undefined;
  /** The places (local) and slots (team) taken before the walk reached them (sets: no buffer a call). */
  private readonly localDone = new Set<number>();
  private readonly localIndex: LocalIndex;
  private readonly teamOrder: SlotOrder;
  private readonly teamDone = new Set<number>();
  private nextLocal = 0;
  private nextTeam = 0;
  /** Runs worked out, not handed out yet: a heap, newest on top. */
  private readonly ready: TeamEntry[] = [];

  constructor(
    private readonly local: readonly HistoryEntry[],
    private readonly team: TeamRuns,
  ) {
    this.localIndex = indexOf(local);
    this.localOrder = this.localIndex.order;
    this.teamOrder = team.newestFirst();
  }

  next(): TeamEntry | undefined {
    for (;;) {
      const localAt = this.peekLocal();
      const teamAt = this.peekTeam();
      const localU = localAt < 0 ? -Infinity : this.local[localAt].leftAt;
      const teamU = teamAt < 0 ? -Infinity : this.team.endOf(teamAt);
      const exhausted = localAt < 0 && teamAt < 0;
      const top = this.ready[0];
      // No part still to come can make a run that left later than the top's.
      if (top && (exhausted || top.leftAt > Math.max(localU, teamU))) return this.pop();
      if (exhausted) return undefined;
      if (localAt >= 0 && (teamAt < 0 || localU >= teamU)) this.takeLocal(localAt);
      else this.takeTeam(teamAt);
    }
  }

  /** The next local run not taken yet (its place), or -1. */
  private peekLocal(): number {
    const order = this.localOrder;
    while (this.nextLocal < this.local.length) {
      const at = order ? order[this.nextLocal] : this.nextLocal;
      if (!this.localDone.has(at)) return at;
      this.nextLocal++;
    }
    return -1;
  }

  /** The next team run not taken yet (its slot), or -1. */
  private peekTeam(): number {
    while (this.nextTeam < this.teamOrder.length) {
      const slot = this.teamOrder.at(this.nextTeam);
      if (!this.teamDone.has(slot)) return slot;
      this.nextTeam++;
    }
    return -1;
  }

  private takeLocal(at: number): void {
    const e = this.local[at];
    this.localDone.add(at);
    const runs = e.leftAt <= e.lastSeen ? [] : this.team.runsOf(e.id, e.createdAt, this.teamDone);
    // Answers at one instant (no absence after the sighting to merge by), or a run no teammate has: as it is.
    if (runs.length === 0) this.push(teamEntry(e, true, 1));
    else this.merge(e.id, e.createdAt, runs, at);
  }

  private takeTeam(slot: number): void {
    const { id, createdAt } = this.team.syncOf(slot);
    this.merge(id, createdAt, this.team.runsOf(id, createdAt, this.teamDone), -1);
  }

  /** The sync's team runs with its local runs that can merge (in their order in `local`), each run emitted. */
  private merge(id: number, createdAt: string, group: Cluster[], taken: number): void {
    const places: number[] = taken >= 0 ? [taken] : [];
    const byId = this.localIndex.byId;
    const mask = byId.length - 1;
    for (let at = idHash(id) & mask; byId[at] !== 0; at = (at + 1) & mask) {
      const i = byId[at] - 1;
      const e = this.local[i];
      if (e.id === id && e.createdAt === createdAt && !this.localDone.has(i)) places.push(i);
    }
    places.sort((a, b) => a - b);
    for (const i of places) {
      const e = this.local[i];
      this.localDone.add(i);
      const c = clusterOf(e, 0);
      c.local = true;
      c.raw = e.raw;
      mergeInto(group, c, Infinity);
    }
    for (const c of withOpenFolded(group)) {
      const selfSaw = c.local || (c.seen & SELF_BIT) !== 0;
      const observers = count(c.seen | (c.local ? SELF_BIT : 0));
      if (c.absences.length) this.push(teamEntry(c, selfSaw, observers));
      else this.open.push(openRun(c, selfSaw, observers));
    }
  }

  private push(e: TeamEntry): void {
    const heap = this.ready;
    let i = heap.length;
    heap.push(e);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compareNewestFirst(heap[parent], e) <= 0) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = e;
  }

  private pop(): TeamEntry {
    const heap = this.ready;
    const top = heap[0];
    const last = heap.pop() as TeamEntry;
    if (heap.length) {
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= heap.length) break;
        if (child + 1 < heap.length && compareNewestFirst(heap[child + 1], heap[child]) < 0) child++;
        if (compareNewestFirst(last, heap[child]) <= 0) break;
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}

/** What the merge needs of a local History, made once per array (History hands in a new array when it changes). */
interface LocalIndex {
  /** The places in order of leftAt, newest first; undefined: the array is in that order (as History keeps it). */
  readonly order: Int32Array | undefined;
  /** The runs that can merge (they left after their last sighting), by sync id: place + 1, open addressing. */
  readonly byId: Int32Array;
}

const localIndexes = new WeakMap<readonly HistoryEntry[], LocalIndex>();

/** The local History's LocalIndex: one pass over it (and a sort when it is not newest first). */
function indexOf(local: readonly HistoryEntry[]): LocalIndex {
  let index = localIndexes.get(local);
  if (index) return index;
  let places = 16;
  while (places * 0.8 < local.length) places *= 2;
  const mask = places - 1;
  const byId = new Int32Array(places);
  let sorted = true;
  let previous = Infinity;
  for (let i = 0; i < local.length; i++) {
    const e = local[i];
    const leftAt = e.leftAt;
    if (leftAt > previous) sorted = false;
    previous = leftAt;
    if (leftAt <= e.lastSeen) continue;
    let at = idHash(e.id) & mask;
    while (byId[at] !== 0) at = (at + 1) & mask;
    byId[at] = i + 1;
  }
  const order = sorted
    ? undefined
    : Int32Array.from(Array.from(local.keys()).sort((a, b) => local[b].leftAt - local[a].leftAt || a - b));
  localIndexes.set(local, (index = { order, byId }));
  return index;
}

/** A sync id's hash, for the local runs' index. */
function idHash(id: number): number {
  const h = Math.imul((id >>> 0) ^ Math.imul(Math.floor(id / 4294967296) | 0, 0x27d4eb2d), 0x9e3779b1);
  return h ^ (h >>> 15);
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
    // A local run the team has no part of keeps its duration (the same fields give the same).
    duration:
      'absences' in e
        ? durationOf({ createdAt: e.createdAt, firstSeen: e.firstSeen, lastSeen: e.lastSeen, leftAt })
        : e.duration,
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
