import * as vscode from 'vscode';
import { DisposableStore } from '../../base/events';
import type { Explorer } from '../../lists/explorer';
import { ApiKeyStore, secretStoreProblem } from '../../keys/vscode/apiKeyStore';
import { ContextKeys } from '../../base/vscode/contextKeys';
import { configuredService, describeIgnored, ignoredWorkspaceSettings, type SettingsSource } from '../../settings/vscode/settings';

/**
 * Feeds the Explorer from settings and SecretStorage, again whenever either changes (also from another window), and
 * keeps the context keys the welcome views and menus use up to date.
 */
export class ConfigurationSync implements vscode.Disposable {
  private sequence = 0;
  /** The newest apply(): a superseded call resolves when this one has applied, never before. */
  private latest: Promise<void> = Promise.resolve();
  private warnedIgnored = false;
  private warnedTeamId?: string;
  private readonly disposables = new DisposableStore();
  private readonly contextKeys = new ContextKeys();

  constructor(
    private readonly explorer: Explorer,
    private readonly settings: SettingsSource,
    private readonly keys: ApiKeyStore,
    private readonly log: vscode.LogOutputChannel,
    private readonly userAgent: string,
  ) {
    this.disposables.add(settings.onDidChange(() => void this.apply()), keys.onDidChange(() => void this.apply()));
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
    void this.warnAboutWorkspaceOverrides();
    this.warnAboutTeamId(settings.teamIdProblem);
    let apiKey: string | undefined;
    let secretsError: string | undefined;
    const configured = configuredService(settings);
    const origin = configured.kind === 'ok' ? configured.service.origin : undefined;
    if (origin) {
      try {
        apiKey = await this.keys.get(origin);
      } catch (e) {
        secretsError = secretStoreProblem(e);
        this.log.error(secretsError);
      }
    }
    if (sequence !== this.sequence) return this.latest;
    this.explorer.configure({
      baseUrl: settings.baseUrl,
      apiKey,
      secretsError,
      teamId: settings.teamId,
      allowHttp: settings.allowHttp,
      timeoutMs: settings.requestTimeoutSeconds * 1000,
      autoRefresh: settings.autoRefresh,
      refreshIntervalMs: settings.refreshIntervalSeconds * 1000,
      userAgent: this.userAgent,
    });
    await Promise.all([this.contextKeys.set('flowsync.state', this.explorer.status), this.contextKeys.set('flowsync.teamFilter', settings.teamId !== '')]);
  }

  dispose(): void {
    this.disposables.dispose();
  }

  /** Says once per distinct problem that the team filter is ignored (a notification, and the log). */
  private warnAboutTeamId(problem: string | undefined): void {
    if (problem === this.warnedTeamId) return;
    this.warnedTeamId = problem;
    if (!problem) return;
    this.log.warn(problem);
    void vscode.window.showWarningMessage(problem);
  }

  /** Says once per session that workspace values for user-only settings are ignored. */
  private async warnAboutWorkspaceOverrides(): Promise<void> {
    if (this.warnedIgnored) return;
    const ignored = await ignoredWorkspaceSettings();
    if (ignored.length && !this.warnedIgnored) {
      this.warnedIgnored = true;
      this.log.warn(describeIgnored(ignored));
    }
  }
}
