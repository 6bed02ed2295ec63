import { FlowSyncClient, type RequestRecord } from '../api/client';
import { ApiError } from '../api/errors';
import { sameServiceUrlRead, type ServiceUrlRead } from '../api/url';
import { ANY_LISTS, LISTS, type AnyList, type ListId, type ListRefreshers } from './';
import type { ListDefinition } from './list';
import { t } from '../base/l10n';
import type { Clock } from '../base/clock';
import { Emitter, type Disposable, type Listener } from '../base/events';
import { hasKeyPiece } from '../base/inert';
import type { ListResult } from '../api/types';
import { ListRefresher, type HeldBack } from './refresh';
import { TeamDirectory } from './teams';
import type { ServiceBudget, WindowBudget } from './windowBudget';

/** Everything the explorer needs to talk to the service, gathered by the vscode layer from settings and secrets. */
export interface ExplorerConfig {
  /** The URL as configured: '' for none. */
  baseUrl: string;
  /**
   * `baseUrl` as its reader parsed it, once (serviceSettings): the client takes it as it is. Without it (tests, the
   * bench) the client parses `baseUrl` itself.
   */
  service?: ServiceUrlRead;
  /**
   * What this service's History, teams, watches and leases are kept under: the origin of `baseUrl` (the default), or
   * its base URL when it is one of several services (two may share an origin with different path prefixes).
   */
  scope?: string;
  /**
   * What its History, watches and Clear History marker are kept under: `scope` (the default), or its base URL and team
   * filter when it is one of several services with a team filter (one entry per team, each with its own History).
   */
  historyScope?: string;
  /** The slot its key is kept in: its exact base URL (the default). */
  keySlot?: string;
  /** The key stored for this service (its keySlot), if any. */
  apiKey?: string;
  /** Set when the secret store could not be read (no OS keyring, or it hung). */
  secretsError?: string;
  teamId: string;
  allowHttp: boolean;
  timeoutMs: number;
  autoRefresh: boolean;
  refreshIntervalMs: number;
  userAgent: string;
}

/**
 * What a change of each configuration field does: `reconnect` builds a new client and reloads every list, `reload`
 * reloads every list, `reschedule` only re-plans the next poll. A Record over every field: a new field that is not
 * classified here does not compile.
 */
const FIELD_EFFECT: Record<keyof ExplorerConfig, 'reconnect' | 'reload' | 'reschedule'> = {
  baseUrl: 'reconnect',
  service: 'reconnect',
  scope: 'reconnect',
  keySlot: 'reconnect',
  apiKey: 'reconnect',
  secretsError: 'reconnect',
  allowHttp: 'reconnect',
  timeoutMs: 'reconnect',
  userAgent: 'reconnect',
  teamId: 'reload',
  historyScope: 'reload',
  autoRefresh: 'reschedule',
  refreshIntervalMs: 'reschedule',
};
const FIELDS = Object.keys(FIELD_EFFECT) as Array<keyof ExplorerConfig>;

/** Why nothing can be loaded yet, or 'ready'. The views show a welcome or message for each. */
export type ExplorerStatus = 'noUrl' | 'invalidUrl' | 'noKey' | 'secretsUnavailable' | 'ready';

/** The Explorer's side of sharing (src/sharing/pollLease.ts implements it): whether a polled list may poll now, and loads that go through the share. */
export interface ListSharing {
  mayPoll(id: ListId): boolean;
  load<T extends { id: number }>(
    list: ListDefinition<T>,
    explicit: boolean,
    request: () => Promise<ListResult<T>>,
  ): Promise<ListResult<T>>;
}

/** While the window is unfocused the polled lists are polled this many times slower. */
export const UNFOCUSED_SLOWDOWN = 4;

/**
 * How often a polled list is polled: every interval, UNFOCUSED_SLOWDOWN times less often while the window is unfocused.
 * The one rule: the Explorer's polls and the lease's comparison of windows (src/sharing/pollLease.ts) both apply it.
 */
export function pollEvery(intervalMs: number, unfocused: boolean): number {
  return unfocused ? intervalMs * UNFOCUSED_SLOWDOWN : intervalMs;
}

/** What the Explorers of the services of one window share; none: this Explorer is alone (its answers' own caps only). */
interface ExplorerWindow {
  /** The items held across the window's services (src/lists/windowBudget.ts). */
  budget?: WindowBudget;
  /** Where within each interval this service polls (src/lists/pollSpread.ts); undefined: one interval after each answer. */
  pollPhase?: () => number | undefined;
}

