import { API_ERROR_KINDS, ApiError, type ApiErrorKind } from '../api/errors';
import { ANSWER_BOUNDS, boundedJsonText, overBounds, type JsonBounds, type StoredBytes } from '../api/jsonBounds';
import type { Item, ListResult } from '../api/types';
import { validateList } from '../api/validateList';
import { ANY_LISTS, type ListId } from '../lists';
import type { ListDefinition } from '../lists/list';
import { every, type Clock } from '../base/clock';
import { DisposableStore, type Disposable } from '../base/events';
import { pollEvery, type ListSharing } from '../lists/explorer';
import { bounded } from '../base/inert';

/**
 * One poller for all windows (issue #14). Several windows of one VS Code installation share the extension's global
 * storage; for each polled list and context (service origin + team filter) they agree on one window that polls, the
 * holder of a lease, and the others show what it loaded. Pure: no vscode; the files are behind `SharedStore` (the
 * vscode layer: src/sharing/vscode/fileStore.ts; tests and the bench: an in-memory map), time comes from a Clock.
 *
 * Rules (intervalMs = the holder's flowsync.refreshIntervalSeconds):
 * - A window polls only while it holds the lease of its context; until it has read the lease once it polls as before
 *   (so a window alone behaves exactly as without sharing), and if the storage fails it polls on its own too.
 * - The holder renews the heartbeat every intervalMs / 2; a lease runs out 1.5 × intervalMs after its last heartbeat,
 *   then any window takes it over (a window that closed or hangs is replaced within two intervals). A closing window
 *   releases its lease at once.
 * - No window's settings slow another down: a window defers to a holder (and adopts its answers instead of asking)
 *   only while the holder polls at least as often as it would itself (`pollsEvery`: the interval, UNFOCUSED_SLOWDOWN
 *   times longer once the window has been unfocused for one interval); a faster window takes the lease at once, and
 *   the slower holder then defers to it. A focused window thus takes over from a holder of the same interval that has
 *   been unfocused for one interval. Both compare the same figures, so the lease does not go back and forth.
 * - After each answer the window that asked writes a snapshot (the answer's items as the service sent them, its
 *   fingerprint and when it was loaded); every other window checks it every second and adopts it as if it had loaded it
 *   (same change events, no request). A snapshot that would contain the API key is not written.
 * - An answer the same as the snapshot (the same fingerprint: a 304, or the same bytes) is shared by a heartbeat
 *   instead: when it was loaded and its fingerprint, at most MAX_HEARTBEAT_BYTES (#6). A window that holds that answer
 *   takes the new time without reading the snapshot; one that does not (it has just started, or its budget refused the
 *   answer) reads the snapshot. The writer sends a heartbeat only when the snapshot file is still the one it read with
 *   that fingerprint (its stamp): else it writes the snapshot. Each file is whole by itself and replaced atomically,
 *   and one answer writes one of them, never both: a heartbeat that names another answer than the snapshot (a write
 *   that crashed, or raced) is ignored, and the snapshot is taken as it is.
 * - A failed load is shared too (kind, message, the next attempt): the other windows show the same warning over the
 *   data they hold, and only the window that met it notifies. The next answer clears it everywhere. Likewise news in
 *   an answer (a sync no longer processing) is announced by the window that loaded it, not by those that adopted it.
 * - An explicit refresh (a command) always asks the service, in whichever window it runs, once; its answer is shared.
 *   A load that is not explicit (a window's first load, a new filter) uses a snapshot from another window that is newer
 *   than one interval instead of asking.
 *
 * Files per context: coordination/<list>-<hash of list|origin|team>/lease.json, snapshot.json, heartbeat.json and
 * failure.json. They hold the window id (drawn per window), times, the origin and team id, and service data; never the
 * key.
 *
 * The files are input like an answer from the service, and get its bounds (ANSWER_BOUNDS: bytes, objects and arrays,
 * values; then the list's validation: items, depth; a heartbeat has at most MAX_HEARTBEAT_BYTES): the store refuses to
 * read a file over the byte bound, the rest is counted before it is parsed, and a file over them is set aside: ignored
 * (not parsed, not adopted; a lease over them counts as no lease), logged once, and replaced by the next write. A
 * window does not write one over them either.
 */

