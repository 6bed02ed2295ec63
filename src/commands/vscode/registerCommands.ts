import * as vscode from 'vscode';
import { COMMAND, PANEL_VIEW_TYPES, type CommandId, type PanelKind } from '../../base/commandIds';
import { inert } from '../../base/inert';
import type { OnFirstUse } from '../../base/onFirstUse';
import type { CommandContext } from './commandContext';
import type * as CommandTable from './handlers';

/**
 * Where the commands find what they act on: the product (src/start/vscode/product.ts, made after activate() returned),
 * and the log.
 */
export interface CommandsStart {
  /**
   * What the commands act on, once it is made (made at most once; a failed making is tried again). It rejects when it
   * could not be made: that is logged and said where it is made (with Show Log), so a command then says nothing more.
   */
  context(): Promise<CommandContext>;
  readonly log: Pick<vscode.LogOutputChannel, 'error' | 'show'>;
}

/**
 * Registers every command (each id of COMMAND) at activation. What a command does is in the command table
 * (handlers.ts: its own chunk, loaded by `table` when the first command runs), given what it acts on once that is
 * made; a command that fails is logged and its message shown.
 */
export function registerCommands(start: CommandsStart, table: OnFirstUse<typeof CommandTable>): vscode.Disposable[] {
  return (Object.values(COMMAND) as CommandId[]).map((id) =>
    vscode.commands.registerCommand(id, async (node?: unknown, nodes?: unknown) => {
      try {
        // Show Log is what a failure points to: it needs nothing but the log, made at start
        if (id === COMMAND.showLog) return start.log.show(true);
        const [commands, ctx] = await Promise.all([table.get(), start.context().catch(() => undefined)]);
        if (ctx) await commands.runCommand(id, ctx, node, nodes);
      } catch (e) {
        const message = inert((e as Error)?.message ?? String(e));
        start.log.error(`${id} failed: ${message}`);
        void vscode.window.showErrorMessage(message);
      }
    }),
  );
}

/**
 * Registers a serializer for each webview panel (the activity chart, Flow Insights, the Run Timeline), so that VS Code
 * brings each back after a reload where it was: the panel's code loads with the command table, when a panel is
 * restored (nothing more at start); a panel that cannot be restored is closed and the reason logged.
 */
export function registerPanelSerializers(
  start: CommandsStart,
  table: OnFirstUse<typeof CommandTable>,
): vscode.Disposable[] {
  return (Object.entries(PANEL_VIEW_TYPES) as Array<[PanelKind, string]>).map(([kind, viewType]) =>
    vscode.window.registerWebviewPanelSerializer(viewType, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        try {
          const [commands, ctx] = await Promise.all([table.get(), start.context()]);
          await commands.restorePanel(ctx, kind, panel, state);
        } catch (e) {
          start.log.error(`${viewType} could not be restored: ${inert((e as Error)?.message ?? String(e))}`);
          panel.dispose();
        }
      },
    }),
  );
}
