import * as vscode from 'vscode';
import type { Disposable } from '../../base/events';
import { describeIgnored, ignoredWorkspaceSettings, type Settings, type SettingsSource } from './settings';

/**
 * Says what is wrong with the settings, once per distinct problem: a team id that is not used (a notification and the
 * log), an entry of `flowsync.services` that is skipped (one warning naming it), and user-only settings a workspace
 * tries to set (the log, once per session).
 */
export class SettingsWarnings implements Disposable {
  private warnedIgnored = false;
  private warnedTeamId?: string;
  private readonly warnedServices = new Set<string>();
  private readonly subscription: Disposable;

  constructor(
    settings: SettingsSource,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscription = settings.onDidChange((s) => this.check(s));
    this.check(settings.current);
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private check(settings: Readonly<Settings>): void {
    void this.warnAboutWorkspaceOverrides();
    if (settings.services.length === 0) this.warnAboutTeamId(settings.teamIdProblem);
    for (const warning of settings.serviceWarnings) {
      if (this.warnedServices.has(warning)) continue;
      this.warnedServices.add(warning);
      this.log.warn(warning);
      void vscode.window.showWarningMessage(warning);
    }
  }

  private warnAboutTeamId(problem: string | undefined): void {
    if (problem === this.warnedTeamId) return;
    this.warnedTeamId = problem;
    if (!problem) return;
    this.log.warn(problem);
    void vscode.window.showWarningMessage(problem);
  }

  private async warnAboutWorkspaceOverrides(): Promise<void> {
    if (this.warnedIgnored) return;
    const ignored = await ignoredWorkspaceSettings();
    if (ignored.length && !this.warnedIgnored) {
      this.warnedIgnored = true;
      this.log.warn(describeIgnored(ignored));
    }
  }
}
