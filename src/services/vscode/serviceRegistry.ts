import type * as vscode from 'vscode';
import { DisposableStore, Emitter, type Event } from '../../base/events';
import { ContextKeys } from '../../base/vscode/contextKeys';
import { t } from '../../base/l10n';
import { COMMAND } from '../../base/commandIds';
import { showMessageWithAction } from '../../base/vscode/messages';
import type { ExplorerStatus } from '../../lists/explorer';
import { serviceNameKey } from '../serviceEntries';
import { serviceTargets, type ServiceTarget } from '../serviceTargets';
import { untilFirstRead } from '../firstRead';
import type { ServiceConnection, ServiceConnectionDeps, ServiceWindow } from './serviceConnection';

/**
 * The code of a connection (Explorer, client, History, their feed): its own chunk (esbuild.js CHUNKS), loaded by
 * start(). Without createServiceWindow (a test's stand-in) the services share no budget and do not spread their polls;
 * without moveLegacyKey no earlier version's key is moved (src/services/vscode/legacyKey.ts).
 */
export type ConnectionCode = Pick<typeof import('./serviceConnection'), 'createServiceConnection'> &
  Partial<Pick<typeof import('./serviceConnection'), 'createServiceWindow' | 'moveLegacyKey'>>;

/**
 * The services a window shows, in the order of the settings: one ServiceConnection each, made when a service appears
 * in the settings and disposed when it leaves them. With `flowsync.services` empty it holds the one service of
 * `flowsync.baseUrl`, exactly as before there were several. It also keeps the context keys the welcome views and menus
 * read, over all services.
 *
 * It holds no service until start() has loaded the connections' code (a chunk), after giving the extension host its
 * turn (a timer of 0): activate() does not wait for it, as a service does nothing before its key has been read anyway.
 * Until then `all` is empty and whatever shows services waits for onDidChange. `flowsync.state` is set only once every
 * service has been configured (its key read), so no welcome view says "set up" to a person who has.
 */
export class ServiceRegistry implements vscode.Disposable {
  private connections: ServiceConnection[] = [];
  private readonly changes: Emitter<void>;
  /** Fires when a service is added or removed, or the order changes (not when a service's data changes). */
  readonly onDidChange: Event<void>;
  private readonly disposables = new DisposableStore();
  private readonly contextKeys = new ContextKeys();
  private readonly statusListeners = new Map<string, { dispose(): void }>();
  private focused = true;
  private code: ConnectionCode | undefined;
  /** What the services share: the budget of items held across them, where each polls in the interval. */
  private window: ServiceWindow | undefined;
  private started: Promise<void> | undefined;
  private making: Promise<void> | undefined;
  private disposed = false;

  constructor(
    private readonly deps: ServiceConnectionDeps,
    /** Loads the connections' code; tests pass the module itself. */
    private readonly loadCode: () => Promise<ConnectionCode> = () => import('./serviceConnection'),
  ) {
    this.changes = new Emitter((error) => deps.log.error(`A services listener failed: ${String(error)}`));
    this.onDidChange = this.changes.event;
    this.disposables.add(
      this.changes,
      deps.settings.onDidChange(() => this.code && this.reconcile()),
    );
  }

  /**
   * Loads the connections' code (after a timer of 0: the extension host's turn first), makes the services of the
   * settings and starts them (their first settings and key); later ones start when made. Later calls answer the same
   * promise. If it fails, the error is logged and shown (Show Log), no service is left half made, and the next call
   * tries again.
   */
  start(): Promise<void> {
    if (!this.started) {
      const making = new Promise<void>((resolve) => this.deps.clock.setTimeout(resolve, 0)) // the host's turn first
        .then(() => this.loadCode())
        .then((code) => {
          if (this.disposed) return;
          this.code = code;
          this.window = code.createServiceWindow?.();
          this.reconcile(false);
        });
      this.making = making.catch(() => undefined); // start() says why
      const started = making
        .then(() => this.code?.moveLegacyKey?.(this.deps))
        .then(() => this.reconfigureNow())
        .catch((error) => {
          if (this.started === started) this.started = undefined; // the next command or link tries again
          this.deps.log.error(`The services could not start: ${String(error)}`);
          showMessageWithAction(
            'error',
            t('Flow Sync could not start its services. The Flow Sync log says why.'),
            t('Show Log'),
            COMMAND.showLog,
          );
        });
      this.started = started;
    }
    return this.started;
  }

  /**
   * Resolves once the services are made (or could not be), without waiting for their keys: what a command, a link or a
   * tool call that arrives first waits for (a hung keyring must not hold up Set API Key...). Starts them if need be.
   */
  whenMade(): Promise<void> {
    void this.start();
    return this.making!;
  }