const LEASE_VERSION = 1;
/** How often a window checks the lease and the snapshot (stat; the snapshot is read only when it changed). */
const WATCH_MS = 1_000;
/** The holder renews every interval × this, and a lease runs out interval × LEASE_FACTOR after its last heartbeat. */
const HEARTBEAT_FACTOR = 0.5;
const LEASE_FACTOR = 1.5;

export interface Lease {
  v: typeof LEASE_VERSION;
  /** The window that polls (an id drawn per window). */
  holder: string;
  /** `list|origin|team`: what the lease is for (never the key). */
  context: string;
  heartbeatAt: number;
  expiresAt: number;
  /** The holder's refresh interval. */
  intervalMs: number;
  /** Since when the holder has been unfocused, if it is. */
  unfocusedSince?: number;
}

export interface Snapshot {
  v: typeof LEASE_VERSION;
  context: string;
  writer: string;
  loadedAt: number;
  fingerprint: string;
  dropped: number;
  firstDropReason?: string;
  /** The items that passed validation, as the service sent them; validated again when read. */
  items: unknown[];
}

/**
 * An answer the same as the snapshot's, as the window that loaded it shares it: when, and the answer's fingerprint
 * (#6). A window that holds the answer with that fingerprint takes the time; the items stay in the snapshot.
 */
export interface AnswerHeartbeat {
  v: typeof LEASE_VERSION;
  context: string;
  writer: string;
  loadedAt: number;
  fingerprint: string;
}

/** The most bytes a heartbeat has (one with a longer context is not written: the snapshot is, as for a new answer). */
export const MAX_HEARTBEAT_BYTES = 1024;
const HEARTBEAT_BOUNDS: JsonBounds = { ...ANSWER_BOUNDS, maxBytes: MAX_HEARTBEAT_BYTES };

/** A load that failed, as the window that met it shares it (the message is ours, with service text made inert). */
export interface SharedFailure {
  v: typeof LEASE_VERSION;
  context: string;
  writer: string;
  at: number;
  kind: Exclude<ApiErrorKind, 'cancelled'>;
  message: string;
  /** When the writer tries again (none after "unauthorized": it waits for a new key). */
  nextAttemptAt?: number;
}

/** The longest failure message a window takes from another (ours are one sentence; the file is input like any other). */
export const MAX_SHARED_MESSAGE = 1_000;

/** Where the files of a context live (a folder name of letters, digits and '-'). */
export type SharedFile = 'lease' | 'snapshot' | 'heartbeat' | 'failure';

/** The shared files, by folder name. Reads resolve undefined for a missing file; writes replace the file whole. */
export interface SharedStore {
  /**
   * The file's bytes; TOO_LARGE, without reading them, when it holds more than `maxBytes` (its size is checked first, or
   * at most maxBytes + 1 bytes are read).
   */
  read(folder: string, file: SharedFile, maxBytes: number): Promise<StoredBytes | undefined>;
  write(folder: string, file: SharedFile, bytes: Uint8Array): Promise<void>;
  /** A token that changes whenever the file is rewritten (e.g. mtime and size), undefined when it is missing. */
  stamp(folder: string, file: SharedFile): Promise<string | undefined>;
}

export function leaseContext(listId: string, origin: string, teamId: string): string {
  return `${listId}|${origin}|${teamId}`;
}

/** The folder of a context: the list id and a 64-bit FNV-1a hash of the context (not a secret; just a safe name). */
export function contextFolder(context: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < context.length; i++) {
    const c = context.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x0100019d) >>> 0;
  }
  const listId = context.slice(0, context.indexOf('|')).replace(/[^a-z0-9]/gi, '');
  return `${listId}-${h1.toString(16).padStart(8, '0')}${h2.toString(16).padStart(8, '0')}`;
}

