import type { FlowSync } from '../api/types';
import { bounded, inert } from '../base/inert';
import { t } from '../base/l10n';
import { flowLabel } from '../lists/grouping';
import type { NotifyMode } from '../settings/settingValues';
import { MAX_CREATED_AT } from './entry';
import { QuietAnnouncer } from './quietAnnouncer';
/**
 * How often the runs listed with errors again are handed to the memory to be kept marked (AnnouncedMemory.keep): far
 * within the time a mark is written again (12 h), so a poll costs the new runs only, not every run listed.
 */
const KEEP_EVERY_MS = 60 * 60_000;

/** A run of one service: its sync id and created_at as the service sent it (bounded, the key masked). */
export interface RunRef {
  readonly id: number;
  readonly createdAt: string;
}

/** What the announcer needs of the runs remembered (src/notifications/announcedRuns.ts; tests may give their own). */
export interface AnnouncedMemory {
  /** Reads what the windows marked since the last read (bounded). Never rejects: a failure is logged, not thrown. */
  refresh(): Promise<void>;
  /** Whether a window (this one, an earlier life of it, another) dealt with the run's errors, as last read. */
  has(run: RunRef): boolean;
  /** Remembers that the runs' errors were dealt with now (written in the background, in order). */
  mark(runs: readonly RunRef[]): void;
  /**
   * The runs are still listed with errors and not news: a mark about to run out is written again, a missing one (a run
   * first seen in another window's answer) written; the others cost nothing.
   */
  keep(runs: readonly RunRef[]): void;
}

/** A sync's run as remembered: its id and its created_at, bounded, with the key masked (as History keeps it). */
export function runOf(sync: { readonly id: number; readonly created_at: string }, hide?: string): RunRef {
  return { id: sync.id, createdAt: bounded(String(sync.created_at ?? ''), MAX_CREATED_AT, hide) };
}

/** One look at a service's Processing list (a successful answer, this window's or one another window polled). */
export interface ErrorsPoll {
  /** The syncs processing now, as the service listed them. */
  readonly processing: readonly FlowSync[];
  /** `flowsync.notifyOnErrors`. */
  readonly mode: NotifyMode;
  /** Whether the person watches a sync (itself or its flow): what `watched` announces. */
  readonly watched: (sync: FlowSync) => boolean;
  /** Another window polled it (src/sharing/pollLease.ts): remembered here, said there (one notification, not one per window). */
  readonly adopted: boolean;
  /** The service's name when there are several (user text: made inert here). */
  readonly service?: string;
  /** The runs whose errors were dealt with, on disk (src/notifications/announcedRuns.ts); none: this window's memory only. */
  readonly memory?: AnnouncedMemory;
}

/** What to say: the text (inert: service text in it is never markup) and the syncs it is about (newest id first). */
export interface ErrorsAnnouncement {
  readonly text: string;
  readonly syncs: readonly FlowSync[];
}

/**
 * Says that processing syncs report errors (`errors` not null: it turned, or the sync came with them), for one
 * service, pure (time from `now`):
 * - each sync (a run: an id never comes back once it ended) at most once, the first time it is seen with errors, by
 *   the window whose poll saw it; every window remembers what it saw, so a window that takes over the polling does not
 *   say it again; a sync seen with errors while it was not to be said (`off`, another window's poll) is remembered as
 *   seen and never said later;
 * - in `watched`, a sync with errors that is not watched is not dealt with: it waits (unmarked) and is said at the first
 *   answer that lists it once it is watched (itself or its flow), or once the mode is `all`; `off` drops it. A window
 *   that adopted another's answers (with the memory) keeps what it saw waiting too: when it polls itself, a run the
 *   memory does not know is judged as new, so a watch made after the poller's window closed is still said;
 * - with the poll's `memory` (the runs dealt with, on disk: src/notifications/announcedRuns.ts), beyond this window's
 *   life and across the windows of the profile: a run said, or seen with errors while it was not to be said, by this
 *   window is marked there (by the window that polled: an adopted answer marks nothing); a run marked there is not
 *   news (a reload, a restart, a window whose first answer was its own). A run held in the quiet period is marked when
 *   it is said (or dropped by `off`): a reload before then says it. Runs still listed are kept marked (`keep`);
 * - at most one announcement per QUIET_MS (the quiet announcer, quietAnnouncer.ts, as for stuck syncs): syncs that get errors meanwhile are said together when it ends (on
 *   the first poll after it that still lists them), "3 syncs of Production report errors";
 * - memory stays bounded: a sync not seen with errors for GRACE_MS is forgotten, and the oldest beyond a bound.
 * nextWithMemory() reads the memory before it decides, when the poll lists a sync with errors that neither this window
 * nor the memory as last read knows (the first answer, a new run): a poll with nothing new touches no file.
 */
export class ErrorAnnouncer {
  /** The syncs seen with errors, and those to say that were not said yet (the quiet period was on). */
  private readonly runs = new QuietAnnouncer<FlowSync>();
  /** Syncs seen with errors and not dealt with: not watched in `watched`, or seen in another window's poll (by id). */
  private readonly waiting = new Set<number>();
  /** The polls of nextWithMemory(), one after another. */
  private queue: Promise<unknown> = Promise.resolve();
  /** When the runs listed again were last handed to the memory (keep). */
  private lastKept = -Infinity;

  /** `keyToHide`: the API key, masked in a flow name before it is cut (a service may echo it). `now`: the clock (ms). */
  constructor(
    private readonly now: () => number,
    private readonly keyToHide: () => string | undefined = () => undefined,
  ) {}

