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
export { setServiceUrl } from '../../settings/vscode/serviceUrlCommand';
export { clearTeamFilter, filterByTeam } from '../../lists/vscode/teamFilterCommand';
export { addService, addServiceNow, removeService, removeServiceNow } from '../../services/vscode/serviceCommands';
export { clearFilter, copyViewLink, filterView, goTo } from '../../find/vscode/findCommands';