/** A window that may hold a lease: its id and context, its interval setting, and since when it is unfocused, if it is. */
export interface Contender {
  id: string;
  context: string;
  intervalMs: number;
  unfocusedSince?: number;
}

/**
 * How often a window polls, as the lease rules compare windows: the Explorer's rule (pollEvery), with the window
 * counted as unfocused once it has been for one interval (a short switch to another window does not move the lease).
 */
export function pollsEvery(intervalMs: number, unfocusedSince: number | undefined, now: number): number {
  return pollEvery(intervalMs, unfocusedSince !== undefined && now - unfocusedSince >= intervalMs);
}

/**
 * Whether window `me` may hold (take or keep) the lease `lease` now: no lease, another context, its own, run out
 * (a heartbeat from the future counts as run out, and no lease lasts longer than twice its interval), or a holder
 * that polls less often than `me` would (another window's settings never slow this one down).
 */
export function mayHold(lease: Lease | undefined, me: Contender, now: number): boolean {
  if (!lease || lease.context !== me.context || lease.holder === me.id) return true;
  const expiresAt = Math.min(lease.expiresAt, lease.heartbeatAt + 2 * lease.intervalMs);
  if (now >= expiresAt || lease.heartbeatAt > now + lease.intervalMs) return true;
  return pollsEvery(lease.intervalMs, lease.unfocusedSince, now) > pollsEvery(me.intervalMs, me.unfocusedSince, now);
}

export function parseLease(text: string | undefined): Lease | undefined {
  const o = parseObject(text);
  if (!o || o.v !== LEASE_VERSION) return undefined;
  const { holder, context, heartbeatAt, expiresAt, intervalMs, unfocusedSince } = o;
  if (
    typeof holder !== 'string' ||
    typeof context !== 'string' ||
    !isTime(heartbeatAt) ||
    !isTime(expiresAt) ||
    !isTime(intervalMs) ||
    intervalMs <= 0
  ) {
    return undefined;
  }
  if (unfocusedSince !== undefined && !isTime(unfocusedSince)) return undefined;
  return {
    v: LEASE_VERSION,
    holder,
    context,
    heartbeatAt,
    expiresAt,
    intervalMs,
    ...(unfocusedSince !== undefined ? { unfocusedSince } : {}),
  };
}

export function parseSnapshot(text: string | undefined): Snapshot | undefined {
  const o = parseObject(text);
  const heartbeat = heartbeatOf(o);
  if (!o || !heartbeat) return undefined;
  const { dropped, firstDropReason, items } = o;
  if (
    !isTime(dropped) ||
    (firstDropReason !== undefined && typeof firstDropReason !== 'string') ||
    !Array.isArray(items)
  ) {
    return undefined;
  }
  return { ...heartbeat, dropped, firstDropReason, items };
}

export function parseHeartbeat(text: string | undefined): AnswerHeartbeat | undefined {
  return heartbeatOf(parseObject(text));
}

/** What a snapshot and a heartbeat both say of an answer (its context, writer, time and fingerprint), checked once. */
function heartbeatOf(o: Record<string, unknown> | undefined): AnswerHeartbeat | undefined {
  if (!o || o.v !== LEASE_VERSION) return undefined;
  const { context, writer, loadedAt, fingerprint } = o;
  if (
    typeof context !== 'string' ||
    typeof writer !== 'string' ||
    !isTime(loadedAt) ||
    typeof fingerprint !== 'string'
  ) {
    return undefined;
  }
  return { v: LEASE_VERSION, context, writer, loadedAt, fingerprint };
}

export function parseFailure(text: string | undefined): SharedFailure | undefined {
  const o = parseObject(text);
  if (!o || o.v !== LEASE_VERSION) return undefined;
  const { context, writer, at, kind, message, nextAttemptAt } = o;
  if (typeof context !== 'string' || typeof writer !== 'string' || !isTime(at) || typeof message !== 'string') {
    return undefined;
  }
  if (kind === 'cancelled' || !(API_ERROR_KINDS as readonly unknown[]).includes(kind)) return undefined;
  if (nextAttemptAt !== undefined && !isTime(nextAttemptAt)) return undefined;
  return {
    v: LEASE_VERSION,
    context,
    writer,
    at,
    kind: kind as SharedFailure['kind'],
    message: bounded(message, MAX_SHARED_MESSAGE),
    ...(nextAttemptAt !== undefined ? { nextAttemptAt } : {}),
  };
}

