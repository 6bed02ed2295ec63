import * as vscode from 'vscode';
import type { Disposable } from '../../base/events';
import { describeIgnored, ignoredWorkspaceSettings } from '../../settings/vscode/ignoredSettings';
import { APPLICATION_SCOPED, type Settings, type SettingsFeed } from '../../settings/settingsFeed';
import { warningsBrought, type ServicesSection } from '../servicesSection';

/**
 * Says what is wrong with the settings, once per distinct problem: a team id that is not used (a notification and the
 * log), an entry of `flowsync.services` that is skipped or a web page that is not offered (one warning naming it, said
 * again only after a change took it away and another brought it back), and user-only settings a workspace
 * tries to set (the log, once per session). Made by the registry with the services' code (their chunk, esbuild.js
 * CHUNKS), before the services.
 */
export class SettingsWarnings implements Disposable {
  /** The list of ignored workspace settings last said in the log (said again only when it changes). */
  private warnedIgnored = '';
  private warnedTeamId?: string;
  /** The services' warnings of the last read: a warning is said when a change brings it, not again while it stays. */
  private warnedServices: ReadonlySet<string> = new Set<string>();
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
    const { said, now } = warningsBrought(this.warnedServices, settings.serviceWarnings);
    this.warnedServices = now;
    for (const warning of said) this.warn(warning);
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
