import { boundedRetryAfter } from '../api/errorAnswers';
import { ApiError, type ApiErrorKind } from '../api/errors';
import type { Item, ListResult } from '../api/types';
import { t } from '../base/l10n';
import type { Clock, TimerHandle } from '../base/clock';
import { Emitter, type Disposable, type Listener } from '../base/events';
import { placeAfter, pollDueAt } from './pollSpread';
import type { ItemHolder } from './windowBudget';

/** Backoff after failures: 5 s doubling to 5 min, with ±20 % jitter so many windows do not retry in step. */
const BACKOFF_BASE_MS = 5_000;
/**
 * How far past the moment the service asked for (Retry-After) a retry may land when the list is not polled: the
 * default refresh interval. A polled list spreads its retries over its own interval.
 */
const RETRY_SPREAD_MS = 30_000;
/** Failures of the way to the service, not of the service: the network may have changed while the window was away. */
const CONNECTION_FAILURES: ReadonlySet<ApiErrorKind> = new Set(['network', 'certificate']);
export const BACKOFF_MAX_MS = 5 * 60_000;

export function backoffDelay(failures: number, random: () => number): number {
  const exponential = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
  const jittered = exponential * (0.8 + 0.4 * random());
  return Math.round(Math.min(BACKOFF_MAX_MS, jittered));
}

/** When to poll on success: a delay in ms, or undefined for "only on demand". Asked again after every attempt. */
export type PollSchedule = (focused: boolean) => number | undefined;

/** The window's budget of items as one list sees it (src/lists/windowBudget.ts), and the error that refuses an answer. */
interface ListBudget extends ItemHolder {
  refusal(count: number): ApiError;
}

/** What a refresher shares with the other lists of its window; none: it is alone (no budget, polls not spread). */
export interface RefresherWindow {
  budget?: ListBudget;
  /**
   * Where within each interval this list polls (src/lists/pollSpread.ts: the window's place plus the service's i/n),
   * each poll moved by a small jitter; undefined: one interval after each answer.
   */
  pollPhase?: () => number | undefined;
}

/** What the views show for one list. Data survives failures: `error` set with `items` still there means stale. */
export interface ListState<T> {
  items?: readonly Item<T>[];
  /** Fingerprint of the body the items came from: an identical answer changes nothing. */
  fingerprint?: string;
  loadedAt?: number;
  dropped: number;
  firstDropReason?: string;
  loading: boolean;
  error?: ApiError;
  /** The error was met by another window (src/sharing/pollLease.ts): shown here, announced there. */
  errorShared?: boolean;
  /** The items are another window's answer (src/sharing/pollLease.ts): news in them is announced there, not here. */
  adopted?: boolean;
  /**
   * The error is the window's budget of items refusing an answer (src/lists/windowBudget.ts): not shared with other
   * windows, whose budgets are their own.
   */
  overBudget?: boolean;
  /** Consecutive failures since the last success. */
  failures: number;
  /** When the next automatic attempt is due, if one is scheduled. */
  nextAttemptAt?: number;
  /**
   * A person's refresh asked for inside a wait the service asked for (Retry-After): kept, and sent when the wait ends,
   * at this moment.
   */
  refreshKeptUntil?: number;
}

/**
 * Why a load asked for from outside (a link, which any web page or program can open) was not sent: automatic refresh
 * is stopped because the service refused the key, a failure's wait (backoff, Retry-After) is running, or the list was
 * asked or answered less than one interval ago.
 */
export type HeldBack = 'keyRefused' | 'waiting' | 'recent';

export interface ListChange {
  /** True when the items differ from the previous state (new data, or data dropped by reset). */
  itemsChanged: boolean;
}

/**
 * Loads one list and keeps it fresh: single flight (a refresh asked during one joins it), polling by schedule and
 * focus, backoff with jitter on failures, Retry-After on rate limiting, and no automatic retry after "unauthorized"
 * until the list is reset (new key or URL). Pure: no vscode, time from the injected Clock.
 */
