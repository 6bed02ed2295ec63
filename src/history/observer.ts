import type { FlowSync, Item, ListResult } from '../api/types';
import { bounded } from '../base/inert';
import { MAX_CREATED_AT, boundedRaw, flowNameOf, itemHasErrors, makeEntry, type HistoryEntry } from './entry';

/** A sync the observer saw in a processing answer and has not seen leave yet. */
export interface Tracked {
  /** The latest value the service sent. */
  readonly sync: FlowSync;
  readonly raw: Readonly<Record<string, unknown>>;
  readonly firstSeen: number;
  readonly lastSeen: number;
}

/** A successful processing answer. `complete` is false for a partial one (items were dropped by validation). */
export interface ProcessingAnswer {
  readonly items: readonly Item<FlowSync>[];
  readonly complete: boolean;
}

/** What one answer changed: the syncs that left processing (newest id first), and the ids that showed up again. */
export interface Observation {
  readonly left: HistoryEntry[];
  readonly returned: number[];
}

/** A list call's result as the observer takes it: complete only when nothing was dropped. */
export function processingAnswer(result: Pick<ListResult<FlowSync>, 'items' | 'dropped'>): ProcessingAnswer {
  return { items: result.items, complete: result.dropped === 0 };
}

/** Ids remembered as "left in this observation", so one that shows up again is reported; a bound, oldest forgotten. */
const MAX_DEPARTED = 10_000;

interface MutableTracked {
  sync: FlowSync;
  raw: Readonly<Record<string, unknown>>;
  /** Listed with errors at any poll of the run so far. */
  hadErrors: boolean;
  firstSeen: number;
  lastSeen: number;
}

/**
 * Watches successful processing answers and says which syncs left processing. Pure: time comes with each answer.
 *
 * - Every id in an answer gets first-seen and last-seen times (a partial answer's items count: they are processing).
 * - An id missing from a later successful, *complete* answer of the same context left processing at that answer.
 *   A failed poll is simply not observed (or observed as `{ items: [], complete: false }`): it writes nothing.
 * - A new context (the service URL or the team filter changed: `context` names them, never the key), `restart()` (the
 *   key changed), or a clock that went backwards restarts observation: nothing is written, the answer is the first.
 * - An id that shows up again after it left is processing again: a new run, whose leaving is a second entry.
 * `hide` gives the key in use: masked in an entry's texts before they are cut.
 */
export class ProcessingObserver {
  constructor(private readonly hide: () => string | undefined = () => undefined) {}

  private ctx: string | undefined;
  private lastAt: number | undefined;
  private readonly seen = new Map<number, MutableTracked>();
  private readonly departed = new Map<number, true>();

  /** The context of the current observation, if any. */
  get context(): string | undefined {
    return this.ctx;
  }

  /** The syncs seen processing and not seen leaving. */
  get tracked(): ReadonlyMap<number, Tracked> {
    return this.seen;
  }

  /** Forgets everything and starts observing `context` afresh; writes nothing. */
  restart(context: string): void {
    this.ctx = context;
    this.lastAt = undefined;
    this.seen.clear();
    this.departed.clear();
  }

  /** Takes one successful answer received at `at` (ms) for `context`. */
  observe(context: string, at: number, answer: ProcessingAnswer): Observation {
    if (context !== this.ctx || (this.lastAt !== undefined && at < this.lastAt)) this.restart(context);
    this.lastAt = at;
    const returned: number[] = [];
    const present = new Set<number>();
    for (const item of answer.items) {
      const id = item.value.id;
      present.add(id);
      const known = this.seen.get(id);
      if (known) {
        known.sync = item.value;
        known.raw = item.raw;
        known.hadErrors ||= itemHasErrors(item.raw);
        known.lastSeen = at;
      } else {
        this.seen.set(id, {
          sync: item.value,
          raw: item.raw,
          hadErrors: itemHasErrors(item.raw),
          firstSeen: at,
          lastSeen: at,
        });
        if (this.departed.delete(id)) returned.push(id);
      }
    }
    if (!answer.complete) return { left: [], returned };
    const left: HistoryEntry[] = [];
    for (const [id, tracked] of this.seen) {
      if (present.has(id)) continue;
      left.push(entryOf(tracked, at, this.hide()));
      this.seen.delete(id);
      this.departed.set(id, true);
    }
    while (this.departed.size > MAX_DEPARTED) this.departed.delete(this.departed.keys().next().value as number);
    left.sort((a, b) => b.id - a.id);
    return { left, returned };
  }
}

function entryOf(tracked: MutableTracked, leftAt: number, hide: string | undefined): HistoryEntry {
  const s = tracked.sync;
  const raw = boundedRaw(tracked.raw);
  return makeEntry({
    id: s.id,
    flowId: s.flow_id,
    flowName: flowNameOf(s, hide),
    createdAt: bounded(s.created_at, MAX_CREATED_AT, hide),
    firstSeen: tracked.firstSeen,
    lastSeen: tracked.lastSeen,
    leftAt,
    raw,
    hadErrors: tracked.hadErrors,
  });
}
