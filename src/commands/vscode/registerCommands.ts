import * as vscode from 'vscode';
import { COMMAND, type CommandId } from '../../base/commandIds';
import { inert } from '../../base/inert';
import { LISTS, type AnyList } from '../../lists';
import { clearApiKey, setApiKey } from '../../keys/vscode/apiKeyCommands';
import type { CommandContext } from './commandContext';
import { arrangeList } from '../../lists/vscode/arrangeCommands';
import { isHistoryNode, type HistoryNode } from '../../history/vscode/historyView';
import { clearHistory, unwatch, watch } from '../../history/vscode/historyCommands';
import { copyId, copyLink, openJson, type ExplorerNode } from '../../json/vscode/openJsonCommand';
import { refreshAll, refreshList } from '../../lists/vscode/refreshCommand';
import { setServiceUrl } from '../../settings/vscode/serviceUrlCommand';
import { clearTeamFilter, filterByTeam } from '../../lists/vscode/teamFilterCommand';
import { addService, removeService } from '../../services/vscode/serviceCommands';

type Row = ExplorerNode | HistoryNode;
type Handler = (ctx: CommandContext, node?: Row, nodes?: readonly Row[]) => Promise<void> | void;

/** The refresh command of each list comes from the registry; every other command id has a handler here. */
type ListCommand = AnyList['refreshCommand'] | AnyList['arrangements']['command'];
const LIST_HANDLERS = Object.fromEntries(
  LISTS.flatMap((list) => [
    [list.refreshCommand, refreshList(list.id)],
    [list.arrangements.command, (ctx: CommandContext) => arrangeList(ctx, list.id)],
  ]),
) as Record<ListCommand, Handler>;

/** Command id → handler; every id of COMMAND has one (a Record: a missing handler does not compile). */
const HANDLERS: Record<CommandId, Handler> = {
  ...LIST_HANDLERS,
  ...({
    [COMMAND.setApiKey]: setApiKey,
    [COMMAND.clearApiKey]: clearApiKey,
    [COMMAND.setBaseUrl]: setServiceUrl,
    [COMMAND.refresh]: refreshAll,
    [COMMAND.openJson]: openJson,
    [COMMAND.copyId]: copyId,
    [COMMAND.filterByTeam]: filterByTeam,
    [COMMAND.clearTeamFilter]: clearTeamFilter,
    [COMMAND.showLog]: (ctx) => ctx.log.show(true),
    [COMMAND.copyLink]: copyLink,
    [COMMAND.watch]: watch,
    [COMMAND.unwatch]: unwatch,
    [COMMAND.showActivity]: (ctx) => ctx.showActivity(),
    [COMMAND.clearHistory]: clearHistory,
    [COMMAND.addService]: addService,
    [COMMAND.removeService]: removeService,
  } satisfies Record<Exclude<CommandId, ListCommand>, Handler>),
};

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return Object.entries(HANDLERS).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (node?: unknown, nodes?: unknown) => {
      try {
        await handler(ctx, isNode(node) ? node : undefined, Array.isArray(nodes) && nodes.every(isNode) ? nodes : undefined);
      } catch (e) {
        const message = inert((e as Error)?.message ?? String(e));
        ctx.log.error(`${id} failed: ${message}`);
        void vscode.window.showErrorMessage(message);
      }
    }),
  );
}

/** Commands run from a keybinding or the palette may get an unrelated argument (e.g. a URI): ignore it. */
function isNode(value: unknown): value is Row {
  if (isHistoryNode(value)) return true;
  const node = value as { kind?: unknown; list?: unknown } | undefined;
  return (node?.kind === 'group' || node?.kind === 'leaf') && LISTS.some((list) => list.id === node.list);
}
