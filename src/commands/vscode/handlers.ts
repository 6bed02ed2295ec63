import { COMMAND, type CommandId } from '../../base/commandIds';
import { LISTS, type AnyList } from '../../lists';
import { isHistoryNode, type HistoryNode } from '../../history/vscode/historyNodes';
import type { ExplorerNode } from '../../lists/vscode/chosenRows';
import { showActivity } from '../../activity/vscode/activityCommand';
import { showInsights } from '../../insights/vscode/insightsCommand';
import { clearApiKey, setApiKey } from '../../keys/vscode/apiKeyCommands';
import { arrangeList } from '../../lists/vscode/arrangeCommands';
import { clearHistory, unwatch, watch } from '../../history/vscode/historyCommands';
import { pinFlow, unpinFlow } from '../../history/vscode/pinCommands';
import { exportHistory } from '../../export/vscode/exportCommand';
import { goToPages, openInBrowser } from '../../links/vscode/openInBrowser';
import { copyId, copyLink, openJson } from '../../json/vscode/openJsonCommand';
import { refreshAll, refreshList } from '../../lists/vscode/refreshCommand';
import { setServiceUrl } from '../../services/vscode/serviceUrlCommand';
import { clearTeamFilter, filterByTeam } from '../../lists/vscode/teamFilterCommand';
import { addService, removeService } from '../../services/vscode/serviceCommands';
import { clearFilter, copyViewLink, filterView, goTo } from '../../find/vscode/findCommands';
import { keyPlace } from '../../services/vscode/keyPlace';
import { pickService } from '../../services/vscode/pickService';
import type { ServiceConnection } from '../../services/vscode/serviceConnection';
import { saveServiceTeam } from '../../services/vscode/saveServices';
import type { CommandContext } from './commandContext';

/**
 * The command table: what each command does. Its own chunk, dist/chunks/commands.js (esbuild.js CHUNKS), loaded when
 * the first command runs (registerCommands.ts registers every id at activation).
 */

/** The test API's Add Service... and Remove Service... without their questions. */
export { addServiceNow, removeServiceNow } from '../../services/vscode/serviceCommands';

/**
 * What every handler gets: the start's context and the ports that features' commands ask for, made from the services
 * here (a feature below the services gets them passed in; it does not import them).
 */
export function deps(ctx: CommandContext) {
  return {
    ...ctx,
    /** The only service, or the one picked by name (among those `only` accepts); undefined when cancelled. */
    pickService: (title: string, only?: (service: ServiceConnection) => boolean) =>
      pickService(ctx.services, title, only),
    /** Where a key command's key goes (KeyCommandDeps). */
    keyPlace: (title: string, askUrl: boolean) => keyPlace(ctx, title, askUrl),
    /** Go to...'s item button Open in Browser (FindCommandDeps.web). */
    web: goToPages(ctx),
    /** Saves and applies a service's team filter (TeamFilterDeps). */
    saveTeam: (service: ServiceConnection, teamId: string) => saveServiceTeam(ctx.settings, service, teamId),
  };
}

/** What every handler of this chunk gets (deps). */
export type CommandDeps = ReturnType<typeof deps>;

type Row = ExplorerNode | HistoryNode;
/** `arg`: the command's first argument as given (a command link's, e.g. Clear Filter's view; a task's or key binding's argument object; a view's row). */
type Handler = (deps: CommandDeps, node?: Row, nodes?: readonly Row[], arg?: unknown) => Promise<void> | void;

/** A handler that runs once the services are made (ServiceRegistry.whenMade): every command's but Show Log's. */
const whenMade =
  (handler: Handler): Handler =>
  async (deps, node, nodes, arg) => {
    await deps.services.whenMade();
    return handler(deps, node, nodes, arg);
  };

/** The refresh command of each list comes from the registry; every other command id has a handler here. */
type ListCommand = AnyList['refreshCommand'] | AnyList['arrangements']['command'];
const LIST_HANDLERS = Object.fromEntries(
  LISTS.flatMap((list) => [
    [list.refreshCommand, whenMade(refreshList(list.id))],
    [list.arrangements.command, whenMade((deps) => arrangeList(deps, list.id))],
  ]),
) as Record<ListCommand, Handler>;

/** Command id → handler; every id of COMMAND has one (a Record: a missing handler does not compile). */
const HANDLERS: Record<CommandId, Handler> = {
  ...LIST_HANDLERS,
  ...({
    [COMMAND.setApiKey]: whenMade(setApiKey),
    [COMMAND.clearApiKey]: whenMade(clearApiKey),
    [COMMAND.setBaseUrl]: whenMade(setServiceUrl),
    [COMMAND.refresh]: whenMade(refreshAll),
    [COMMAND.openJson]: whenMade(openJson),
    [COMMAND.copyId]: whenMade(copyId),
    [COMMAND.filterByTeam]: whenMade(filterByTeam),
    [COMMAND.clearTeamFilter]: whenMade(clearTeamFilter),
    [COMMAND.showLog]: (deps) => deps.log.show(true),
    [COMMAND.copyLink]: whenMade(copyLink),
    [COMMAND.watch]: whenMade(watch),
    [COMMAND.unwatch]: whenMade(unwatch),
    [COMMAND.showActivity]: whenMade(showActivity),
    [COMMAND.showInsights]: whenMade(showInsights),
    [COMMAND.clearHistory]: whenMade(clearHistory),
    [COMMAND.addService]: whenMade(addService),
    [COMMAND.removeService]: whenMade(removeService),
    [COMMAND.filterProcessing]: whenMade((deps) => filterView(deps, 'processing')),
    [COMMAND.filterConnections]: whenMade((deps) => filterView(deps, 'connections')),
    [COMMAND.filterHistory]: whenMade((deps) => filterView(deps, 'history')),
    [COMMAND.clearFilter]: whenMade((deps, _node, _nodes, arg) => clearFilter(deps, arg)),
    [COMMAND.goTo]: whenMade(goTo),
    [COMMAND.copyViewLink]: whenMade(copyViewLink),
    [COMMAND.exportHistory]: whenMade((deps, _node, _nodes, arg) => exportHistory(deps, arg)),
    [COMMAND.pinFlow]: whenMade(pinFlow),
    [COMMAND.unpinFlow]: whenMade(unpinFlow),
    [COMMAND.openInBrowser]: whenMade(openInBrowser),
  } satisfies Record<Exclude<CommandId, ListCommand>, Handler>),
};

/**
 * Runs a command: `node` and `nodes` are what VS Code passed (a view's row and the selected rows, or anything a key
 * binding, a task or a command link gives); only rows of our views reach a handler as rows.
 */
export function runCommand(id: CommandId, ctx: CommandContext, node?: unknown, nodes?: unknown): Promise<void> | void {
  return HANDLERS[id](
    deps(ctx),
    isNode(node) ? node : undefined,
    Array.isArray(nodes) && nodes.every(isNode) ? nodes : undefined,
    node,
  );
}

/** Commands run from a keybinding or the palette may get an unrelated argument (e.g. a URI): ignore it. */
function isNode(value: unknown): value is Row {
  if (isHistoryNode(value)) return true;
  const node = value as { kind?: unknown; list?: unknown } | undefined;
  return (node?.kind === 'group' || node?.kind === 'leaf') && LISTS.some((list) => list.id === node.list);
}
