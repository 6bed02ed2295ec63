import type * as vscode from 'vscode';
import { DisposableStore, Emitter, type Event } from '../../base/events';
import { ContextKeys } from '../../base/vscode/contextKeys';
import type { ExplorerStatus } from '../../lists/explorer';
import { serviceNameKey } from '../serviceEntries';
import { serviceTargets, type ServiceTarget } from '../serviceTargets';
import { createServiceConnection, type ServiceConnection, type ServiceConnectionDeps } from './serviceConnection';

/**
 * The services a window shows, in the order of the settings: one ServiceConnection each, made when a service appears
 * in the settings and disposed when it leaves them. With `flowsync.services` empty it holds the one service of
 * `flowsync.baseUrl`, exactly as before there were several. It also keeps the context keys the welcome views and menus
 * read, over all services.
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

  constructor(private readonly deps: ServiceConnectionDeps) {
    this.changes = new Emitter((error) => deps.log.error(`A services listener failed: ${String(error)}`));
    this.onDidChange = this.changes.event;
    this.disposables.add(this.changes, deps.settings.onDidChange(() => this.reconcile()));
    this.reconcile(false);
  }

  /** Starts the services made at construction (their first settings and key); later ones start when made. */
  start(): Promise<void> {
    return this.reconfigure();
  }

  /** Every service, in the order of the settings (at least one). */
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

  /** Re-reads every service's settings and key; resolves once all are applied. */
  async reconfigure(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.reconfigure()));
  }

  setFocused(focused: boolean): void {
    this.focused = focused;
    for (const c of this.connections) c.explorer.setFocused(focused);
  }

  dispose(): void {
    this.disposables.dispose();
    for (const l of this.statusListeners.values()) l.dispose();
    for (const c of this.connections) c.dispose();
    this.connections = [];
  }

  private reconcile(fire = true): void {
    const settings = this.deps.settings.current;
    const targets = serviceTargets(settings, settings.services);
    const previous = new Map(this.connections.map((c) => [c.id, c]));
    const next: ServiceConnection[] = [];
    for (const target of targets) {
      const existing = previous.get(target.id);
      if (existing) {
        previous.delete(target.id);
        if (!sameTarget(existing.target, target)) void existing.retarget(target);
        next.push(existing);
      } else {
        next.push(this.create(target, fire));
      }
    }
    for (const gone of previous.values()) {
      this.statusListeners.get(gone.id)?.dispose();
      this.statusListeners.delete(gone.id);
      gone.dispose();
    }
    const changed = next.length !== this.connections.length || next.some((c, i) => c !== this.connections[i]);
    this.connections = next;
    void this.updateContextKeys();
    if (changed && fire) this.changes.fire();
  }

  private create(target: ServiceTarget, start: boolean): ServiceConnection {
    const connection = createServiceConnection({ ...this.deps, several: () => this.several }, target);
    connection.explorer.setFocused(this.focused);
    this.statusListeners.set(target.id, connection.explorer.onDidChangeStatus(() => void this.updateContextKeys()));
    if (start) void connection.reconfigure();
    return connection;
  }

  /** `flowsync.state`: ready when any service is; otherwise the first service's state (what its welcome view says). */
  private async updateContextKeys(): Promise<void> {
    const statuses = this.connections.map((c) => c.explorer.status);
    const state: ExplorerStatus = statuses.includes('ready') ? 'ready' : (statuses[0] ?? 'noUrl');
    await Promise.all([
      this.contextKeys.set('flowsync.state', state),
      this.contextKeys.set('flowsync.teamFilter', this.connections.some((c) => c.target.teamId !== '')),
      this.contextKeys.set('flowsync.severalServices', this.several),
    ]);
  }
}

function sameTarget(a: ServiceTarget, b: ServiceTarget): boolean {
  return a.id === b.id && a.name === b.name && a.baseUrl === b.baseUrl && a.teamId === b.teamId && a.bind === b.bind;
}