/** What an Explorer is made with, besides its clock: each has a default. */
export interface ExplorerOptions {
  /** Told of every request (the log). */
  readonly onRequest?: (record: RequestRecord) => void;
  /** Math.random, or a seeded one in tests (the refreshers' jitter). */
  readonly random?: () => number;
  /** A listener threw (a defect): told here, for the log; the other listeners and the load go on. */
  readonly onListenerError?: (error: unknown) => void;
  /** Makes this Explorer's sharing (given the Explorer, which the sharing watches); none: no sharing. */
  readonly sharing?: (explorer: Explorer) => ListSharing;
  /** The budget and poll spread shared with the window's other services. */
  readonly window?: ExplorerWindow;
}

/**
 * The model behind the views and the status bar: the API client for the current URL and key, one refresher per list
 * of the registry (src/lists), the team filter and the teams seen so far. No vscode import: unit-tested in plain Node.
 */
export class Explorer {
  /** The refresher of each list, by list id. */
  readonly lists: ListRefreshers;
  readonly teams = new TeamDirectory(() => this.keyToHide);
  private client?: FlowSyncClient;
  private config?: ExplorerConfig;
  private currentStatus: ExplorerStatus = 'noUrl';
  private statusKnown = false;
  private statusDetail?: string;
  /** Lists loaded on demand whose view has been shown: they are reloaded after a change too. */
  private readonly wanted = new Set<ListId>();
  private readonly statusEmitter: Emitter<ExplorerStatus>;
  private isFocused = true;
  /** Lists whose load now running was asked for by a person (a refresh command): always a request, never shared data. */
  private readonly explicit = new Set<ListId>();
  /** Lists whose load in flight is a person's (it asks the service), each with a token of that load. */
  private readonly asking = new Map<ListId, object>();
  /** The polled lists polled by one window and shared (src/sharing/pollLease.ts); none: this window polls on its own. */
  readonly sharing?: ListSharing;
  private readonly onRequest: (record: RequestRecord) => void;
  /** This service's part of the window's budget (its fair share), while it lives. */
  private readonly budget?: ServiceBudget;

  constructor(
    private readonly clock: Clock,
    {
      onRequest = () => undefined,
      random = Math.random,
      onListenerError = () => undefined,
      sharing,
      window = {},
    }: ExplorerOptions = {},
  ) {
    this.onRequest = onRequest;
    this.statusEmitter = new Emitter(onListenerError);
    const lists: Record<string, ListRefresher<unknown>> = {};
    this.budget = window.budget?.service();
    for (const list of ANY_LISTS) {
      const holder = this.budget?.holder();
      const limit = window.budget?.limit ?? 0;
      lists[list.id] = new ListRefresher(
        (signal) => this.load(list, signal),
        clock,
        list.polled ? (focused) => this.pollInterval(list.id as ListId, focused) : () => undefined, // on demand: loads, and retries after failures
        random,
        onListenerError,
        {
          budget: holder && {
            ...holder,
            refusal: (count) =>
              new ApiError(
                'invalidResponse',
                t(
                  'The service answered {0} with {1} items; with the items the other lists of this window hold, that is more than {2}; it was not loaded.',
                  list.label(),
                  count.toLocaleString('en-US'),
                  limit.toLocaleString('en-US'),
                ),
              ),
          },
          pollPhase: window.pollPhase,
        },
      );
    }
    this.lists = lists as ListRefreshers; // one refresher per list of ANY_LISTS, each of its list's values
    // The client keeps of each list's answers only the one the list holds: none the window's budget refused.
    for (const list of ANY_LISTS) {
      const refresher = lists[list.id];
      refresher.onDidChange(() => this.client?.keepOnly(list.endpoint, refresher.state));
    }
    this.sharing = sharing?.(this);
  }

  get status(): ExplorerStatus {
    return this.currentStatus;
  }

  /** A sentence for the status when it is not 'ready' (e.g. why the URL is invalid). */
  get detail(): string | undefined {
    return this.statusDetail;
  }

  get teamId(): string {
    return this.config?.teamId ?? '';
  }

  /** What this service's History, teams, watches and leases are kept under (see ExplorerConfig.scope); none without a client. */
  get scope(): string | undefined {
    return this.client && (this.config?.scope ?? this.client.service.origin);
  }

