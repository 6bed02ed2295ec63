import type * as vscode from 'vscode';
import { DisposableStore } from '../../base/events';
import type { Explorer } from '../../lists/explorer';
import { secretStoreProblem, type ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import type { SettingsSource } from '../../settings/vscode/settings';
import type { ServicesSection } from '../servicesSection';
import { serviceSettings, type ServiceSettings, type ServiceTarget } from '../serviceTargets';

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
  /** The key last read, and the one slot it was read for (a key found: none found, or a failed read, is read again). */
  private found?: { readonly slot: string; readonly apiKey: string };
  /** Key reads under way: while one is, nothing is applied with a key read before it. */
  private reading = 0;
  private readonly disposables = new DisposableStore();
  private markRead!: () => void;
  /** Resolves once a configuration with this service's key (or why it could not be read) has been applied. */
  readonly firstRead: Promise<void> = new Promise((resolve) => (this.markRead = resolve));

  constructor(private readonly options: ConfigurationSyncOptions) {
    this.disposables.add(
      options.settings.onDidChange(() => void this.apply({ keyKept: true })),
      options.keys.onDidChange(() => void this.apply()),
    );
  }

  /**
   * Reads everything and applies it. When calls overlap, only the latest one is applied, and every caller's promise
   * resolves once that latest one has (so `await apply()` always sees the newest settings applied).
   * `keyKept`: a settings change (a new team filter, say), which changes no key: when the service's key slot is the one
   * a key was last found for and no read is under way, that key is applied with the new settings in the same turn, so
   * the Explorer never lists the old scope's rows while the views already read the new settings (a key read is a round
   * trip to the workbench). A key change (SecretStorage's event) and every other call read the key.
   */
  apply({ keyKept = false }: { keyKept?: boolean } = {}): Promise<void> {
    const sequence = ++this.sequence;
    this.latest = this.applyNow(sequence, keyKept);
    return this.latest;
  }

  private async applyNow(sequence: number, keyKept: boolean): Promise<void> {
    const { keys, log } = this.options;
    const settings = serviceSettings(this.options.target(), this.options.settings.current);
    const found = this.found;
    if (keyKept && found && this.reading === 0 && found.slot === settings.keySlot) {
      return this.configure(settings, found.apiKey, undefined);
    }
    let apiKey: string | undefined;
    let secretsError: string | undefined;
    if (settings.keySlot) {
      this.reading++;
      try {
        apiKey = await keys.get(settings.keySlot);
      } catch (e) {
        secretsError = secretStoreProblem(e);
        log.error(secretsError);
      } finally {
        this.reading--;
      }
    }
    if (sequence !== this.sequence) return this.latest;
    this.found = settings.keySlot && apiKey !== undefined ? { slot: settings.keySlot, apiKey } : undefined;
    this.configure(settings, apiKey, secretsError);
  }

  private configure(settings: ServiceSettings, apiKey: string | undefined, secretsError: string | undefined): void {
    this.options.explorer.configure({ ...settings, apiKey, secretsError, userAgent: this.options.userAgent });
    this.markRead();
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
