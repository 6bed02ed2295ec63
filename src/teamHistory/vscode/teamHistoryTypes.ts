import type * as vscode from 'vscode';
import type { Clock } from '../../base/clock';
import type { TeamSlot } from '../../history/teamPort';
import type { Settings, SettingsFeed } from '../../settings/settingsFeed';

/* What team History's start (teamHistory.ts) and its store's chunk (teamHistoryConnection.ts) hand each other. */

export interface TeamHistoryDeps {
  readonly secrets: vscode.SecretStorage;
  readonly globalState: vscode.Memento;
  readonly log: vscode.LogOutputChannel;
  readonly clock: Clock;
  readonly settings: SettingsFeed<Settings>;
  /** The window's team History, which every service's History joins (src/history/teamPort.ts). */
  readonly slot: TeamSlot;
}

/** What a command says when it is done: one sentence, never the connection string. */
export interface TeamAnswer {
  readonly level: 'info' | 'warning' | 'error';
  readonly text: string;
}

/** What the store's code hands back of a store it opened. */
export interface OpenedStore {
  close(): Promise<void>;
  /** Deletes every row of this installation (Disconnect Team History, when asked to). */
  deleteOwn(): Promise<TeamAnswer>;
}