  /** The service's key in the team's store (src/teamHistory/): its base URL; none without a client. */
  get serviceKey(): string | undefined {
    return this.client?.service.baseUrl;
  }

  /** What this service's History, watches and Clear History marker are kept under (see ExplorerConfig.historyScope). */
  get historyScope(): string | undefined {
    return this.client && (this.config?.historyScope ?? this.scope);
  }

  /** The items the client keeps with its last answers for conditional requests (FlowSyncClient.keptItems). */
  get keptItems(): number {
    return this.client?.keptItems ?? 0;
  }

  /** The slot this service's key is kept in (see ExplorerConfig.keySlot); none without a client. */
  get keySlot(): string | undefined {
    return this.client && (this.config?.keySlot ?? this.client.service.baseUrl);
  }

  get focused(): boolean {
    return this.isFocused;
  }

  /**
   * The refresh interval it was configured with (not slowed while the window is unfocused) and whether lists are
   * polled: sharing, the tools, the status bar and the service registry read it; undefined before the first
   * configure().
   */
  get pollSettings(): { intervalMs: number; autoRefresh: boolean } | undefined {
    return this.config && { intervalMs: this.config.refreshIntervalMs, autoRefresh: this.config.autoRefresh };
  }

  /**
   * True when `text` holds the current API key or any 8-character piece of it, in any letter case (what is written to
   * disk must not; a key shorter than that is looked for whole): see hasKeyPiece.
   */
  mentionsKey(text: string): boolean {
    return hasKeyPiece(text, this.config?.apiKey);
  }

  /** The key in use, only to be masked in service text before it is cut (`inert` and `bounded` take it as `hide`). */
  get keyToHide(): string | undefined {
    return this.config?.apiKey || undefined;
  }

  /** The refresher of a list, for code that works on any list. */
  refresher(id: ListId): ListRefresher<unknown> {
    return this.lists[id];
  }

  onDidChangeStatus(listener: Listener<ExplorerStatus>): Disposable {
    return this.statusEmitter.event(listener);
  }

  /**
   * Applies new settings or a new key. What each changed field does is declared in FIELD_EFFECT: lists are reset (and
   * reloaded when wanted) only when what they load changes; a new refresh interval only re-plans the next poll.
   */
  configure(config: ExplorerConfig): void {
    const previous = this.config;
    this.config = config;
    const differs = (field: keyof ExplorerConfig) =>
      field === 'service'
        ? !sameServiceUrlRead(previous?.service, config.service)
        : previous?.[field] !== config[field];
    const changed = previous ? FIELDS.filter(differs) : FIELDS;
    const effects = new Set(changed.map((field) => FIELD_EFFECT[field]));
    if (effects.has('reconnect')) this.rebuildClient(config);
    if (effects.has('reconnect') || effects.has('reload')) this.resetLists();
    else if (effects.has('reschedule')) this.forPolled((r) => r.reschedule());
  }

  /** Drops every list and loads again: a key was entered (maybe the same one, after the service was fixed). */
  reload(): void {
    this.resetLists();
  }

  /** The view of a list became visible: load it the first time, and keep it loaded on later changes. */
  want(id: ListId): void {
    if (this.wanted.has(id)) return;
    this.wanted.add(id);
    const refresher = this.refresher(id);
    if (this.currentStatus === 'ready' && refresher.state.loadedAt === undefined && !refresher.isLoading) {
      void refresher.refresh();
    }
  }

  /** Refresh commands: no-ops (resolved) when there is nothing to load from. */
  refresh(id: ListId): Promise<void> {
    if (this.currentStatus !== 'ready') return Promise.resolve();
    this.wanted.add(id);
    const refresher = this.refresher(id);
    // A load nobody asked for may take another window's answer without asking the service: a person's refresh asks
    // once it is done (a person's load in flight is joined).
    if (refresher.isLoading && this.sharing && !this.asking.has(id)) {
      return refresher.refresh().then(() => this.refresh(id));
    }
    if (!refresher.isLoading) this.explicit.add(id);
    const done = refresher.refresh();
    // A refresh kept until the service's wait ends stays a person's: its load, when it runs, asks the service.
    if (refresher.state.refreshKeptUntil === undefined) this.explicit.delete(id);
    return done;
  }