/** A snapshot's answer, validated again by the list's own validator (the file is input like any other). */
function snapshotResult<T extends { id: number }>(
  snapshot: Snapshot,
  list: ListDefinition<T>,
): ListResult<T> | undefined {
  try {
    const result = validateList(snapshot.items, list.validate, list.label());
    return {
      items: result.items,
      dropped: snapshot.dropped + result.dropped,
      firstDropReason: snapshot.firstDropReason ?? result.firstDropReason,
      fingerprint: snapshot.fingerprint,
    };
  } catch {
    return undefined;
  }
}

/** What a list holds as an answer (the refresher's state), when it holds the answer with `fingerprint`. */
function heldAnswer(state: SharedListState, fingerprint: string): ListResult<{ id: number }> | undefined {
  if (state.items === undefined || state.fingerprint !== fingerprint) return undefined;
  return {
    items: state.items as Item<{ id: number }>[],
    dropped: state.dropped ?? 0,
    firstDropReason: state.firstDropReason,
    fingerprint,
  };
}

function parseObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const o: unknown = JSON.parse(text);
    return typeof o === 'object' && o !== null && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** A list's state as the coordinator reads it (the refresher's ListState). */
interface SharedListState {
  readonly items?: readonly Item<unknown>[];
  readonly fingerprint?: string;
  readonly dropped?: number;
  readonly firstDropReason?: string;
  readonly loadedAt?: number;
  readonly error?: ApiError;
  readonly errorShared?: boolean;
  readonly overBudget?: boolean;
  readonly nextAttemptAt?: number;
}

/** What the coordinator needs from the Explorer (it is one; an interface keeps the dependency one-way in tests). */
export interface SharedExplorer {
  readonly status: string;
  /** What the service is kept under (its origin, or its base URL as one of several services). */
  readonly scope: string | undefined;
  readonly teamId: string;
  readonly focused: boolean;
  /** The poll interval while autoRefresh is on (undefined when off), and the interval setting either way. */
  readonly pollSettings: { intervalMs: number; autoRefresh: boolean } | undefined;
  refresher(id: ListId): {
    readonly state: SharedListState;
    adopt(result: ListResult<{ id: number }>, loadedAt: number): void;
    adoptFailure(error: ApiError, at: number, nextAttemptAt: number | undefined): void;
    reschedule(): void;
    onDidChange(listener: () => void): Disposable;
  };
  /** True when `text` contains the API key (any letter case): such a snapshot is not written. */
  mentionsKey(text: string): boolean;
  /** The key, masked in a shared failure message before it is cut. */
  readonly keyToHide?: string;
}

interface ListShare {
  /** The context of the lease (taken, kept or released by the ticks). */
  context?: string;
  /** undefined: not known yet, or the storage failed (the window then polls on its own, as without sharing). */
  holding?: boolean;
  /** The context the files were last read for: what follows is about its files (forgotten when it changes). */
  readFor?: string;
  /** The stamps of the shared files as this window last read them. */
  stamps: { snapshot?: string; heartbeat?: string; failure?: string };
  /**
   * The newest answer another window shared (its snapshot or a heartbeat): its fingerprint and when it was loaded. Not
   * its items: the list holds them, or not (its budget refused them), and they are read again when wanted.
   */
  latest?: { fingerprint: string; loadedAt: number };
  /** The last heartbeat of another window read here. */
  heartbeat?: AnswerHeartbeat;
  /** The snapshot file as this window last read it (any window's): its stamp and its answer's fingerprint. */
  onDisk?: { stamp: string; fingerprint: string };
  /** The last error of this window's own that was shared (one file per failure, not per change event). */
  sharedError?: ApiError;
  writtenFocused?: boolean;
  unfocusedSince?: number;
}

