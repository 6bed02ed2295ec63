import * as vscode from 'vscode';
import type { RequestRecord } from '../../api/client';
import type { Clock } from '../../base/clock';
import { DisposableStore } from '../../base/events';
import { inert } from '../../base/inert';
import { serviceName } from '../../base/serviceSet';
import { HistoryService } from '../../history/vscode/historyService';
import type { ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import { Explorer } from '../../lists/explorer';
import { PollSpread } from '../../lists/pollSpread';
import { WindowBudget } from '../../lists/windowBudget';
import { TeamMemory } from '../../lists/vscode/teamMemory';
import { ConfigurationSync } from './configurationSync';
import type { SettingsSource } from '../../settings/vscode/settings';
import type { ServicesSection } from '../servicesSection';
import { lazySharing, type LazySharing } from '../../sharing/lazySharing';
import { PollCoordinator } from '../../sharing/pollLease';
import { FileSharedStore } from '../../sharing/vscode/fileStore';
import type { ServiceTarget } from '../serviceTargets';
import type { TeamSlot } from '../../history/teamPort';

/** What every service connection of a window shares: where things are kept, the log, the clock, settings and keys. */
export interface ServiceConnectionDeps {
  readonly globalStorageUri: vscode.Uri;
  readonly globalState: vscode.Memento;
  readonly log: vscode.LogOutputChannel;
  readonly clock: Clock;
  /** This window's own id (vscode.env.sessionId is the same in every window while telemetry is off). */
  readonly windowId: string;
  readonly settings: SettingsSource<ServicesSection>;
  readonly keys: ApiKeyStore;
  /** The User-Agent of every request. */
  readonly userAgent: string;
  /** Math.random, or a seeded one in tests (the refreshers' jitter). */
  readonly random?: () => number;
  /** Whether several services are shown now: then the log names the service of each request. */
  readonly several?: () => boolean;
  /** The window's team History (made with the services' code, before them), whose slot each service's History joins. */
  readonly teamHistory?: { readonly made: { readonly slot: TeamSlot } | undefined };
}

/**
 * What the services of one window share (issue #28): the budget of the items their lists hold together, and where
 * within the interval each one polls (the window's own place, drawn here once per window, plus each service's i/n:
 * issue #38). The ServiceRegistry makes one and hands it to every connection it makes.
 */
export interface ServiceWindow {
  readonly budget: WindowBudget;
  readonly spread: PollSpread;
}

export function createServiceWindow(random: () => number = Math.random): ServiceWindow {
  return { budget: new WindowBudget(), spread: new PollSpread(random()) };
}

/**
 * One Flow Sync service and everything it owns: its Explorer (client, lists, teams, refreshers), the sharing of its
 * polled lists with the other windows, its History (runs, stats, watches), and the feed of its settings and key.
 * Built whole by createServiceConnection and handed to the views, commands and tools through their constructors:
 * nothing is patched onto it afterwards.
 */
export class ServiceConnection implements vscode.Disposable {
  /** Stable for the life of the connection (a service whose URL or name changes is a new connection). */
  readonly id: string;
  readonly explorer: Explorer;
  readonly history: HistoryService;
  /** What it shares with the window's other services (the budget of items, the poll spread); none in a test's stand-in. */
  readonly window?: ServiceWindow;
  private readonly lazy: LazySharing<PollCoordinator>;
  private readonly configuration: ConfigurationSync;
  private readonly disposables = new DisposableStore();
  private currentTarget: ServiceTarget;

  constructor(deps: ServiceConnectionDeps, target: ServiceTarget, window?: ServiceWindow) {
    const { log, clock } = deps;
    this.id = target.id;
    this.currentTarget = target;
    this.window = window;
    let lazy!: LazySharing<PollCoordinator>;
    this.explorer = new Explorer(clock, {
      onRequest: (record) => logRequest(log, record, serviceName({ several: deps.several?.() === true }, this.target)),
      random: deps.random,
      onListenerError: (error) =>
        log.error(`A view failed to update: ${inert((error as Error)?.stack ?? String(error), 2000)}`),
      // One poller for all windows: the processing list is polled by one window and shared through global storage.
      sharing: (explorer) => {
        lazy = lazySharing(
          () =>
            new PollCoordinator(explorer, new FileSharedStore(deps.globalStorageUri), deps.windowId, clock, (m) =>
              log.info(m),
            ),
          (error) =>
            log.error(
              `Sharing with other windows could not start; this window polls on its own: ${inert(String(error), 300)}`,
            ),
        );
        return lazy.sharing;
      },
      window: window && { budget: window.budget, pollPhase: () => window.spread.fraction(this.id) },
    });
    this.lazy = lazy;
    const teams = new TeamMemory(this.explorer.teams, deps.globalState);
    this.configuration = new ConfigurationSync({
      explorer: this.explorer,
      target: () => this.currentTarget,
      settings: deps.settings,
      keys: deps.keys,
      log,
      userAgent: deps.userAgent,
    });
    // Each window writes its own History log.
    this.history = new HistoryService({
      explorer: this.explorer,
      storage: deps.globalStorageUri,
      state: deps.globalState,
      windowId: deps.windowId,
      clock,
      settings: () => deps.settings.current,
      log,
      team: teamOf(deps, () => this.currentTarget),
    });
    this.disposables.add(
      { dispose: () => this.explorer.dispose() },
      { dispose: () => this.lazy.dispose() },
      teams,
      this.configuration,
      this.history,
      deps.settings.onDidChange(() => this.history.applySettings()),
    );
  }

  /** The service as the settings describe it now. */
  get target(): ServiceTarget {
    return this.currentTarget;
  }

  /** Its name (several services); undefined for the one service of `flowsync.baseUrl`. */
  get name(): string | undefined {
    return this.currentTarget.name;
  }

  /** Takes the settings' new description of this service (a new team filter) and applies it. */
  retarget(target: ServiceTarget): Promise<void> {
    if (target.id !== this.id) throw new Error('a connection keeps its service');
    this.currentTarget = target;
    return this.configuration.apply({ keyKept: true }); // a settings change: a new key slot reads its key
  }

  /**
   * Resolves once this service has read its key for the first time (or learnt it could not) and applied it. Never
   * starts a read: a caller that waits bounds it (see ServiceRegistry.whenRead).
   */
  whenRead(): Promise<void> {
    return this.configuration.firstRead;
  }

  /** Re-reads the settings and the key and applies them; resolves once applied. */
  reconfigure(): Promise<void> {
    return this.configuration.apply();
  }

  dispose(): void {
    this.disposables.dispose();
  }
}

/**
 * Builds one service connection; it is idle until its first reconfigure() (settings and key). `window`: what it
 * shares with the window's other services (none: its answers' own caps only, polls one interval after each answer).
 */
export function createServiceConnection(
  deps: ServiceConnectionDeps,
  target: ServiceTarget,
  window?: ServiceWindow,
): ServiceConnection {
  return new ServiceConnection(deps, target, window);
}

/** One line per request; with several services it starts with the service's name. */
function logRequest(log: vscode.LogOutputChannel, r: RequestRecord, service: string | undefined): void {
  const by = service === undefined ? '' : `[${service}] `;
  if (r.error) {
    log.warn(`${by}${r.method} ${r.path} → ${r.status ?? r.error.kind} in ${r.ms} ms: ${inert(r.error.message)}`);
  } else {
    const dropped = r.dropped ? `, ${r.dropped} dropped` : '';
    const bytes = r.notModified ? 'unchanged (no body)' : `${r.bytes} bytes`;
    log.info(`${by}${r.method} ${r.path} → ${r.status} in ${r.ms} ms, ${r.items} items${dropped}, ${bytes}`);
  }
}

/** What a service's History is to team History: the window's slot, and whether this service is shared. */
function teamOf(deps: ServiceConnectionDeps, target: () => ServiceTarget) {
  const slot = deps.teamHistory?.made?.slot;
  return slot && { slot, shared: () => target().teamHistory !== false };
}
