import { FlowSyncClient, type RequestRecord } from '../api/client';
import { ApiError } from '../api/errors';
import type { Connection, FlowSync } from '../api/types';
import type { Clock } from './clock';
import { ListRefresher, type Listener } from './refresh';
import { TeamDirectory } from './teams';
import { t } from '../l10n';

/** Everything the explorer needs to talk to the service, gathered by the vscode layer from settings and secrets. */
export interface ExplorerConfig {
  baseUrl: string;
  /** The key stored for the origin of `baseUrl`, if any. */
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

/** Why nothing can be loaded yet, or 'ready'. The views show a welcome or message for each. */
export type ExplorerStatus = 'noUrl' | 'invalidUrl' | 'noKey' | 'secretsUnavailable' | 'ready';

/** While the window is unfocused the processing list is polled this many times slower. */
export const UNFOCUSED_SLOWDOWN = 4;

/**
 * The model behind both views and the status bar: the API client for the current URL and key, one refresher per
 * list, the team filter and the teams seen so far. No vscode import: unit-tested in plain Node.
 */
export class Explorer {
  readonly processing: ListRefresher<FlowSync>;
  readonly connections: ListRefresher<Connection>;
  readonly teams = new TeamDirectory();
  private client?: FlowSyncClient;
  private config?: ExplorerConfig;
  private currentStatus: ExplorerStatus = 'noUrl';
  private statusDetail?: string;
  private connectionsWanted = false;
  private readonly statusListeners = new Set<Listener<ExplorerStatus>>();

  constructor(
    private readonly clock: Clock,
    private readonly onRequest: (record: RequestRecord) => void = () => undefined,
    random: () => number = Math.random,
    /** A listener of a list threw (a defect): told here, for the log; the other listeners and the load go on. */
    onListenerError: (error: unknown) => void = () => undefined,
  ) {
    this.processing = new ListRefresher(
      (signal) => this.requireClient().listProcessing({ teamId: this.config?.teamId || undefined, signal }),
      clock,
      (focused) => this.processingInterval(focused),
      random,
      onListenerError,
    );
    this.connections = new ListRefresher(
      async (signal) => {
        const teamId = this.config?.teamId || undefined;
        const result = await this.requireClient().listConnections({ teamId, signal });
        this.teams.learn(result.items.map((i) => i.value), teamId === undefined);
        return result;
      },
      clock,
      () => undefined, // connections load on demand, on settings changes, and retry after failures
      random,
      onListenerError,
    );
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

  get origin(): string | undefined {
    return this.client?.service.origin;
  }

  onDidChangeStatus(listener: Listener<ExplorerStatus>): { dispose(): void } {
    this.statusListeners.add(listener);
    return { dispose: () => this.statusListeners.delete(listener) };
  }

  /**
   * Applies new settings or a new key. Lists are reset (and reloaded when wanted) only when what they load changes:
   * URL, key, team, timeout or http policy. A change of the refresh interval only re-plans the next poll.
   */
  configure(config: ExplorerConfig): void {
    const previous = this.config;
    this.config = config;
    const connectionChanged =
      !previous ||
      previous.baseUrl !== config.baseUrl ||
      previous.apiKey !== config.apiKey ||
      previous.allowHttp !== config.allowHttp ||
      previous.timeoutMs !== config.timeoutMs ||
      previous.secretsError !== config.secretsError ||
      previous.userAgent !== config.userAgent;
    if (connectionChanged) this.rebuildClient(config);
    if (connectionChanged || previous?.teamId !== config.teamId) {
      this.resetLists();
    } else {
      this.processing.reschedule();
    }
  }

  /** Drops both lists and loads again: a key was entered (maybe the same one, after the service was fixed). */
  reload(): void {
    this.resetLists();
  }

  /** The Connections view became visible: load it the first time, and keep it loaded on later changes. */
  wantConnections(): void {
    if (this.connectionsWanted) return;
    this.connectionsWanted = true;
    if (this.currentStatus === 'ready' && this.connections.state.loadedAt === undefined && !this.connections.isLoading) {
      void this.connections.refresh();
    }
  }

  /** Refresh commands: no-ops (resolved) when there is nothing to load from. */
  refreshProcessing(): Promise<void> {
    return this.currentStatus === 'ready' ? this.processing.refresh() : Promise.resolve();
  }

  refreshConnections(): Promise<void> {
    if (this.currentStatus !== 'ready') return Promise.resolve();
    this.connectionsWanted = true;
    return this.connections.refresh();
  }

  setFocused(focused: boolean): void {
    this.processing.setFocused(focused);
  }

  dispose(): void {
    this.processing.dispose();
    this.connections.dispose();
    this.statusListeners.clear();
  }

  private processingInterval(focused: boolean): number | undefined {
    const config = this.config;
    if (!config || !config.autoRefresh || this.currentStatus !== 'ready') return undefined;
    return focused ? config.refreshIntervalMs : config.refreshIntervalMs * UNFOCUSED_SLOWDOWN;
  }

  private rebuildClient(config: ExplorerConfig): void {
    this.client = undefined;
    let status: ExplorerStatus = 'ready';
    let detail: string | undefined;
    if (!config.baseUrl.trim()) {
      status = 'noUrl';
    } else if (config.secretsError) {
      status = 'secretsUnavailable';
      detail = config.secretsError;
    } else {
      try {
        this.client = new FlowSyncClient({
          baseUrl: config.baseUrl,
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
    this.teams.useOrigin(this.client?.service.origin);
    this.setStatus(status, detail);
  }

  private resetLists(): void {
    const ready = this.currentStatus === 'ready';
    this.processing.reset(ready);
    this.connections.reset(ready && this.connectionsWanted);
  }

  private requireClient(): FlowSyncClient {
    if (!this.client) throw new ApiError('invalidUrl', this.statusDetail ?? t('Flow Sync is not configured.'));
    return this.client;
  }

  private setStatus(status: ExplorerStatus, detail: string | undefined): void {
    const changed = status !== this.currentStatus || detail !== this.statusDetail;
    this.currentStatus = status;
    this.statusDetail = detail;
    if (changed) for (const listener of [...this.statusListeners]) listener(status);
  }
}
