import type { Clock } from '../base/clock';
import { COMMAND, type CommandId } from '../base/commandIds';
import { DisposableStore, Emitter, type Disposable, type Event } from '../base/events';
import { t } from '../base/l10n';
import type { ServiceSet } from '../base/serviceSet';
import type { ExplorerStatus } from '../lists/explorer';
import { untilFirstRead } from './firstRead';
import { serviceNameKey, type ServiceEntriesRead } from './serviceEntries';
import { sameTarget, serviceTargets, type ServiceEntryLike, type ServiceTarget } from './serviceTargets';

/** What the registry needs of one service it made (src/services/vscode/serviceConnection.ts is the real one). */
export interface RegisteredService {
  /** Stable for the life of the service (a service whose URL or name changes is a new one). */
  readonly id: string;
  readonly name?: string;
  /** The service as the settings describe it now. */
  readonly target: ServiceTarget;
  readonly explorer: {
    readonly status: ExplorerStatus;
    /** Undefined until its first configuration (its key read). */
    readonly pollSettings: unknown;
    setFocused(focused: boolean): void;
    /** Its place in the interval changed: re-plan the next polls. */
    respread(): void;
    onDidChangeStatus(listener: () => void): Disposable;
    /** The key its service may echo, once read: every text made inert masks it (keysToHide). */
    readonly keyToHide?: string;
  };
  /** Takes the settings' new description of this service and applies it. */
  retarget(target: ServiceTarget): Promise<void>;
  /** Re-reads the settings and the key and applies them; resolves once applied. */
  reconfigure(): Promise<void>;
  /** Resolves once it has read its key for the first time (never starts a read). */
  whenRead(): Promise<void>;
  dispose(): void;
}

/** The services' code, which start() loads (its own chunk): how a service is made, and what the services share. */
export interface ServiceFactory<C> {
  /** Makes one service, idle until its first reconfigure(). `several`: whether several services are shown now. */
  make(target: ServiceTarget, several: () => boolean): C;
  /** Where each service polls within the interval: `order` takes the services' ids, true when a place changed. */
  readonly spread?: { order(ids: readonly string[]): boolean };
  /** Runs once the services are made, before they first read their keys (an earlier version's key is moved). */
  beforeFirstRead?(): Promise<void>;
  /**
   * The settings' entries read again once the services' code is loaded, names compared by the full look-alike
   * skeleton (UTS #39, src/services/confusables.ts): an entry it refuses is never made.
   */
  entries?(settings: RegistrySettings): readonly ServiceEntryLike[];
}

/** The settings the registry reads: which services there are. */
export interface RegistrySettings {
  readonly baseUrl: string;
  readonly teamId: string;
  readonly services: readonly ServiceEntryLike[];
  /** `flowsync.services` as the settings read it (each URL parsed once): what the factory's entries() choose from. */
  readonly servicesRead?: ServiceEntriesRead;
  readonly allowHttp?: boolean;
  readonly serviceWarnings?: readonly string[];
}

/** What the registry works with: small ports, so that it runs in plain Node with a fake clock (the unit tests). */
export interface ServiceRegistryPorts<C> {
  /** Loads the services' code (a chunk) and gives the factory that makes them. */
  loadFactory(): Promise<ServiceFactory<C>>;
  readonly settings: { readonly current: RegistrySettings; onDidChange(listener: () => void): Disposable };
  /** How long a key read may take before a caller stops waiting for it (the keyring's timeout). */
  readonly keys: { readonly timeoutMs: number };
  readonly log: { error(message: string): void };
  /** Time and timers: the host's turn (a timer of 0) and the wait for a key read. */
  readonly clock: Clock;
  /** Tells the person, with one action. */
  notify(level: 'error', message: string, action: string, command: CommandId): void;
  /** Sets a context key that `when` clauses read (the sink sends only changes). */
  setContext(key: string, value: string | boolean): Promise<void>;
}

/**
 * The services a window shows, in the order of the settings: one service each, made when a service appears in the
 * settings and disposed when it leaves them. With `flowsync.services` empty it holds the one service of
 * `flowsync.baseUrl`, exactly as before there were several. It also keeps the context keys the welcome views and menus
 * read, over all services. Pure: the services' code, the settings, the clock, the log, the notifications and the
 * context keys are ports (src/services/vscode/serviceRegistry.ts connects them to VS Code).
 *
 * It holds no service until start() has loaded the services' code (a chunk), after giving the extension host its turn
 * (a timer of 0): activate() does not wait for it, as a service does nothing before its key has been read anyway.
 * Until then `all` is empty and whatever shows services waits for onDidChange. `flowsync.state` is set only once every
 * service has been configured (its key read), so no welcome view says "set up" to a person who has.
 */
