/** The least time between two announcements of one service: what becomes news meanwhile is said together. */
export const QUIET_MS = 5 * 60_000;
/**
 * How long a run is remembered after it was last seen: a list that drops it for a while (a flapping answer, a failed
 * poll, a partial page) does not make it new again. A sync id is one run: it never comes back once the run has really
 * ended, so this only bounds memory.
 */
export const GRACE_MS = 60 * 60_000;
/** The most runs remembered (the longest processing list a service may answer): the oldest seen are forgotten first. */
const MAX_REMEMBERED = 100_000;

/**
 * "Say it once, then keep quiet for a while", for one service, pure (time given by the caller): the one announcer of
 * syncs that became stuck (stuckAnnouncer.ts) and of processing syncs that report errors (errorAnnouncer.ts). It
 * remembers each run seen (`see`) until GRACE_MS after it was last seen, and at most MAX_REMEMBERED, the oldest seen
 * forgotten first (`forget`); holds what is news (`hold`); and says what it holds (`say`) at most once per QUIET_MS,
 * only the runs still listed: the others stay held, and are said if they are seen again before they are forgotten.
 * What is news, and how it is said, is each use's own.
 */
export class QuietAnnouncer<T extends { readonly id: number }> {
  /** Run id -> when it was last seen (ms), oldest first (re-inserted when seen again). */
  private readonly seen = new Map<number, number>();
  /** Runs to say that were not said yet (the quiet period was on), by id, in the order held. */
  private readonly held = new Map<number, T>();
  private lastSaid = -Infinity;

  /** How many runs are remembered (for tests: memory stays bounded). */
  get remembered(): number {
    return this.seen.size;
  }

  /** Whether a run is remembered (seen within GRACE_MS). */
  knows(id: number): boolean {
    return this.seen.has(id);
  }

  /** A run listed now: remembered as seen now. True when it is new (not remembered until now). */
  see(id: number, now: number): boolean {
    const fresh = !this.seen.delete(id); // re-inserted: the map stays ordered by last seen
    this.seen.set(id, now);
    return fresh;
  }

  /** A run to say (when the quiet period allows). */
  hold(run: T): void {
    this.held.set(run.id, run);
  }

  isHeld(id: number): boolean {
    return this.held.has(id);
  }

  /** Drops every run held (none is to be said any more), and gives them. */
  release(): T[] {
    const runs = [...this.held.values()];
    this.held.clear();
    return runs;
  }

  /** Forgets the runs last seen more than GRACE_MS ago, and the oldest beyond MAX_REMEMBERED. */
  forget(now: number): void {
    for (const [id, at] of this.seen) {
      // A clock that went back counts as now: only a run not seen for the grace period is forgotten.
      if (now - at <= GRACE_MS && this.seen.size <= MAX_REMEMBERED) break;
      this.seen.delete(id);
      this.held.delete(id);
    }
  }

  /**
   * The runs held that are listed now (`listed`), in the order held, when the quiet period is over: said now, no longer
   * held. Undefined when there is nothing to say now (nothing held and listed, or within QUIET_MS of the last saying).
   */
  say(listed: (id: number) => boolean, now: number): T[] | undefined {
    if (this.held.size === 0 || now - this.lastSaid < QUIET_MS) return undefined;
    const fresh = [...this.held.values()].filter((run) => listed(run.id));
    if (fresh.length === 0) return undefined;
    for (const run of fresh) this.held.delete(run.id);
    this.lastSaid = now;
    return fresh;
  }
}
