import * as vscode from 'vscode';
import { inert } from '../core/inert';
import { clearApiKey, setApiKey } from './apiKey';
import type { CommandContext } from './context';
import { copyId, openJson, type ExplorerNode } from './openJson';
import { refreshAll, refreshConnections, refreshProcessing } from './refresh';
import { setServiceUrl } from './serviceUrl';
import { clearTeamFilter, filterByTeam } from './teamFilter';

/** Command id → handler. Ids are a stable contract (key bindings, tests): never rename. */
const COMMANDS: Record<string, (ctx: CommandContext, node?: ExplorerNode) => Promise<void> | void> = {
  'flowsync.setApiKey': setApiKey,
  'flowsync.clearApiKey': clearApiKey,
  'flowsync.setBaseUrl': setServiceUrl,
  'flowsync.refresh': refreshAll,
  'flowsync.refreshProcessing': refreshProcessing,
  'flowsync.refreshConnections': refreshConnections,
  'flowsync.openJson': openJson,
  'flowsync.copyId': copyId,
  'flowsync.filterByTeam': filterByTeam,
  'flowsync.clearTeamFilter': clearTeamFilter,
  'flowsync.showLog': (ctx) => ctx.log.show(true),
};

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (node?: ExplorerNode) => {
      try {
        await handler(ctx, isNode(node) ? node : undefined);
      } catch (e) {
        const message = inert((e as Error)?.message ?? String(e));
        ctx.log.error(`${id} failed: ${message}`);
        void vscode.window.showErrorMessage(message);
      }
    }),
  );
}

/** Commands run from a keybinding or the palette may get an unrelated argument (e.g. a URI): ignore it. */
function isNode(value: unknown): value is ExplorerNode {
  const kind = (value as { kind?: unknown } | undefined)?.kind;
  return kind === 'group' || kind === 'leaf';
}
