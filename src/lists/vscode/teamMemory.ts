import type * as vscode from 'vscode';
import type { Disposable } from '../../base/events';
import type { TeamDirectory } from '../teams';
import { STATE_KEYS } from '../../base/stateKeys';

/** The teams seen per service origin (globalState): the team filter's choices. */
const TEAMS_STATE_KEY = STATE_KEYS.knownTeamsByOrigin;
/** 0.1.0 kept one list for every service; it is removed, since it cannot be told which service it belongs to. */
const LEGACY_TEAMS_STATE_KEY = STATE_KEYS.knownTeamsOfOneService;

/** Keeps the teams a service's answers named across restarts: restored at once, saved whenever one is learned. */
export class TeamMemory implements Disposable {
  private readonly subscription: Disposable;

  constructor(teams: TeamDirectory, state: vscode.Memento) {
    teams.restore(state.get<unknown>(TEAMS_STATE_KEY));
    if (state.get(LEGACY_TEAMS_STATE_KEY) !== undefined) void state.update(LEGACY_TEAMS_STATE_KEY, undefined);
    this.subscription = teams.onDidLearn(() => void state.update(TEAMS_STATE_KEY, teams.snapshot()));
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