  /**
   * Resolves once `service` has read its key for the first time ('read'), or after the keyring's timeout ('timeout'): a
   * link or tool call that starts VS Code waits for this before it answers, so a set-up service is never "not set up".
   */
  whenRead(service: Pick<ServiceConnection, 'whenRead'>): Promise<'read' | 'timeout'> {
    return untilFirstRead(service.whenRead(), this.deps.clock, this.deps.keys.timeoutMs);
  }

  /** Every service, in the order of the settings (at least one once started, none before). */
  get all(): readonly ServiceConnection[] {
    return this.connections;
  }

  /** True with two or more services: the trees then show a row per service. */
  get several(): boolean {
    return this.connections.length > 1;
  }

  byId(id: string): ServiceConnection | undefined {
    return this.connections.find((c) => c.id === id);
  }

  /** The service of a name (as serviceNameKey compares names, which are unique so); undefined when none has it. */
  byName(name: string): ServiceConnection | undefined {
    const wanted = serviceNameKey(name.trim());
    return wanted ? this.connections.find((c) => c.name !== undefined && serviceNameKey(c.name) === wanted) : undefined;
  }

  /** Re-reads every service's settings and key; resolves once all are applied (starting them first if need be). */
  async reconfigure(): Promise<void> {
    const first = !this.started;
    await this.start();
    if (!first) await this.reconfigureNow(); // start() has just applied them
  }

  private async reconfigureNow(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.reconfigure()));
  }

  setFocused(focused: boolean): void {
    this.focused = focused;
    for (const c of this.connections) c.explorer.setFocused(focused);
  }

  dispose(): void {
    this.disposed = true;
    this.disposables.dispose();
    for (const l of this.statusListeners.values()) l.dispose();
    for (const c of this.connections) c.dispose();
    this.connections = [];
  }

  /** `startEach`: a service made now starts at once (false when start() starts them all after). */
  private reconcile(startEach = true): void {
    const settings = this.deps.settings.current;
    const targets = serviceTargets(settings, settings.services);
    const previous = new Map(this.connections.map((c) => [c.id, c]));
    const next: ServiceConnection[] = [];
    const made: ServiceConnection[] = [];
    try {
      for (const target of targets) {
        const existing = previous.get(target.id);
        if (!existing) {
          const connection = this.create(target, startEach);
          made.push(connection);
          next.push(connection);
        } else {
          previous.delete(target.id);
          if (!sameTarget(existing.target, target)) void existing.retarget(target);
          next.push(existing);
        }
      }
    } catch (error) {
      // A service that could not be made: those made before it are dropped too (nothing is left listening unseen).
      for (const connection of made) this.drop(connection);
      throw error;
    }
    for (const gone of previous.values()) this.drop(gone);
    const changed = next.length !== this.connections.length || next.some((c, i) => c !== this.connections[i]);
    this.connections = next;
    // Service i of n polls i/n of the way into each interval; when a place changes, every service re-plans its polls.
    if (this.window?.spread.order(next.map((c) => c.id))) for (const c of next) c.explorer.respread();
    void this.updateContextKeys();
    if (changed) this.changes.fire();
  }

  private drop(connection: ServiceConnection): void {
    this.statusListeners.get(connection.id)?.dispose();
    this.statusListeners.delete(connection.id);
    connection.dispose();
  }

  private create(target: ServiceTarget, start: boolean): ServiceConnection {
    const connection = this.code!.createServiceConnection(
      { ...this.deps, several: () => this.several },
      target,
      this.window,
    );
    connection.explorer.setFocused(this.focused);
    this.statusListeners.set(
      target.id,
      connection.explorer.onDidChangeStatus(() => void this.updateContextKeys()),
    );
    if (start) void connection.reconfigure();
    return connection;
  }

  /**
   * `flowsync.state`: ready when any service is; otherwise the first service's state (what its welcome view says),
   * once every service has been configured (before its key is read, "set up" would be wrong for a person who has).
   */
  private async updateContextKeys(): Promise<void> {
    const statuses = this.connections.map((c) => c.explorer.status);
    const configured = this.connections.every((c) => c.explorer.pollSettings !== undefined);
    const state: ExplorerStatus | undefined = statuses.includes('ready')
      ? 'ready'
      : configured
        ? (statuses[0] ?? 'noUrl')
        : undefined;
    await Promise.all([
      state !== undefined && this.contextKeys.set('flowsync.state', state),
      this.contextKeys.set(
        'flowsync.teamFilter',
        this.connections.some((c) => c.target.teamId !== ''),
      ),
      this.contextKeys.set('flowsync.severalServices', this.several),
    ]);
  }
}

function sameTarget(a: ServiceTarget, b: ServiceTarget): boolean {
  return a.id === b.id && a.name === b.name && a.baseUrl === b.baseUrl && a.teamId === b.teamId && a.bind === b.bind;
}