/**
 * One window's side of sharing, for every polled list of the registry: the Explorer's ListSharing (made by the
 * factory given to its constructor). It checks lease and snapshot every WATCH_MS until disposed.
 */
export class PollCoordinator implements ListSharing, Disposable {
  private readonly shares = new Map<ListId, ListShare>();
  /** The timer and the subscriptions to the lists' changes. */
  private readonly disposables = new DisposableStore();
  private ticking = false;
  private disposed = false;
  private writing: Promise<void> = Promise.resolve();
  private problem?: string;
  /** The last shared file set aside (logged once). */
  private setAside?: string;

  constructor(
    private readonly explorer: SharedExplorer,
    private readonly store: SharedStore,
    readonly windowId: string,
    private readonly clock: Clock,
    /** Told about a storage problem or a skipped snapshot (for the log). */
    private readonly log: (message: string) => void = () => undefined,
  ) {
    for (const list of ANY_LISTS) {
      if (!list.polled) continue;
      const id = list.id as ListId;
      const share: ListShare = { stamps: {} };
      this.shares.set(id, share);
      this.disposables.add(explorer.refresher(id).onDidChange(() => this.shareFailure(id, share)));
    }
    this.disposables.add(every(clock, WATCH_MS, () => void this.tick()));
  }

  /** Whether this window holds the lease of a list (undefined: not known yet, or sharing failed). For tests and logs. */
  isHolder(id: ListId): boolean | undefined {
    return this.shares.get(id)?.holding;
  }

  mayPoll(id: ListId): boolean {
    return this.shares.get(id)?.holding !== false;
  }

  async load<T extends { id: number }>(
    list: ListDefinition<T>,
    explicit: boolean,
    request: () => Promise<ListResult<T>>,
  ): Promise<ListResult<T>> {
    const share = this.shares.get(list.id as ListId);
    const context = this.contextOf(list.id as ListId);
    if (!share || !context || this.disposed) return request();
    if (!explicit) {
      const shared = await this.freshShared(list, share, context).catch(() => undefined);
      if (shared) return shared as ListResult<T>; // read for this list: its items passed its validator
    }
    const result = await request();
    if (this.contextOf(list.id as ListId) === context) void this.publish(share, context, result);
    return result;
  }

  /** Checks lease and snapshot of every polled list now (the timer does it every WATCH_MS). */
  async tick(): Promise<void> {
    if (this.ticking || this.disposed) return;
    this.ticking = true;
    try {
      for (const [id, share] of this.shares) await this.tickList(id, share);
    } finally {
      this.ticking = false;
    }
  }

