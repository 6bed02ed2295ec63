import * as vscode from 'vscode';
import { hideEverywhere } from '../../base/inert';
import { onFirstUse } from '../../base/onFirstUse';
import { ContextKeys } from '../../base/vscode/contextKeys';
import { showMessageWithAction } from '../../base/vscode/messages';
import { ServiceRegistry as Registry, type ServiceFactory } from '../serviceRegistry';
import type { ServiceConnection, ServiceConnectionDeps } from './serviceConnection';

/**
 * The code of a connection (Explorer, client, History, their feed), from the services' chunk (esbuild.js CHUNKS), loaded
 * by start(). Without createServiceWindow (a test's stand-in) the services share no budget and do not spread their
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
 * reconciled), connected to VS Code: the connections' code is the `services` chunk, failures are said with Show Log,
 * and the welcome views' state goes to VS Code's context keys. The services follow the window's focus, and every text
 * made inert masks the key of every service (keysToHide), whichever view made it.
 */
export class ServiceRegistry extends Registry<ServiceConnection> implements vscode.Disposable {
  private readonly focus: vscode.Disposable;

  constructor(
    deps: ServiceConnectionDeps,
    /** Loads the connections' code (the `services` chunk); tests pass the module itself. */
    loadCode?: () => Promise<ConnectionCode>,
  ) {
    const contextKeys = new ContextKeys();
    const code = onFirstUse(async (): Promise<ConnectionCode> => {
      const [connection, legacyKey, confusables] = await Promise.all([
        import('./serviceConnection'),
        import('./legacyKey'),
        import('../confusables'),
      ]);
      return { ...connection, moveLegacyKey: legacyKey.moveLegacyKey, checkedEntries: confusables.checkedEntries };
    });
    super({
      loadFactory: async () => factoryOf(await (loadCode ?? code.get)(), deps),
      settings: deps.settings,
      keys: deps.keys,
      log: deps.log,
      clock: deps.clock,
      notify: showMessageWithAction,
      setContext: (key, value) => contextKeys.set(key, value),
    });
    hideEverywhere(() => this.keysToHide());
    this.setFocused(vscode.window.state.focused);
    this.focus = vscode.window.onDidChangeWindowState((state) => this.setFocused(state.focused));
  }

  override dispose(): void {
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