export class ServiceRegistry<C extends RegisteredService> implements ServiceSet<C>, Disposable {
  private connections: C[] = [];
  private readonly changes: Emitter<void>;
  /** Fires when a service is added or removed, or the order changes (not when a service's data changes). */
  readonly onDidChange: Event<void>;
  private readonly disposables = new DisposableStore();
  private readonly statusListeners = new Map<string, Disposable>();
  private focused = true;
  private factory: ServiceFactory<C> | undefined;
  private started: Promise<void> | undefined;
  private making: Promise<void> | undefined;
  private disposed = false;

  constructor(private readonly ports: ServiceRegistryPorts<C>) {
    this.changes = new Emitter((error) => ports.log.error(`A services listener failed: ${String(error)}`));
    this.onDidChange = this.changes.event;
    this.disposables.add(
      this.changes,
      ports.settings.onDidChange(() => this.factory && this.reconcile()),
    );
  }

  /**
   * Loads the services' code (after a timer of 0: the extension host's turn first), makes the services of the
   * settings and starts them (their first settings and key); later ones start when made. Later calls answer the same
   * promise. If it fails, the error is logged and shown (Show Log), no service is left half made, and the next call
   * tries again.
   */
  start(): Promise<void> {
    if (!this.started) {
      const making = new Promise<void>((resolve) => this.ports.clock.setTimeout(resolve, 0)) // the host's turn first
        .then(() => this.ports.loadFactory())
        .then((factory) => {
          if (this.disposed) return;
          this.factory = factory;
          this.reconcile(false);
        });
      this.making = making.catch(() => undefined); // start() says why
      // Disposed meanwhile (the window closes, the extension is turned off): no key is moved, nothing configured.
      const started = making
        .then(() => (this.disposed ? undefined : this.factory?.beforeFirstRead?.()))
        .then(() => (this.disposed ? undefined : this.reconfigureNow()))
        .catch((error) => {
          if (this.started === started) this.started = undefined; // the next command or link tries again
          this.ports.log.error(`The services could not start: ${String(error)}`);
          this.ports.notify(
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
  whenRead(service: Pick<RegisteredService, 'whenRead'>): Promise<'read' | 'timeout'> {
    return untilFirstRead(service.whenRead(), this.ports.clock, this.ports.keys.timeoutMs);
  }

  /** Every service, in the order of the settings (at least one once started, none before). */
  get all(): readonly C[] {
    return this.connections;
  }

  /** True with two or more services: the trees then show a row per service. */
  get several(): boolean {
    return this.connections.length > 1;
  }

  /** The keys every text made inert masks (src/base/inert.ts hideEverywhere): each service's, as any may echo it. */
  keysToHide(): string[] {
    return this.connections.map((c) => c.explorer.keyToHide).filter((key): key is string => key !== undefined);
  }

  byId(id: string): C | undefined {
    return this.connections.find((c) => c.id === id);
  }

  /** The service of a name (as serviceNameKey compares names, which are unique so); undefined when none has it. */
  byName(name: string): C | undefined {
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
    const settings = this.ports.settings.current;
    const targets = serviceTargets(settings, this.factory?.entries?.(settings) ?? settings.services);
    const previous = new Map(this.connections.map((c) => [c.id, c]));
    const next: C[] = [];
    const made: C[] = [];
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
    if (this.factory?.spread?.order(next.map((c) => c.id))) for (const c of next) c.explorer.respread();
    void this.updateContextKeys();
    if (changed) this.changes.fire();
  }

  private drop(connection: C): void {
    this.statusListeners.get(connection.id)?.dispose();
    this.statusListeners.delete(connection.id);
    connection.dispose();
  }

  private create(target: ServiceTarget, start: boolean): C {
    const connection = this.factory!.make(target, () => this.several);
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
      state !== undefined && this.ports.setContext('flowsync.state', state),
      this.ports.setContext(
        'flowsync.teamFilter',
        this.connections.some((c) => c.target.teamId !== ''),
      ),
      this.ports.setContext('flowsync.severalServices', this.several),
    ]);
  }
}