  /** Stops checking and releases the leases this window holds (best effort: a window that closes may not finish). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposables.dispose();
    for (const share of this.shares.values()) if (share.holding && share.context) void this.release(share.context);
  }

  private contextOf(id: ListId): string | undefined {
    const origin = this.explorer.scope;
    return this.explorer.status === 'ready' && origin ? leaseContext(id, origin, this.explorer.teamId) : undefined;
  }

  private async tickList(id: ListId, share: ListShare): Promise<void> {
    const context = this.contextOf(id);
    if (context !== share.context) {
      if (share.holding && share.context) await this.release(share.context);
      share.context = context;
      share.writtenFocused = undefined;
      if (context === undefined) share.readFor = undefined; // back to a context later: its files are read afresh
      this.setHolding(id, share, undefined);
    }
    if (!context) return;
    try {
      await this.watch(id, share, context, true);
      await this.watchFailure(id, share, context);
      await this.contend(id, share, context);
      this.problem = undefined;
    } catch (e) {
      const problem = `Sharing with other windows failed, this window polls on its own: ${(e as Error)?.message ?? e}`;
      if (problem !== this.problem) this.log(problem); // once, not every second
      this.problem = problem;
      this.setHolding(id, share, undefined);
    }
  }

  /**
   * Reads what changed of the shared answer: the heartbeat (small), then the snapshot (the whole list) when it changed
   * or when a heartbeat names an answer this window does not hold. With `adopt`, another window's answer goes into the
   * list: a heartbeat's time only, over the items the list holds, or the snapshot's items. Returns the answer of a
   * snapshot of another window read now (for freshShared).
   */
  private async watch(
    id: ListId,
    share: ListShare,
    context: string,
    adopt: boolean,
  ): Promise<ListResult<{ id: number }> | undefined> {
    const refresher = this.explorer.refresher(id);
    const beat = await this.readChanged(id, share, context, 'heartbeat', parseHeartbeat);
    if (beat && beat.writer !== this.windowId) {
      share.heartbeat = beat;
      this.noteShared(share, beat.fingerprint, beat.loadedAt);
      const held = heldAnswer(refresher.state, beat.fingerprint);
      // An answer not held here (a window just started, or its budget refused it): the snapshot has it, read it again.
      if (!held) share.stamps.snapshot = undefined;
      else if (adopt) refresher.adopt(held, Math.min(beat.loadedAt, this.clock.now()));
    }
    const snapshot = await this.readChanged(id, share, context, 'snapshot', parseSnapshot);
    if (!snapshot) return undefined;
    share.onDisk = { stamp: share.stamps.snapshot!, fingerprint: snapshot.fingerprint };
    if (snapshot.writer === this.windowId) return undefined;
    const list = ANY_LISTS.find((l) => l.id === id);
    const result = list && snapshotResult(snapshot, list);
    if (!result) return undefined;
    const loadedAt = Math.max(
      snapshot.loadedAt,
      share.heartbeat?.fingerprint === snapshot.fingerprint ? share.heartbeat.loadedAt : 0,
    );
    this.noteShared(share, snapshot.fingerprint, loadedAt);
    if (adopt) refresher.adopt(result, Math.min(loadedAt, this.clock.now()));
    return result;
  }

  /** Another window loaded the answer `fingerprint` at `loadedAt`: the newest such is `latest`. */
  private noteShared(share: ListShare, fingerprint: string, loadedAt: number): void {
    if (!share.latest || loadedAt >= share.latest.loadedAt) share.latest = { fingerprint, loadedAt };
  }

  /**
   * Reads the failure file when it changed; shows another window's failure in this one when it is recent (within two
   * intervals: an old file from an earlier session says nothing about now) and newer than any answer known here.
   */
  private async watchFailure(id: ListId, share: ListShare, context: string): Promise<void> {
    const failure = await this.readChanged(id, share, context, 'failure', parseFailure);
    const intervalMs = this.explorer.pollSettings?.intervalMs;
    if (!failure || failure.writer === this.windowId || intervalMs === undefined) return;
    const now = this.clock.now();
    const at = Math.min(failure.at, now);
    if (now - at > 2 * intervalMs || (share.latest && share.latest.loadedAt >= at)) return;
    this.explorer.refresher(id).adoptFailure(new ApiError(failure.kind, failure.message), at, failure.nextAttemptAt);
  }

  /**
   * A shared file of the context, parsed, when it changed since this window last read it (a stat every tick; the read
   * only on a change) and it is for the same context (any window's, this one's too); else undefined.
   */
  private async readChanged<F extends { context: string; writer: string }>(
    id: ListId,
    share: ListShare,
    context: string,
    file: 'snapshot' | 'heartbeat' | 'failure',
    parse: (text: string | undefined) => F | undefined,
  ): Promise<F | undefined> {
    if (share.readFor !== context) {
      share.readFor = context;
      share.stamps = {};
      share.latest = undefined;
      share.heartbeat = undefined;
      share.onDisk = undefined;
    }
    const folder = contextFolder(context);
    const stamp = await this.store.stamp(folder, file);
    if (stamp === undefined || stamp === share.stamps[file]) return undefined;
    const parsed = parse(await this.readText(folder, file, file === 'heartbeat' ? HEARTBEAT_BOUNDS : ANSWER_BOUNDS));
    if (this.contextOf(id) !== context || share.readFor !== context) return undefined;
    share.stamps[file] = stamp;
    return parsed && parsed.context === context ? parsed : undefined;
  }

