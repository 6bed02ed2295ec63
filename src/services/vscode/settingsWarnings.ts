import * as vscode from 'vscode';
import type { Disposable } from '../../base/events';
import { describeIgnored, ignoredWorkspaceSettings } from '../../settings/vscode/ignoredSettings';
import { APPLICATION_SCOPED, type Settings, type SettingsFeed } from '../../settings/settingsFeed';
import type { ServicesSection } from '../servicesSection';

/**
 * Says what is wrong with the settings, once per distinct problem: a team id that is not used (a notification and the
 * log), an entry of `flowsync.services` that is skipped (one warning naming it), and user-only settings a workspace
 * tries to set (the log, once per session). Made by the registry with the services' code (their chunk, esbuild.js
 * CHUNKS), before the services.
 */
export class SettingsWarnings implements Disposable {
  /** The list of ignored workspace settings last said in the log (said again only when it changes). */
  private warnedIgnored = '';
  private warnedTeamId?: string;
  private readonly warnedServices = new Set<string>();
  private readonly subscription: Disposable;

  constructor(
    settings: SettingsFeed<Settings & ServicesSection>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscription = settings.onDidChange((s) => this.check(s));
    this.check(settings.current);
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private check(settings: Readonly<Settings & ServicesSection>): void {
    void this.warnAboutWorkspaceOverrides();
    if (settings.services.length === 0) this.warnAboutTeamId(settings.teamIdProblem);
    for (const warning of settings.serviceWarnings) {
      if (this.warnedServices.has(warning)) continue;
      this.warnedServices.add(warning);
      this.warn(warning);
    }
  }

  /** The log and a notification. */
  private warn(text: string): void {
    this.log.warn(text);
    void vscode.window.showWarningMessage(text);
  }

  private warnAboutTeamId(problem: string | undefined): void {
    if (problem === this.warnedTeamId) return;
    this.warnedTeamId = problem;
    if (problem) this.warn(problem);
  }

  /** Says once which settings of the workspace are ignored, and again only when that list changes (a new key). */
  private async warnAboutWorkspaceOverrides(): Promise<void> {
    // What only the user's own settings may set (Settings, ServicesSection): where the key is sent, where a click goes.
    const ignored = await ignoredWorkspaceSettings(APPLICATION_SCOPED);
    const said = ignored.join(', ');
    if (ignored.length && said !== this.warnedIgnored) {
      this.warnedIgnored = said;
      this.log.warn(describeIgnored(ignored));
    }
  }
}
