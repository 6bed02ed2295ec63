import * as vscode from 'vscode';
import { COMMAND, type CommandId } from '../../base/commandIds';
import { inert } from '../../base/inert';
import { LISTS, type AnyList } from '../../lists';
import type { CommandContext } from './commandContext';
import type { CommandDeps } from './handlers';
import { isHistoryNode, type HistoryNode } from '../../history/vscode/historyNodes';
import type { ExplorerNode } from '../../lists/vscode/chosenRows';

type Row = ExplorerNode | HistoryNode;
/** `arg`: the command's first argument as given (a command link's, e.g. Clear Filter's view; a task's or key binding's argument object; a view's row). */
type Handler = (ctx: CommandContext, node?: Row, nodes?: readonly Row[], arg?: unknown) => Promise<void> | void;
/** A handler of the handlers' chunk: it gets the context with the ports the chunk adds (handlers.ts: deps). */
type ChunkHandler = (deps: CommandDeps, node?: Row, nodes?: readonly Row[], arg?: unknown) => Promise<void> | void;

/** The handlers' module: its own chunk (esbuild.js CHUNKS), loaded when the first command runs. */
const handlers = () => import('./handlers');
type Handlers = Awaited<ReturnType<typeof handlers>>;

/** A handler taken from the handlers' module when it runs, once the services are made (ServiceRegistry.whenMade). */
const onFirstUse =
  (pick: (h: Handlers) => ChunkHandler): Handler =>
  async (ctx, node, nodes, arg) => {
    const [module] = await Promise.all([handlers(), ctx.services.whenMade()]);
    return pick(module)(module.deps(ctx), node, nodes, arg);
  };

/** The refresh command of each list comes from the registry; every other command id has a handler here. */
type ListCommand = AnyList['refreshCommand'] | AnyList['arrangements']['command'];
const LIST_HANDLERS = Object.fromEntries(
  LISTS.flatMap((list) => [
    [list.refreshCommand, onFirstUse((h) => h.refreshList(list.id))],
    [list.arrangements.command, onFirstUse((h) => (deps) => h.arrangeList(deps, list.id))],
  ]),
) as Record<ListCommand, Handler>;

/** Command id → handler; every id of COMMAND has one (a Record: a missing handler does not compile). */
const HANDLERS: Record<CommandId, Handler> = {
  ...LIST_HANDLERS,
  ...({
    [COMMAND.setApiKey]: onFirstUse((h) => h.setApiKey),
    [COMMAND.clearApiKey]: onFirstUse((h) => h.clearApiKey),
    [COMMAND.setBaseUrl]: onFirstUse((h) => h.setServiceUrl),
    [COMMAND.refresh]: onFirstUse((h) => h.refreshAll),
    [COMMAND.openJson]: onFirstUse((h) => h.openJson),
    [COMMAND.copyId]: onFirstUse((h) => h.copyId),
    [COMMAND.filterByTeam]: onFirstUse((h) => h.filterByTeam),
    [COMMAND.clearTeamFilter]: onFirstUse((h) => h.clearTeamFilter),
    [COMMAND.showLog]: (ctx) => ctx.log.show(true),
    [COMMAND.copyLink]: onFirstUse((h) => h.copyLink),
    [COMMAND.watch]: onFirstUse((h) => h.watch),
    [COMMAND.unwatch]: onFirstUse((h) => h.unwatch),
    [COMMAND.showActivity]: onFirstUse((h) => h.showActivity),
    [COMMAND.showInsights]: onFirstUse((h) => h.showInsights),
    [COMMAND.clearHistory]: onFirstUse((h) => h.clearHistory),
    [COMMAND.addService]: onFirstUse((h) => h.addService),
    [COMMAND.removeService]: onFirstUse((h) => h.removeService),
    [COMMAND.filterProcessing]: onFirstUse((h) => (deps) => h.filterView(deps, 'processing')),
    [COMMAND.filterConnections]: onFirstUse((h) => (deps) => h.filterView(deps, 'connections')),
    [COMMAND.filterHistory]: onFirstUse((h) => (deps) => h.filterView(deps, 'history')),
    [COMMAND.clearFilter]: onFirstUse((h) => (deps, _node, _nodes, arg) => h.clearFilter(deps, arg)),
    [COMMAND.goTo]: onFirstUse((h) => h.goTo),
    [COMMAND.copyViewLink]: onFirstUse((h) => h.copyViewLink),
    [COMMAND.exportHistory]: onFirstUse((h) => (deps, _node, _nodes, arg) => h.exportHistory(deps, arg)),
  } satisfies Record<Exclude<CommandId, ListCommand>, Handler>),
};

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return Object.entries(HANDLERS).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (node?: unknown, nodes?: unknown) => {
      try {
        await handler(
          ctx,
          isNode(node) ? node : undefined,
          Array.isArray(nodes) && nodes.every(isNode) ? nodes : undefined,
          node,
        );
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