export class ListRefresher<T> {
  private current: ListState<T> = { dropped: 0, loading: false, failures: 0 };
  private inFlight?: { promise: Promise<void>; controller: AbortController };
  private timer?: TimerHandle;
  /** When the last load of this window started (forgotten by reset: a new key or URL is a new start). */
  private lastAttemptAt?: number;
  /** When the wait the service asked for (Retry-After) ends, from this window's own last failure. */
  private serviceWaitEndsAt?: number;
  /** A refresh kept until the service's wait ends (refreshKeptUntil): its timer and the promise its callers hold. */
  private kept?: { timer: TimerHandle; promise: Promise<void>; resolve: () => void };
  private generation = 0;
  private focused = true;
  private disposed = false;
  private readonly changes: Emitter<ListChange>;

  constructor(
    private readonly load: (signal: AbortSignal) => Promise<ListResult<T>>,
    private readonly clock: Clock,
    private readonly poll: PollSchedule,
    private readonly random: () => number = Math.random,
    /** Told about a listener that threw; the other listeners still run and the load still completes. */
    onListenerError: (error: unknown) => void = () => undefined,
    private readonly window: RefresherWindow = {},
  ) {
    this.changes = new Emitter(onListenerError);
  }

  get state(): Readonly<ListState<T>> {
    return this.current;
  }

  get listenerCount(): number {
    return this.changes.listenerCount;
  }

  get isLoading(): boolean {
    return this.inFlight !== undefined;
  }

  onDidChange(listener: Listener<ListChange>): Disposable {
    return this.changes.event(listener);
  }