  /**
   * This window's own failed load of a list: written for the other windows, once per failure. Not an answer this
   * window's budget of items refused: the other windows have budgets of their own.
   */
  private shareFailure(id: ListId, share: ListShare): void {
    const state = this.explorer.refresher(id).state;
    const error = state.error;
    const context = this.contextOf(id);
    if (
      !error ||
      state.errorShared ||
      state.overBudget ||
      error === share.sharedError ||
      error.kind === 'cancelled' ||
      !context ||
      this.disposed
    ) {
      return;
    }
    share.sharedError = error;
    const failure: SharedFailure = {
      v: LEASE_VERSION,
      context,
      writer: this.windowId,
      at: this.clock.now(),
      kind: error.kind,
      message: bounded(error.message, MAX_SHARED_MESSAGE, this.explorer.keyToHide),
      ...(state.nextAttemptAt !== undefined ? { nextAttemptAt: state.nextAttemptAt } : {}),
    };
    const text = JSON.stringify(failure);
    void this.write('The failure', () => this.writeUnlessKey(contextFolder(context), 'failure', text, 'The failure'));
  }

  /**
   * Another window's answer for this context, newer than ours and than one interval, if there is one: the items the
   * list holds when it is the same answer (a heartbeat's), or the snapshot's, read now or read again.
   */
  private async freshShared<T extends { id: number }>(list: ListDefinition<T>, share: ListShare, context: string) {
    const id = list.id as ListId;
    let read = await this.watch(id, share, context, false);
    const latest = share.latest;
    const intervalMs = this.explorer.pollSettings?.intervalMs;
    if (!latest || share.readFor !== context || intervalMs === undefined) return undefined;
    const state = this.explorer.refresher(id).state;
    const now = this.clock.now();
    const fresh = now - latest.loadedAt < intervalMs && latest.loadedAt <= now;
    if (!fresh || (state.loadedAt !== undefined && latest.loadedAt <= state.loadedAt)) return undefined;
    const held = heldAnswer(state, latest.fingerprint);
    if (held) return held;
    if (!read && share.onDisk?.fingerprint === latest.fingerprint) {
      share.stamps.snapshot = undefined; // read before, and not kept: read again
      read = await this.watch(id, share, context, false);
    }
    return read?.fingerprint === latest.fingerprint ? read : undefined;
  }

  /** Takes, keeps or gives up the lease; a window that does not poll (autoRefresh off) gives it up. */
  private async contend(id: ListId, share: ListShare, context: string): Promise<void> {
    const settings = this.explorer.pollSettings;
    const folder = contextFolder(context);
    if (!settings?.autoRefresh) {
      if (share.holding) await this.release(context);
      this.setHolding(id, share, false);
      return;
    }
    const now = this.clock.now();
    const focused = this.explorer.focused;
    if (focused) share.unfocusedSince = undefined;
    else share.unfocusedSince ??= now;
    const lease = parseLease(await this.readText(folder, 'lease'));
    const me: Contender = {
      id: this.windowId,
      context,
      intervalMs: settings.intervalMs,
      unfocusedSince: share.unfocusedSince,
    };
    let holding = mayHold(lease, me, now);
    if (holding) {
      const mine = lease?.holder === this.windowId && lease.context === context;
      const due =
        !mine ||
        now - lease.heartbeatAt >= settings.intervalMs * HEARTBEAT_FACTOR ||
        share.writtenFocused !== focused ||
        lease.intervalMs !== settings.intervalMs;
      if (due) {
        const next: Lease = {
          v: LEASE_VERSION,
          holder: this.windowId,
          context,
          heartbeatAt: now,
          expiresAt: now + settings.intervalMs * LEASE_FACTOR,
          intervalMs: settings.intervalMs,
          ...(share.unfocusedSince !== undefined ? { unfocusedSince: share.unfocusedSince } : {}),
        };
        await this.writeText(folder, 'lease', JSON.stringify(next));
        share.writtenFocused = focused;
        // Two windows may take a free lease at once: the last write wins, and the other steps back here.
        if (!mine) holding = parseLease(await this.readText(folder, 'lease'))?.holder === this.windowId;
      }
    }
    if (this.contextOf(id) === context) this.setHolding(id, share, holding);
  }

