import * as vscode from 'vscode';
import { COMMAND, type PanelKind } from '../../base/commandIds';
import { restoreActivity } from '../../activity/vscode/activityCommand';
import { revealRun } from '../../find/vscode/findCommands';
import type { HistoryNode } from '../../history/historyNode';
import { restoreInsights } from '../../insights/vscode/insightsCommand';
import type { ServiceConnection } from '../../services/vscode/serviceConnection';
import { restoreTimeline, showTimeline, type TimelineCommandDeps } from '../../timeline/vscode/timelineCommand';
import type { CommandContext } from './commandContext';

/*
 * The webview panels' wiring that needs the other features: the Run Timeline's ports (History's filter, reveal in
 * History, Open as JSON and in Browser), and each panel restored after a reload. In the commands' chunk.
 */

/** What the Run Timeline reads and does, from the start's context: the filter's code is loaded (it is below). */
async function timelineDeps(deps: CommandContext): Promise<TimelineCommandDeps<ServiceConnection>> {
  const find = await deps.find.get();
  return {
    extensionUri: deps.extensionUri,
    services: deps.services,
    clock: deps.clock,
    historyFilter: () => find.filters.get('history'),
    onDidChangeFilter: (listener) => find.filters.onDidChange((view) => view === 'history' && listener()),
    act: async (action, service, { entry, processingId }) => {
      if (processingId !== undefined) {
        // a sync processing now: it is a row of Processing, not of History yet
        if (action === 'reveal') await deps.views.processing.revealItem(processingId, service.id);
        else if (action === 'json') {
          await deps.json.open({ list: 'processing', kind: 'item', id: processingId, service: service.id });
        }
        return;
      }
      if (!entry) return;
      const row: HistoryNode = { kind: 'historyEntry', entry, service: service.id };
      if (action === 'reveal') {
        await revealRun(deps.historyView, { service: service.id, id: entry.id, leftAt: entry.leftAt });
      } else await vscode.commands.executeCommand(action === 'json' ? COMMAND.openJson : COMMAND.openInBrowser, row);
    },
  };
}

/** Show Run Timeline. */
export async function openTimeline(deps: CommandContext): Promise<void> {
  showTimeline(await timelineDeps(deps));
}

/**
 * A panel VS Code restored after a reload (its serializer, registerCommands.ts), drawn again from History (never
 * asking the service) once the services are made, with the state its page kept (checked by each panel's restore).
 */
export async function restorePanel(
  deps: CommandContext,
  kind: PanelKind,
  panel: vscode.WebviewPanel,
  state: unknown,
): Promise<void> {
  await deps.services.whenMade();
  if (kind === 'activity') restoreActivity(deps, panel, state);
  else if (kind === 'insights') restoreInsights(deps, panel);
  else restoreTimeline(await timelineDeps(deps), panel, state);
}