  /**
   * A load a link asked for (anyone can open a link): no more than automatic refresh would send, and never more than
   * once per refresh interval however many links arrive (ListRefresher.refreshIfDue). Through the window sharing like
   * a poll, not as a person's refresh. Resolves to undefined when it loaded, else to why it did not.
   */
  refreshIfDue(id: ListId): Promise<HeldBack | 'notReady' | undefined> {
    if (this.currentStatus !== 'ready' || !this.config) return Promise.resolve('notReady');
    this.wanted.add(id);
    return this.refresher(id).refreshIfDue(this.config.refreshIntervalMs);
  }

  refreshAll(): Promise<void> {
    return Promise.all(LISTS.map((list) => this.refresh(list.id))).then(() => undefined);
  }

  /** This service's place in the interval changed (a service was added or removed): re-plan the next polls. */
  respread(): void {
    this.forPolled((r) => r.reschedule());
  }

  setFocused(focused: boolean): void {
    this.isFocused = focused;
    this.forPolled((r) => r.setFocused(focused));
  }

  dispose(): void {
    for (const list of LISTS) this.refresher(list.id).dispose();
    this.budget?.dispose();
    this.statusEmitter.dispose();
  }

  private async load<T extends { id: number }>(list: ListDefinition<T>, signal: AbortSignal) {
    const teamId = this.config?.teamId || undefined;
    const id = list.id as ListId;
    const explicit = this.explicit.delete(id);
    const token = {};
    if (explicit) this.asking.set(id, token);
    else this.asking.delete(id);
    const request = () => this.requireClient().list(list.endpoint, list.label(), list.validate, { teamId, signal });
    let result: ListResult<T>;
    try {
      result = list.polled && this.sharing ? await this.sharing.load(list, explicit, request) : await request();
    } finally {
      if (this.asking.get(id) === token) this.asking.delete(id);
    }
    list.onLoaded?.(
      { teams: this.teams },
      result.items.map((i) => i.value),
      teamId === undefined,
    );
    return result;
  }

  private forPolled(action: (refresher: ListRefresher<unknown>) => void): void {
    for (const list of LISTS as readonly AnyList[]) if (list.polled) action(this.refresher(list.id));
  }

  private pollInterval(id: ListId, focused: boolean): number | undefined {
    const config = this.config;
    if (!config || !config.autoRefresh || this.currentStatus !== 'ready') return undefined;
    if (this.sharing && !this.sharing.mayPoll(id)) return undefined; // another window polls it and shares the answers
    return pollEvery(config.refreshIntervalMs, !focused);
  }

  private rebuildClient(config: ExplorerConfig): void {
    this.client = undefined;
    let status: ExplorerStatus = 'ready';
    let detail: string | undefined;
    const read = config.service;
    if (!config.baseUrl.trim() || read?.kind === 'none') {
      status = 'noUrl';
    } else if (config.secretsError) {
      status = 'secretsUnavailable';
      detail = config.secretsError;
    } else if (read?.kind === 'problem') {
      status = 'invalidUrl';
      detail = read.message;
    } else {
      try {
        this.client = new FlowSyncClient({
          baseUrl: read?.service ?? config.baseUrl,
          apiKey: config.apiKey ?? '',
          allowHttp: config.allowHttp,
          timeoutMs: config.timeoutMs,
          userAgent: config.userAgent,
          now: () => this.clock.now(),
          onRequest: this.onRequest,
        });
      } catch (e) {
        const error = e as ApiError;
        status = error.kind === 'invalidUrl' ? 'invalidUrl' : 'noKey';
        detail = error.message;
      }
    }
    this.teams.useOrigin(this.scope);
    this.setStatus(status, detail);
  }

  private resetLists(): void {
    const ready = this.currentStatus === 'ready';
    this.explicit.clear(); // a refresh kept for a wait is dropped with the list's state
    for (const list of LISTS as readonly AnyList[]) {
      this.refresher(list.id).reset(ready && (list.polled || this.wanted.has(list.id)));
    }
  }

  private requireClient(): FlowSyncClient {
    if (!this.client) throw new ApiError('invalidUrl', this.statusDetail ?? t('Flow Sync is not configured.'));
    return this.client;
  }

  /** Says the status when it changes, and the first time it is set (it is known from the first configure() on). */
  private setStatus(status: ExplorerStatus, detail: string | undefined): void {
    const changed = status !== this.currentStatus || detail !== this.statusDetail || !this.statusKnown;
    this.currentStatus = status;
    this.statusDetail = detail;
    this.statusKnown = true;
    if (changed) this.statusEmitter.fire(status);
  }
}
