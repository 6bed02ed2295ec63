import type * as vscode from 'vscode';
import { DisposableStore } from '../../base/events';
import type { Explorer } from '../../lists/explorer';
import { secretStoreProblem, type ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import type { SettingsSource } from '../../settings/vscode/settings';
import type { ServicesSection } from '../servicesSection';
import { serviceSettings, type ServiceTarget } from '../serviceTargets';

/** What feeds one service's Explorer: where its settings and key come from. */
export interface ConfigurationSyncOptions {
  readonly explorer: Explorer;
  /** The service as the settings describe it now. */
  readonly target: () => ServiceTarget;
  /** The settings with the services' section (an entry's URL as they parsed it). */
  readonly settings: SettingsSource<Pick<ServicesSection, 'services'>>;
  readonly keys: ApiKeyStore;
  readonly log: vscode.LogOutputChannel;
  /** The User-Agent of every request. */
  readonly userAgent: string;
}

/**
 * Feeds one service's Explorer from the settings and SecretStorage, again whenever either changes (also from another
 * window): its settings (serviceSettings, the one value every reader uses) and its key. The key is read for this
 * service's exact base URL only (its keySlot), so a request never carries a key typed for another service, also not
 * one for another path on the same host.
 */
export class ConfigurationSync implements vscode.Disposable {
  private sequence = 0;
  /** The newest apply(): a superseded call resolves when this one has applied, never before. */
  private latest: Promise<void> = Promise.resolve();
  private readonly disposables = new DisposableStore();
  private markRead!: () => void;
  /** Resolves once a configuration with this service's key (or why it could not be read) has been applied. */
  readonly firstRead: Promise<void> = new Promise((resolve) => (this.markRead = resolve));

  constructor(private readonly options: ConfigurationSyncOptions) {
    this.disposables.add(
      options.settings.onDidChange(() => void this.apply()),
      options.keys.onDidChange(() => void this.apply()),
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
    const { keys, log } = this.options;
    const settings = serviceSettings(this.options.target(), this.options.settings.current);
    let apiKey: string | undefined;
    let secretsError: string | undefined;
    if (settings.keySlot) {
      try {
        apiKey = await keys.get(settings.keySlot);
      } catch (e) {
        secretsError = secretStoreProblem(e);
        log.error(secretsError);
      }
    }
    if (sequence !== this.sequence) return this.latest;
    this.options.explorer.configure({ ...settings, apiKey, secretsError, userAgent: this.options.userAgent });
    this.markRead();
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
