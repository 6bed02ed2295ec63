import type { CommandContext } from './commandContext';
import { keyPlace } from '../../services/vscode/keyPlace';
import { pickService } from '../../services/vscode/pickService';
import type { ServiceConnection } from '../../services/vscode/serviceConnection';
import { saveServiceTeam } from '../../services/vscode/saveServices';

/**
 * The commands' handlers: one chunk, dist/chunks/commands.js (esbuild.js CHUNKS), loaded by the first command that
 * runs (registerCommands.ts registers every id at activation and imports this module on first use).
 */
export { clearApiKey, setApiKey } from '../../keys/vscode/apiKeyCommands';
export { arrangeList } from '../../lists/vscode/arrangeCommands';
export { clearHistory, unwatch, watch } from '../../history/vscode/historyCommands';
export { exportHistory } from '../../history/vscode/exportCommand';
export { copyId, copyLink, openJson } from '../../json/vscode/openJsonCommand';
export { refreshAll, refreshList } from '../../lists/vscode/refreshCommand';
export { setServiceUrl } from '../../services/vscode/serviceUrlCommand';
export { clearTeamFilter, filterByTeam } from '../../lists/vscode/teamFilterCommand';
export { addService, addServiceNow, removeService, removeServiceNow } from '../../services/vscode/serviceCommands';
export { clearFilter, copyViewLink, filterView, goTo } from '../../find/vscode/findCommands';
export { showActivity } from '../../activity/vscode/activityCommand';
export { showInsights } from '../../insights/vscode/insightsCommand';

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
    /** Saves and applies a service's team filter (TeamFilterDeps). */
    saveTeam: (service: ServiceConnection, teamId: string) => saveServiceTeam(ctx.settings, service, teamId),
  };
}

/** What every handler of this chunk gets (deps). */
export type CommandDeps = ReturnType<typeof deps>;
