import { COMMAND, type CommandId } from '../../base/commandIds';
import { LISTS, type AnyList, type ListId } from '../../lists';
import { checkArguments, type Row } from '../commandArgs';
import { showActivity } from '../../activity/vscode/activityCommand';
import { showInsights } from '../../insights/vscode/insightsCommand';
import { openTimeline, restorePanel } from './panelCommands';
import { clearApiKey, setApiKey } from '../../keys/vscode/apiKeyCommands';
import { arrangeList } from '../../lists/vscode/arrangeCommands';
import { clearHistory, unwatch, watch } from '../../history/vscode/historyCommands';
import { pinFlow, unpinFlow } from '../../history/vscode/pinCommands';
import { exportHistory } from '../../export/vscode/exportCommand';
import { goToPages, openInBrowser } from '../../links/vscode/openInBrowser';
import { copyAsMarkdown } from '../../links/vscode/copyMarkdown';
import { copyId, copyLink, openJson } from '../../json/vscode/openJsonCommand';
import { refreshAll, refreshList } from '../../lists/vscode/refreshCommand';
import { setServiceUrl } from '../../services/vscode/serviceUrlCommand';
import { clearTeamFilter, filterByTeam } from '../../lists/vscode/teamFilterCommand';
import { addService, removeService } from '../../services/vscode/serviceCommands';
import { connectTeamHistory, disconnectTeamHistory } from '../../teamHistory/vscode/teamHistoryCommands';
import { clearFilter, copyViewLink, filterView, goTo } from '../../find/vscode/findCommands';
import { keyPlace } from '../../services/vscode/keyPlace';
import { pickService } from '../../services/vscode/pickService';
import type { ServiceConnection } from '../../services/vscode/serviceConnection';
import { saveServiceTeam } from '../../services/vscode/saveServices';
import type { CommandContext } from './commandContext';

/*
 * The command table: what each command does. The commands' chunk, dist/chunks/commands.js (esbuild.js CHUNKS), loaded
 * when the first command runs (registerCommands.ts registers every id at activation).
 */

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
    [COMMAND.showTimeline]: whenMade(openTimeline),
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
    [COMMAND.copyAsMarkdown]: whenMade(copyAsMarkdown),
    [COMMAND.connectTeamHistory]: whenMade(connectTeamHistory),
    [COMMAND.disconnectTeamHistory]: whenMade(disconnectTeamHistory),
  } satisfies Record<Exclude<CommandId, ListCommand>, Handler>),
};

/**
 * Runs a command: `node` and `nodes` are what VS Code passed (a view's row and the selected rows, or anything a key
 * binding, a task, a command link or another extension gives). Each is checked against the argument the command takes
 * (src/commands/commandArgs.ts) and a row against the views (a list's row must be one a view handed out; a History
 * row's service must be shown) before anything else: a command given anything else does nothing but log one line.
 */
export async function runCommand(id: CommandId, ctx: CommandContext, node?: unknown, nodes?: unknown): Promise<void> {
  const checked = checkArguments(id, node, nodes);
  if ('ignored' in checked) return ctx.log.warn(checked.ignored);
  const rows = [...(checked.node ? [checked.node] : []), ...(checked.nodes ?? [])];
  if (rows.length) {
    await ctx.services.whenMade();
    if (!rows.every((row) => shownRow(ctx, row))) {
      return ctx.log.warn(`${id}: ignored its argument, a row that no view shows.`);
    }
  }
  if (checked.log) ctx.log.warn(checked.log);
  await HANDLERS[id](deps(ctx), checked.node, checked.nodes, checked.arg);
}

/** Whether a row is one the views show: a list's row a view handed out, a History row of a service shown. */
function shownRow(ctx: CommandContext, row: Row): boolean {
  if (row.kind === 'leaf' || row.kind === 'group') return ctx.views[row.list as ListId].ownerOf(row) !== undefined;
  return ctx.services.byId(row.service) !== undefined;
}

/** A webview panel VS Code restored after a reload (its serializer, registerCommands.ts): see restorePanel. */
export { restorePanel };