  /**
   * Loads now, or joins the load in flight. Inside a wait the service asked for (Retry-After, also one another window
   * was told), nothing is sent: the refresh is kept until the wait ends and loads then (`refreshKeptUntil`). Never
   * rejects: failures land in `state.error`.
   */
  refresh(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.inFlight) return this.inFlight.promise;
    const waitEndsAt = this.serviceWaitEnd();
    if (waitEndsAt !== undefined) return this.keepUntil(waitEndsAt);
    return this.startLoad();
  }

  /** Sends the request (the wait, if any, is over), answering a kept refresh with it. */
  private startLoad(): Promise<void> {
    this.cancelTimer();
    const controller = new AbortController();
    const generation = this.generation;
    this.lastAttemptAt = this.clock.now();
    this.update({ loading: true, refreshKeptUntil: undefined }, false);
    const promise = this.load(controller.signal).then(
      (result) => this.succeeded(generation, result),
      (error: unknown) => this.failed(generation, error),
    );
    this.inFlight = { promise, controller };
    this.dropKept(promise); // a refresh kept for the service's wait is answered by this load
    return promise;
  }

  /**
   * A load asked for by something anyone can trigger (a link): it never sends more than automatic refresh would. It
   * joins a load in flight; it sends nothing after "unauthorized" (automatic refresh waits for a new key), while the
   * wait after a failure runs (backoff, Retry-After, also another window's), or when the last attempt or answer is
   * less than `minIntervalMs` old, however many such asks arrive. Resolves to undefined when a load ran (or was
   * joined), else to why none was sent: the caller answers from what is held and says so.
   */
  async refreshIfDue(minIntervalMs: number): Promise<HeldBack | undefined> {
    if (this.disposed) return 'waiting';
    if (this.inFlight) {
      await this.inFlight.promise;
      return undefined;
    }
    const held = this.holdBack(minIntervalMs);
    if (held) return held;
    await this.refresh();
    return undefined;
  }

  private holdBack(minIntervalMs: number): HeldBack | undefined {
    const { error, nextAttemptAt, loadedAt } = this.current;
    const now = this.clock.now();
    if (error?.kind === 'unauthorized') return 'keyRefused';
    if (error && nextAttemptAt !== undefined && nextAttemptAt > now) return 'waiting';
    const last = Math.max(this.lastAttemptAt ?? -Infinity, loadedAt ?? -Infinity);
    // A time ahead of the clock (the clock was set back) does not hold loads back for however long that was.
    if (last <= now && now - last < minIntervalMs) return 'recent';
    return undefined;
  }

  /** When the wait the service asked for ends, while one runs: this window's own Retry-After, or the planned attempt of another window told to wait. */
  private serviceWaitEnd(): number | undefined {
    const { error, errorShared, nextAttemptAt } = this.current;
    if (error?.kind !== 'rateLimited') return undefined;
    const endsAt = errorShared ? nextAttemptAt : this.serviceWaitEndsAt;
    return endsAt !== undefined && endsAt > this.clock.now() ? endsAt : undefined;
  }

  /** Keeps a refresh until `at` (one for every caller), then loads. */
  private keepUntil(at: number): Promise<void> {
    if (this.kept) return this.kept.promise;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    // Its timer ends the wait: it loads even when the clock reads a millisecond short of `at` (Node's timers and
    // Date.now do not agree to the millisecond), which a second check of the wait would keep for ever.
    const timer = this.clock.setTimeout(() => {
      if (!this.disposed && !this.inFlight) void this.startLoad();
    }, at - this.clock.now());
    this.kept = { timer, promise, resolve };
    this.update({ refreshKeptUntil: at }, false);
    return promise;
  }

  /**
   * Lets go of a kept refresh: its callers resolve when `answeredBy` (a load that runs now) settles, else at once (the
   * list was reset, stopped or disposed: nothing will load for them).
   */
  private dropKept(answeredBy?: Promise<void>): void {
    const kept = this.kept;
    if (!kept) return;
    this.kept = undefined;
    this.clock.clearTimeout(kept.timer);
    if (answeredBy) void answeredBy.then(kept.resolve);
    else kept.resolve();
  }

  /**
   * Forgets data, error and backoff and cancels what is in flight: for a new key, URL or team filter. Loads again at
   * once when `reload` is set (and the list is wanted), else waits for the next refresh().
   */
  reset(reload: boolean): void {
    const c = this.current;
    // A list that holds nothing and does nothing is reset already: no change to tell (a first configure, at activation)
    const pristine =
      c.items === undefined &&
      c.loadedAt === undefined &&
      c.error === undefined &&
      !c.loading &&
      c.failures === 0 &&
      c.nextAttemptAt === undefined &&
      c.dropped === 0;
    this.generation++;
    this.abortInFlight();
    this.cancelTimer();
    this.dropKept();
    this.current = { dropped: 0, loading: false, failures: 0 };
    this.lastAttemptAt = undefined;
    this.serviceWaitEndsAt = undefined;
    if (!pristine) this.emit({ itemsChanged: c.items !== undefined });
    if (reload) void this.refresh();
  }

  /**
   * Takes an answer another window loaded (src/sharing/pollLease.ts) as if this one had loaded it at `loadedAt`: the same
   * state and change events as a load, no request, and the next poll planned from `loadedAt`. Ignored while a load of
   * this window is in flight (its own answer lands next) and when it is not newer than what is held.
   */
  adopt(result: ListResult<T>, loadedAt: number): void {
    if (this.disposed || this.inFlight) return;
    if (this.current.loadedAt !== undefined && loadedAt <= this.current.loadedAt) return;
    const previous = this.current.items;
    const itemsChanged = previous === undefined || result.fingerprint !== this.current.fingerprint;
    if (itemsChanged && this.window.budget && !this.window.budget.fits(result.items.length)) {
      // Over the window's budget: shown like this window's own refusal, over the data held; polls go on as planned.
      this.update(
        { error: this.window.budget.refusal(result.items.length), errorShared: undefined, overBudget: true },
        false,
      );
      return;
    }
    this.cancelTimer();
    this.current = {
      items: itemsChanged ? result.items : previous,
      fingerprint: result.fingerprint,
      loadedAt,
      dropped: result.dropped,
      firstDropReason: result.firstDropReason,
      loading: false,
      failures: 0,
      adopted: true,
    };
    const interval = this.poll(this.focused);
    if (interval !== undefined) {
      const dueAt = Math.max(this.dueAfter(loadedAt, interval), this.clock.now());
      this.current.nextAttemptAt = dueAt;
      this.setTimer(dueAt - this.clock.now());
    }
    this.emit({ itemsChanged });
  }

  /**
   * Takes a failure another window met loading this list at `at` (src/sharing/pollLease.ts): its error shows here, with
   * that window's next attempt, over the data held, which is kept. No request and no backoff of this window's own:
   * it does not poll while the other window holds the lease, and polls on its own schedule if it takes over. Ignored
   * while a load of this window is in flight, and when what this window holds is as new as the failure or newer.
   */
  adoptFailure(error: ApiError, at: number, nextAttemptAt: number | undefined): void {
    if (this.disposed || this.inFlight) return;
    if (this.current.loadedAt !== undefined && at <= this.current.loadedAt) return;
    if (this.current.error && !this.current.errorShared) return; // its own failure, with its own retry plan, stands
    this.update({ error, errorShared: true, overBudget: undefined, nextAttemptAt }, false);
  }

  /** Stops all activity but keeps the data (e.g. the key was removed: show nothing new, send nothing). */
  stop(): void {
    this.generation++;
    this.abortInFlight();
    this.cancelTimer();
    const kept = this.kept !== undefined;
    this.dropKept();
    if (this.current.loading || this.current.nextAttemptAt !== undefined || kept) {
      this.update({ loading: false, nextAttemptAt: undefined, refreshKeptUntil: undefined }, false);
    }
  }

  /** The poll interval that applies now (it depends on focus); undefined when the list is not polled automatically. */
  get pollIntervalMs(): number | undefined {
    return this.poll(this.focused);
  }

  /**
   * Window focus: polls slower (or not at all) while unfocused; on return, loads at once if the data is stale, or if
   * the way to the service failed (network, certificate: the network may have changed) and the last attempt is older
   * than the first backoff step.
   */
  setFocused(focused: boolean): void {
    if (focused === this.focused) return;
    this.focused = focused;
    if (focused && this.connectionFailedAwhileAgo()) void this.refresh();
    else this.planPoll(focused);
  }

  private connectionFailedAwhileAgo(): boolean {
    const { error, errorShared, failures } = this.current;
    if (this.inFlight || failures === 0 || errorShared || !error || !CONNECTION_FAILURES.has(error.kind)) return false;
    return this.lastAttemptAt === undefined || this.clock.now() - this.lastAttemptAt >= BACKOFF_BASE_MS;
  }

  /** The poll schedule changed (settings): re-plan the next automatic load from the last success. */
  reschedule(): void {
    this.planPoll(false);
  }

  /**
   * Plans the next poll from the last success under the current schedule; `loadIfDue` loads at once when that poll
   * is already due. Leaves loads in flight and failure backoff alone.
   */
  private planPoll(loadIfDue: boolean): void {
    if (this.disposed || this.inFlight || this.current.failures > 0 || this.current.loadedAt === undefined) return;
    const interval = this.poll(this.focused);
    if (interval === undefined) {
      this.cancelTimer();
      this.update({ nextAttemptAt: undefined }, false);
      return;
    }
    const dueAt = this.dueAfter(this.current.loadedAt, interval);
    if (loadIfDue && dueAt <= this.clock.now()) void this.refresh();
    else this.scheduleAt(Math.max(dueAt, this.clock.now()));
  }

  dispose(): void {
    this.disposed = true;
    this.generation++;
    this.abortInFlight();
    this.cancelTimer();
    this.dropKept();
    this.window.budget?.hold(0);
    this.changes.dispose();
  }

  /**
   * When the poll after an answer at `loadedAt` is due: one interval later, or at this list's place in the interval
   * with a jitter of up to ±5 % of it (pollDueAt, drawn from the refresher's random).
   */
  private dueAfter(loadedAt: number, interval: number): number {
    const phase = this.window.pollPhase?.();
    return phase === undefined ? loadedAt + interval : pollDueAt(loadedAt, interval, phase, this.random);
  }

  private succeeded(generation: number, result: ListResult<T>): void {
    if (generation !== this.generation) return;
    const previous = this.current.items;
    const itemsChanged = previous === undefined || result.fingerprint !== this.current.fingerprint;
    if (itemsChanged && this.window.budget && !this.window.budget.fits(result.items.length)) {
      this.failed(generation, this.window.budget.refusal(result.items.length), true);
      return;
    }
    this.inFlight = undefined;
    const interval = this.poll(this.focused);
    const now = this.clock.now();
    this.current = {
      items: itemsChanged ? result.items : previous,
      fingerprint: result.fingerprint,
      loadedAt: now,
      dropped: result.dropped,
      firstDropReason: result.firstDropReason,
      loading: false,
      failures: 0,
      nextAttemptAt: interval === undefined ? undefined : this.dueAfter(now, interval),
    };
    if (this.current.nextAttemptAt !== undefined) this.setTimerAt(this.current.nextAttemptAt);
    this.emit({ itemsChanged });
  }

  /** `overBudget`: the answer came, but the window's budget of items refused it (see ListState.overBudget). */
  private failed(generation: number, e: unknown, overBudget = false): void {
    if (generation !== this.generation) return;
    this.inFlight = undefined;
    const error =
      e instanceof ApiError
        ? e
        : new ApiError('invalidResponse', t('Unexpected error: {0}', String((e as Error)?.message ?? e)));
    const failures = this.current.failures + 1;
    const now = this.clock.now();
    this.serviceWaitEndsAt =
      error.kind === 'rateLimited' && error.retryAfterMs !== undefined
        ? now + boundedRetryAfter(error.retryAfterMs)
        : undefined;
    const interval = this.poll(this.focused);
    const phase = this.window.pollPhase?.();
    const delay =
      this.serviceWaitEndsAt !== undefined && interval !== undefined && phase !== undefined
        ? placeAfter(this.serviceWaitEndsAt, interval, phase, this.random) - now
        : retryDelay(error.kind, error.retryAfterMs, failures, this.random, interval ?? RETRY_SPREAD_MS);
    this.update(
      {
        loading: false,
        error,
        errorShared: undefined,
        overBudget: overBudget || undefined,
        failures,
        nextAttemptAt: delay === undefined ? undefined : now + delay,
      },
      false,
    );
    if (this.current.nextAttemptAt !== undefined) this.setTimerAt(this.current.nextAttemptAt);
  }

  private scheduleAt(at: number): void {
    this.setTimer(at - this.clock.now());
    this.update({ nextAttemptAt: at }, false);
  }

  /**
   * A timer due at `at`, the moment the state announced: counted from now, after the listeners of the change that
   * announced it have run (their time must not move it later).
   */
  private setTimerAt(at: number): void {
    this.setTimer(at - this.clock.now());
  }

  private setTimer(delay: number): void {
    this.cancelTimer();
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, delay);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private abortInFlight(): void {
    this.inFlight?.controller.abort();
    this.inFlight = undefined;
  }

  private update(patch: Partial<ListState<T>>, itemsChanged: boolean): void {
    this.current = { ...this.current, ...patch };
    this.emit({ itemsChanged });
  }

  /**
   * Tells the window's budget what the list holds now, then the listeners. Each listener runs on its own (Emitter):
   * one that throws cannot stop the others, nor make refresh() reject.
   */
  private emit(change: ListChange): void {
    this.window.budget?.hold(this.current.items?.length ?? 0);
    this.changes.fire(change);
  }
}

/**
 * Delay before the next automatic attempt after a failure; undefined means "wait for the person" (bad key, a URL this
 * version cannot use). A refused certificate is tried again like a network error: a captive portal or an intercepting
 * proxy goes away when the network changes.
 */
export function retryDelay(
  kind: ApiErrorKind,
  retryAfterMs: number | undefined,
  failures: number,
  random: () => number,
  /** How far past the moment the service asked for the retry may land: the list's poll interval. */
  spreadMs = RETRY_SPREAD_MS,
): number | undefined {
  switch (kind) {
    case 'unauthorized':
    case 'invalidUrl':
    case 'cancelled':
      return undefined;
    case 'rateLimited':
      // Honour the service's Retry-After, within the bounds its message states (a broken header must not stop
      // refreshing for days), never sooner; spread over up to one interval after it, so the windows the service told
      // the same moment (an HTTP date) do not all come back at that moment.
      return retryAfterMs !== undefined
        ? boundedRetryAfter(retryAfterMs) + Math.floor(random() * spreadMs)
        : backoffDelay(failures, random);
    default:
      return backoffDelay(failures, random);
  }
}