  /** How many syncs are remembered (for tests: memory stays bounded). */
  get remembered(): number {
    return this.runs.remembered;
  }

  /**
   * next(), after the poll's memory has read what the windows marked since, when the poll lists a sync with errors that
   * is new to this window and to the memory as last read, or the runs listed again are due to be kept marked (so it
   * does not mark again what another window marked). A poll another window made is not judged here: nothing is read.
   * Polls are taken one after another, in the order given.
   */
  nextWithMemory(poll: ErrorsPoll): Promise<ErrorsAnnouncement | undefined> {
    const next = this.queue.then(async () => {
      if (poll.memory && !poll.adopted && (this.keepDue(this.now()) || this.unknown(poll))) {
        await poll.memory.refresh();
      }
      return this.next(poll);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Whether the poll lists a sync with errors that neither this window nor the poll's memory knows, or one waiting
   * that is to be said now.
   */
  private unknown(poll: ErrorsPoll): boolean {
    const hide = this.keyToHide();
    return poll.processing.some(
      (sync) =>
        hasErrors(sync) &&
        (!this.runs.knows(sync.id) || (this.waiting.has(sync.id) && wanted(poll, sync))) &&
        !poll.memory?.has(runOf(sync, hide)),
    );
  }

  /** The Processing list now; what to announce, or undefined when there is nothing new to say now. */
  next(poll: ErrorsPoll): ErrorsAnnouncement | undefined {
    const now = this.now();
    const memory = poll.adopted ? undefined : poll.memory; // the window that polled marks, not those that adopt
    const hide = memory && this.keyToHide();
    const withErrors = new Map<number, FlowSync>();
    /** Runs dealt with by this poll (said, or not to be said): marked in the memory. */
    const dealt: RunRef[] = [];
    /** Runs listed with errors again: kept marked (once per KEEP_EVERY_MS). */
    const again: RunRef[] = [];
    const keep = memory !== undefined && this.keepDue(now);
    for (const sync of poll.processing) {
      if (!hasErrors(sync)) continue;
      withErrors.set(sync.id, sync);
      const fresh = this.runs.see(sync.id, now);
      const waits = this.waiting.has(sync.id);
      if (!fresh && !waits) {
        if (keep && !this.runs.isHeld(sync.id)) again.push(runOf(sync, hide));
        continue;
      }
      if (poll.adopted) {
        if (fresh && poll.memory) this.waiting.add(sync.id); // judged when this window polls (the memory decides)
        continue;
      }
      const want = wanted(poll, sync);
      if (waits && !want && poll.mode === 'watched') continue; // still not watched
      this.waiting.delete(sync.id);
      const run = memory && runOf(sync, hide);
      if (run && memory.has(run)) {
        if (keep) again.push(run); // dealt with before (a reload, another window): not news
      } else if (want) {
        this.runs.hold(sync);
      } else if (poll.mode === 'watched') {
        this.waiting.add(sync.id); // not watched yet: said once it is
      } else if (run) {
        dealt.push(run);
      }
    }
    this.runs.forget(now);
    for (const id of this.waiting) if (!this.runs.knows(id)) this.waiting.delete(id); // forgotten with its run
    if (poll.mode === 'off') {
      const dropped = this.runs.release();
      if (memory) for (const sync of dropped) dealt.push(runOf(sync, hide));
    }
    const said = this.say(poll, withErrors, now);
    if (memory) {
      for (const sync of said?.syncs ?? []) dealt.push(runOf(sync, hide));
      memory.mark(dealt);
      if (keep) {
        memory.keep(again);
        this.lastKept = now;
      }
    }
    return said;
  }

  /** Whether the runs listed again are due to be handed to the memory (a clock that went back counts as due). */
  private keepDue(now: number): boolean {
    return !(now - this.lastKept < KEEP_EVERY_MS && now >= this.lastKept);
  }

  /** The held syncs still listed, when the quiet period is over (this window's poll only). */
  private say(poll: ErrorsPoll, withErrors: ReadonlyMap<number, FlowSync>, now: number) {
    if (poll.adopted) return undefined;
    // Held syncs no longer listed (they left, or the list dropped them for a poll) stay held, said if seen again.
    const held = this.runs.say((id) => withErrors.has(id), now);
    if (!held) return undefined;
    const fresh = held.flatMap((sync) => withErrors.get(sync.id) ?? []); // as listed now
    fresh.sort((a, b) => b.id - a.id);
    return { text: this.textOf(fresh, poll.service), syncs: fresh };
  }

  private textOf(syncs: readonly FlowSync[], service: string | undefined): string {
    const name = service === undefined ? undefined : inert(service, 80, this.keyToHide());
    if (syncs.length > 1) {
      return name === undefined
        ? t('{0} syncs report errors', syncs.length)
        : t('{0} syncs of {1} report errors', syncs.length, name);
    }
    const flow = inert(flowLabel(syncs[0]), 80, this.keyToHide());
    return name === undefined
      ? t('Sync #{0} ({1}) reports errors', syncs[0].id, flow)
      : t('{0}: Sync #{1} ({2}) reports errors', name, syncs[0].id, flow);
  }
}

function hasErrors(sync: FlowSync): boolean {
  return sync.errors !== null && sync.errors !== undefined;
}

function wanted(poll: ErrorsPoll, sync: FlowSync): boolean {
  return poll.mode === 'all' || (poll.mode === 'watched' && poll.watched(sync));
}
