import type * as vscode from 'vscode';
import { DisposableStore } from '../../base/events';
import type { Explorer } from '../../lists/explorer';
import { secretStoreProblem, type ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import type { SettingsSource } from '../../settings/vscode/settings';
import { dataScope, historyScope, serviceScope, type ServiceTarget } from '../serviceTargets';

/**
 * Feeds one service's Explorer from the settings and SecretStorage, again whenever either changes (also from another
 * window). The key is read for this service's exact base URL only (serviceScope), so a request never carries a key
 * typed for another service, also not one for another path on the same host.
 */
export class ConfigurationSync implements vscode.Disposable {
  private sequence = 0;
  /** The newest apply(): a superseded call resolves when this one has applied, never before. */
  private latest: Promise<void> = Promise.resolve();
  private readonly disposables = new DisposableStore();
  private markRead!: () => void;
  /** Resolves once a configuration with this service's key (or why it could not be read) has been applied. */
  readonly firstRead: Promise<void> = new Promise((resolve) => (this.markRead = resolve));

  constructor(
    private readonly explorer: Explorer,
    /** The service as the settings describe it now. */
    private readonly target: () => ServiceTarget,
    private readonly settings: SettingsSource,
    private readonly keys: ApiKeyStore,
    private readonly log: vscode.LogOutputChannel,
    private readonly userAgent: string,
  ) {
    this.disposables.add(
      settings.onDidChange(() => void this.apply()),
      keys.onDidChange(() => void this.apply()),
    );
  }

  /**
   * Reads everything and applies it. When calls overlap, only the latest one is applied, and every caller's promise
   * resolves once that latest one has (so `await apply()` always sees the newest settings applied).
   */
  apply(): Promise<void> {
    const sequence = ++this.sequence;
    this.latest = this.applyNow(sequence);
    return this.latest;
  }

  private async applyNow(sequence: number): Promise<void> {
    const settings = this.settings.current;
    const target = this.target();
    let apiKey: string | undefined;
    let secretsError: string | undefined;
    const scope = serviceScope(target, settings.allowHttp);
    if (scope) {
      try {
        apiKey = await this.keys.get(scope);
      } catch (e) {
        secretsError = secretStoreProblem(e);
        this.log.error(secretsError);
      }
    }
    if (sequence !== this.sequence) return this.latest;
    this.explorer.configure({
      baseUrl: target.baseUrl,
      scope: dataScope(target, settings.allowHttp),
      keySlot: scope,
      historyScope: historyScope(target, settings.allowHttp),
      apiKey,
      secretsError,
      teamId: target.teamId,
      allowHttp: settings.allowHttp,
      timeoutMs: settings.requestTimeoutSeconds * 1000,
      autoRefresh: settings.autoRefresh,
      refreshIntervalMs: settings.refreshIntervalSeconds * 1000,
      userAgent: this.userAgent,
    });
    this.markRead();
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