  private setHolding(id: ListId, share: ListShare, holding: boolean | undefined): void {
    if (share.holding === holding) return;
    share.holding = holding;
    this.explorer.refresher(id).reschedule();
  }

  private async release(context: string): Promise<void> {
    const folder = contextFolder(context);
    try {
      const lease = parseLease(await this.readText(folder, 'lease'));
      if (lease?.holder !== this.windowId) return;
      await this.writeText(folder, 'lease', JSON.stringify({ ...lease, expiresAt: 0 }));
    } catch {
      // it runs out by itself
    }
  }

  /**
   * Shares this window's answer: a heartbeat when the snapshot file is still the one this window read with the same
   * answer (its stamp and fingerprint), else the snapshot (#6).
   */
  private publish(share: ListShare, context: string, result: ListResult<{ id: number }>): Promise<void> {
    const loadedAt = this.clock.now();
    const folder = contextFolder(context);
    return this.write('The answer', async () => {
      const onDisk = share.readFor === context ? share.onDisk : undefined;
      if (onDisk?.fingerprint === result.fingerprint && (await this.store.stamp(folder, 'snapshot')) === onDisk.stamp) {
        const heartbeat: AnswerHeartbeat = {
          v: LEASE_VERSION,
          context,
          writer: this.windowId,
          loadedAt,
          fingerprint: result.fingerprint,
        };
        const text = JSON.stringify(heartbeat);
        if (new TextEncoder().encode(text).length <= MAX_HEARTBEAT_BYTES) {
          return this.writeUnlessKey(folder, 'heartbeat', text, 'The answer');
        }
      }
      const snapshot: Snapshot = {
        v: LEASE_VERSION,
        context,
        writer: this.windowId,
        loadedAt,
        fingerprint: result.fingerprint,
        dropped: result.dropped,
        ...(result.firstDropReason !== undefined ? { firstDropReason: result.firstDropReason } : {}),
        items: result.items.map((i) => i.raw),
      };
      return this.writeUnlessKey(folder, 'snapshot', JSON.stringify(snapshot), 'The answer');
    });
  }

  /** Runs a write of shared files in order with the other writes; a failure is logged. */
  private write(what: string, step: () => Promise<void>): Promise<void> {
    this.writing = this.writing.then(step).catch((e: unknown) => {
      this.log(`${what} could not be shared with other windows: ${(e as Error)?.message ?? e}`);
    });
    return this.writing;
  }

  /** Writes a shared file, never one that contains the key. */
  private async writeUnlessKey(folder: string, file: SharedFile, text: string, what: string): Promise<void> {
    if (this.explorer.mentionsKey(text)) {
      this.log(`${what} contains the API key: it is not shared with other windows.`);
      return;
    }
    await this.writeText(folder, file, text);
  }

  /** A shared file's text, when it is within `bounds` (an answer's); one over them is set aside (undefined). */
  private async readText(
    folder: string,
    file: SharedFile,
    bounds: JsonBounds = ANSWER_BOUNDS,
  ): Promise<string | undefined> {
    const stored = await this.store.read(folder, file, bounds.maxBytes);
    if (stored === undefined) return undefined;
    const checked = boundedJsonText(stored, bounds);
    if ('text' in checked) return checked.text;
    const kind = file === 'heartbeat' ? 'a heartbeat' : 'an answer from the service';
    const note = `${folder}/${file}.json is over the bounds of ${kind} (${checked.over}): set aside, not used.`;
    if (note !== this.setAside) this.log(note); // once, not every second
    this.setAside = note;
    return undefined;
  }

  /** Writes a shared file whole; refuses one over the bounds its readers apply. */
  private writeText(folder: string, file: SharedFile, text: string): Promise<void> {
    const bytes = new TextEncoder().encode(text);
    const over = overBounds(bytes);
    if (over) return Promise.reject(new Error(`it is over the bounds of an answer from the service (${over})`));
    return this.store.write(folder, file, bytes);
  }
}
