import * as vscode from 'vscode';
import { hideEverywhere } from '../../base/inert';
import { onFirstUse, type OnFirstUse } from '../../base/onFirstUse';
import { ContextKeys } from '../../base/vscode/contextKeys';
import { showMessageWithAction } from '../../base/vscode/messages';
import { ServiceRegistry as Registry, type ServiceFactory } from '../serviceRegistry';
import {
  createServiceConnection,
  createServiceWindow,
  type ServiceConnection,
  type ServiceConnectionDeps,
} from './serviceConnection';
import { moveLegacyKey } from './legacyKey';
import { checkedEntries } from '../confusables';
import { SettingsWarnings } from './settingsWarnings';

/**
 * The code of a connection (Explorer, client, History, their feed), in the services' chunk with the registry. Without createServiceWindow (a test's stand-in) the services share no budget and do not spread their
 * polls; without moveLegacyKey no earlier version's key is moved (src/services/vscode/legacyKey.ts); without
 * checkedEntries the entries are not compared by the full look-alike skeleton (src/services/confusables.ts).
 */
export type ConnectionCode = Pick<typeof import('./serviceConnection'), 'createServiceConnection'> &
  Partial<
    Pick<typeof import('./serviceConnection'), 'createServiceWindow'> &
      Pick<typeof import('./legacyKey'), 'moveLegacyKey'> &
      Pick<typeof import('../confusables'), 'checkedEntries'>
  >;

/**
 * The services of the settings (src/services/serviceRegistry.ts, pure, holds how they are started, made, retried and
 * reconciled), connected to VS Code: the connections are made with it (the services' chunk), failures are said with Show Log,
 * and the welcome views' state goes to VS Code's context keys. The services follow the window's focus, and every text
 * made inert masks the key of every service (keysToHide), whichever view made it.
 */
export class ServiceRegistry extends Registry<ServiceConnection> implements vscode.Disposable {
  private readonly focus: vscode.Disposable;
  /** What is made with the services' code (withServices), before the services. */
  private readonly alongside: OnFirstUse<unknown>[];

  constructor(
    deps: ServiceConnectionDeps,
    /** The connections' code (the services' chunk, this one's); tests pass a stand-in. */
    loadCode?: () => Promise<ConnectionCode>,
  ) {
    const contextKeys = new ContextKeys();
    const alongside: OnFirstUse<unknown>[] = [];
    const code: ConnectionCode = { createServiceConnection, createServiceWindow, moveLegacyKey, checkedEntries };
    super({
      loadFactory: async () => {
        const loaded = loadCode ? await loadCode() : code;
        // a failed one is logged by its own onError, and tried again with its first use
        await Promise.all(alongside.map((made) => made.get().catch(() => undefined)));
        return factoryOf(loaded, deps);
      },
      settings: deps.settings,
      keys: deps.keys,
      log: deps.log,
      clock: deps.clock,
      notify: showMessageWithAction,
      setContext: (key, value) => contextKeys.set(key, value),
    });
    this.alongside = alongside;
    // what is wrong with the settings (a skipped entry, a team id not used, a workspace's user-only settings)
    this.withServices(
      onFirstUse(async () => new SettingsWarnings(deps.settings, deps.log), {
        dispose: (warnings) => warnings.dispose(),
      }),
    );
    hideEverywhere(() => this.keysToHide());
    this.setFocused(vscode.window.state.focused);
    this.focus = vscode.window.onDidChangeWindowState((state) => this.setFocused(state.focused));
  }

  /**
   * Makes `made` (an import() of a module of the services' chunk, and what is made from it) with the services' code,
   * before the services: for what follows the services but registers nothing at start (the status bar, the failure
   * notifications). Its load and what it made are disposed with the registry.
   */
  withServices<T>(made: OnFirstUse<T>): OnFirstUse<T> {
    this.alongside.push(made);
    return made;
  }

  override dispose(): void {
    for (const made of this.alongside) made.dispose();
    this.focus.dispose();
    super.dispose();
  }
}

/** The connections' code as the registry makes services with it: every service of the window shares one window. */
function factoryOf(code: ConnectionCode, deps: ServiceConnectionDeps): ServiceFactory<ServiceConnection> {
  const window = code.createServiceWindow?.(deps.random);
  return {
    make: (target, several) => code.createServiceConnection({ ...deps, several }, target, window),
    spread: window?.spread,
    beforeFirstRead: async () => code.moveLegacyKey?.(deps),
    entries: code.checkedEntries?.((message) => {
      deps.log.warn(message);
      void vscode.window.showWarningMessage(message);
    }),
  };
}
