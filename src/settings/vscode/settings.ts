import * as vscode from 'vscode';
import { readSnapshot, type Settings, type SettingsFeed, type SettingsSections } from '../settingsFeed';
import { Emitter, type Disposable, type Listener } from '../../base/events';
import { SETTINGS_SECTION } from '../settingKeys';

/**
 * The one module that reads `flowsync.*` settings, by one route: a SettingsSource reads them once at start and once
 * per change into one immutable snapshot (`current`), and sends it out with `onDidChange`. Nothing else reads the
 * configuration: code that needs a setting holds the source and reads `current` (a field, not a read of VS Code's
 * configuration). It knows the settings every feature shares (settingsFeed.ts: Settings); a feature's own section is
 * read by the feature's reader (SettingsSections), given to the source at the start, in the same read.
 */
const SECTION = SETTINGS_SECTION;

/**
 * The settings, read once per change: the shared ones and the features' sections (`Extra`). What it keeps is typed
 * without `Extra` (the snapshot is what `sections` made), so a source with more sections serves code that needs fewer.
 */
export class SettingsSource<Extra extends object = object> implements SettingsFeed<Settings & Extra>, Disposable {
  private snapshot: Readonly<Settings>;
  private readonly changes: Emitter<Readonly<Settings>>;
  private readonly subscription: Disposable;

  /** `sections`: the features' own sections, read in the same read (SettingsSections). */
  constructor(sections: SettingsSections<Extra>, onListenerError?: (error: unknown) => void) {
    this.snapshot = readSettings(sections);
    this.changes = new Emitter(onListenerError);
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      this.snapshot = readSettings(sections);
      this.changes.fire(this.snapshot);
    });
  }

  /** The settings as last read (frozen: a change makes a new snapshot). */
  get current(): Readonly<Settings & Extra> {
    return this.snapshot as Readonly<Settings & Extra>;
  }

  onDidChange(listener: Listener<Readonly<Settings & Extra>>): Disposable {
    return this.changes.event(listener as Listener<Readonly<Settings>>);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
  }
}

function readSettings(sections: SettingsSections<object>): Readonly<Settings> {
  return readSnapshot(vscode.workspace.getConfiguration(SECTION), sections);
}
