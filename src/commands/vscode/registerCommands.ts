import * as vscode from 'vscode';
import { COMMAND, type CommandId } from '../../base/commandIds';
import { inert } from '../../base/inert';
import type { OnFirstUse } from '../../base/onFirstUse';
import type { CommandContext } from './commandContext';
import type * as CommandTable from './handlers';

/**
 * Registers every command (each id of COMMAND) at activation. What a command does is in the command table
 * (handlers.ts: its own chunk, loaded by `table` when the first command runs); a command that fails is logged and
 * its message shown.
 */
export function registerCommands(ctx: CommandContext, table: OnFirstUse<typeof CommandTable>): vscode.Disposable[] {
  return (Object.values(COMMAND) as CommandId[]).map((id) =>
    vscode.commands.registerCommand(id, async (node?: unknown, nodes?: unknown) => {
      try {
        await (await table.get()).runCommand(id, ctx, node, nodes);
      } catch (e) {
        const message = inert((e as Error)?.message ?? String(e));
        ctx.log.error(`${id} failed: ${message}`);
        void vscode.window.showErrorMessage(message);
      }
    }),
  );
}
