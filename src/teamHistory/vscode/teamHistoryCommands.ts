import * as vscode from 'vscode';
import { t } from '../../base/l10n';
import type { OnFirstUse } from '../../base/onFirstUse';
import type { TeamAnswer, TeamHistory } from './teamHistory';

/** What the two commands use: team History of this window (made with the services). */
export interface TeamHistoryCommandDeps {
  readonly teamHistory: OnFirstUse<TeamHistory>;
}

function say(answer: TeamAnswer | undefined): void {
  if (!answer?.text) return;
  const show =
    answer.level === 'error'
      ? vscode.window.showErrorMessage
      : answer.level === 'warning'
        ? vscode.window.showWarningMessage
        : vscode.window.showInformationMessage;
  void show(answer.text);
}

/** The web build: no TCP, so no store. */
function unavailable(): void {
  void vscode.window.showInformationMessage(
    t(
      'Team History needs VS Code on the desktop or a remote: VS Code for the Web cannot reach a PostgreSQL server. Local History works as before.',
    ),
  );
}

/** Connect Team History...: asks for the connection string (a password box, nothing else), connects, says what it found. */
export async function connectTeamHistory(deps: TeamHistoryCommandDeps): Promise<void> {
  const team = await deps.teamHistory.get();
  if (!team.available) return unavailable();
  const text = await vscode.window.showInputBox({
    title: t('Connect Team History'),
    prompt: t(
      'The PostgreSQL connection string of the team’s store: postgres://user:password@host:5432/database?sslmode=verify-full. It is kept in VS Code’s secret storage only.',
    ),
    placeHolder: t('postgres://user:password@host:5432/database'),
    password: true,
    ignoreFocusOut: true,
  });
  if (!text) return;
  say(await team.connect(text));
}

/** Disconnect Team History: forgets the store, offers to delete this installation's rows; the local History stays. */
export async function disconnectTeamHistory(deps: TeamHistoryCommandDeps): Promise<void> {
  const team = await deps.teamHistory.get();
  if (!team.available) return unavailable();
  if (!team.connected) {
    await team.disconnect(false);
    void vscode.window.showInformationMessage(t('Team History is not connected.'));
    return;
  }
  const keep = t('Disconnect');
  const remove = t('Disconnect and Delete My Rows');
  const choice = await vscode.window.showWarningMessage(
    t(
      'Disconnect Team History? This installation stops sharing its runs and showing the team’s; the local History stays. Its rows in the team’s store stay too, unless you delete them.',
    ),
    { modal: true },
    keep,
    remove,
  );
  if (!choice) return;
  const answer = await team.disconnect(choice === remove);
  say(answer ?? { level: 'info', text: t('Team History disconnected.') });
}
