import { API_ERROR_KINDS, ApiError, type ApiErrorKind } from '../api/errors';
import { ANSWER_BOUNDS, boundedJsonText, overBounds, type StoredBytes } from '../api/jsonBounds';
import type { ListResult } from '../api/types';
import { validateList } from '../api/validate';
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
 * - A failed load is shared too (kind, message, the next attempt): the other windows show the same warning over the
 *   data they hold, and only the window that met it notifies. The next answer clears it everywhere. Likewise news in
 *   an answer (a sync no longer processing) is announced by the window that loaded it, not by those that adopted it.
 * - An explicit refresh (a command) always asks the service, in whichever window it runs, once; its answer is shared.
 *   A load that is not explicit (a window's first load, a new filter) uses a snapshot from another window that is newer
 *   than one interval instead of asking.
 *
 * Files per context: coordination/<list>-<hash of list|origin|team>/lease.json, snapshot.json and failure.json. They hold the window
 * id (drawn per window), times, the origin and team id, and service data; never the key.
 *
 * The files are input like an answer from the service, and get its bounds (ANSWER_BOUNDS: bytes, objects and arrays,
 * values; then the list's validation: items, depth): the store refuses to read a file over the byte bound, the rest is
 * counted before it is parsed, and a file over them is set aside: ignored (not parsed, not adopted; a lease over them
 * counts as no lease), logged once, and replaced by the next write. A window does not write one over them either.
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
export type SharedFile = 'lease' | 'snapshot' | 'failure';

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
  if (!o || o.v !== LEASE_VERSION) return undefined;
  const { context, writer, loadedAt, fingerprint, dropped, firstDropReason, items } = o;
  if (
    typeof context !== 'string' ||
    typeof writer !== 'string' ||
    !isTime(loadedAt) ||
    typeof fingerprint !== 'string'
  ) {
    return undefined;
  }
  if (
    !isTime(dropped) ||
    (firstDropReason !== undefined && typeof firstDropReason !== 'string') ||
    !Array.isArray(items)
  ) {
    return undefined;
  }
  return { v: LEASE_VERSION, context, writer, loadedAt, fingerprint, dropped, firstDropReason, items };
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
    readonly state: {
      readonly loadedAt?: number;
      readonly error?: ApiError;
      readonly errorShared?: boolean;
      readonly overBudget?: boolean;
      readonly nextAttemptAt?: number;
    };
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
  context?: string;
  /** undefined: not known yet, or the storage failed (the window then polls on its own, as without sharing). */
  holding?: boolean;
  /** The stamps of the shared files as this window last read them. */
  stamps: { snapshot?: string; failure?: string };
  latest?: { snapshot: Snapshot; result: ListResult<{ id: number }> };
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
      if (shared) return shared as unknown as ListResult<T>;
    }
    const result = await request();
    if (this.contextOf(list.id as ListId) === context) void this.publish(context, result);
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
      share.stamps = {};
      share.latest = undefined;
      share.writtenFocused = undefined;
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

  /** Reads the snapshot when it changed; adopts one from another window into the list (`adopt`). */
  private async watch(id: ListId, share: ListShare, context: string, adopt: boolean): Promise<void> {
    const snapshot = await this.readChanged(id, share, context, 'snapshot', parseSnapshot);
    if (!snapshot) return;
    const list = ANY_LISTS.find((l) => l.id === id);
    const result = list && snapshotResult(snapshot, list);
    if (!result) return;
    share.latest = { snapshot, result };
    if (adopt) this.explorer.refresher(id).adopt(result, Math.min(snapshot.loadedAt, this.clock.now()));
  }

  /**
   * Reads the failure file when it changed; shows another window's failure in this one when it is recent (within two
   * intervals: an old file from an earlier session says nothing about now) and newer than any answer known here.
   */
  private async watchFailure(id: ListId, share: ListShare, context: string): Promise<void> {
    const failure = await this.readChanged(id, share, context, 'failure', parseFailure);
    const intervalMs = this.explorer.pollSettings?.intervalMs;
    if (!failure || intervalMs === undefined) return;
    const now = this.clock.now();
    const at = Math.min(failure.at, now);
    if (now - at > 2 * intervalMs || (share.latest && share.latest.snapshot.loadedAt >= at)) return;
    this.explorer.refresher(id).adoptFailure(new ApiError(failure.kind, failure.message), at, failure.nextAttemptAt);
  }

  /**
   * A shared file of the context, parsed, when it changed since this window last read it (a stat every tick; the read
   * only on a change) and another window wrote it for the same context; else undefined.
   */
  private async readChanged<F extends { context: string; writer: string }>(
    id: ListId,
    share: ListShare,
    context: string,
    file: 'snapshot' | 'failure',
    parse: (text: string | undefined) => F | undefined,
  ): Promise<F | undefined> {
    const folder = contextFolder(context);
    const stamp = await this.store.stamp(folder, file);
    if (stamp === undefined || stamp === share.stamps[file]) return undefined;
    const parsed = parse(await this.readText(folder, file));
    if (this.contextOf(id) !== context) return undefined;
    share.stamps[file] = stamp;
    return parsed && parsed.context === context && parsed.writer !== this.windowId ? parsed : undefined;
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
    void this.write(context, 'failure', JSON.stringify(failure), 'The failure');
  }

  /** Another window's answer for this context, newer than ours and than one interval, if there is one. */
  private async freshShared<T extends { id: number }>(list: ListDefinition<T>, share: ListShare, context: string) {
    const id = list.id as ListId;
    if (share.context !== context) share.stamps.snapshot = undefined;
    await this.watch(id, share, context, false);
    const latest = share.latest;
    const intervalMs = this.explorer.pollSettings?.intervalMs;
    if (!latest || latest.snapshot.context !== context || intervalMs === undefined) return undefined;
    const loadedAt = this.explorer.refresher(id).state.loadedAt;
    const now = this.clock.now();
    const fresh = now - latest.snapshot.loadedAt < intervalMs && latest.snapshot.loadedAt <= now;
    return fresh && (loadedAt === undefined || latest.snapshot.loadedAt > loadedAt) ? latest.result : undefined;
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

  private publish(context: string, result: ListResult<{ id: number }>): Promise<void> {
    const snapshot: Snapshot = {
      v: LEASE_VERSION,
      context,
      writer: this.windowId,
      loadedAt: this.clock.now(),
      fingerprint: result.fingerprint,
      dropped: result.dropped,
      ...(result.firstDropReason !== undefined ? { firstDropReason: result.firstDropReason } : {}),
      items: result.items.map((i) => i.raw),
    };
    return this.write(context, 'snapshot', JSON.stringify(snapshot), 'The answer');
  }

  /** Writes a shared file in order with the other writes; never one that contains the key. */
  private write(context: string, file: SharedFile, text: string, what: string): Promise<void> {
    if (this.explorer.mentionsKey(text)) {
      this.log(`${what} contains the API key: it is not shared with other windows.`);
      return this.writing;
    }
    this.writing = this.writing.then(() =>
      this.writeText(contextFolder(context), file, text).catch((e: unknown) =>
        this.log(`${what} could not be shared with other windows: ${(e as Error)?.message ?? e}`),
      ),
    );
    return this.writing;
  }

  /** A shared file's text, when it is within the bounds of an answer; one over them is set aside (undefined). */
  private async readText(folder: string, file: SharedFile): Promise<string | undefined> {
    const stored = await this.store.read(folder, file, ANSWER_BOUNDS.maxBytes);
    if (stored === undefined) return undefined;
    const checked = boundedJsonText(stored);
    if ('text' in checked) return checked.text;
    const note = `${folder}/${file}.json is over the bounds of an answer from the service (${checked.over}): set aside, not used.`;
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
