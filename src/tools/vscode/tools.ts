import * as vscode from 'vscode';
import { onFirstUse, type OnFirstUse } from '../../base/onFirstUse';
import { TOOL_NAMES } from '../toolNames';
import type { ToolDeps, ToolId } from './toolAnswers';

/**
 * The read-only language model tools (package.json `languageModelTools`): Copilot's agent mode or any chat
 * participant can ask what is processing, which connections there are, and what finished or is stuck. They answer
 * from what the Explorer holds and load only when nothing is loaded or it is older than the refresh interval (joining
 * a load in flight). The text is built in src/tools/ (one file per tool's answer, fenced by dataBlock.ts): outside its one data block only the extension's own
 * fixed sentences; every text from the service, a shared file or the settings is inert and quoted inside the block.
 * It never holds the key: with `keys`, the current service's key is read for each answer only to be removed from it,
 * should the service echo it in a name (results often go to a remote model). Read-only, so no confirmation is asked.
 * The history tool formats only the rows it lists, however large History is.
 * What a tool does when called is in toolAnswers.ts, its own chunk (esbuild.js CHUNKS), loaded on the first call.
 */
export function registerTools(deps: () => Promise<ToolDeps>): vscode.Disposable[] {
  const answers = onFirstUse(() => import('./toolAnswers'));
  return (Object.keys(TOOL_NAMES) as ToolId[]).map((id) =>
    vscode.lm.registerTool(TOOL_NAMES[id], onFirstCall(id, deps, answers)),
  );
}

/** A tool whose code is loaded, and which is made, on its first call (once the services are made). */
function onFirstCall(
  id: ToolId,
  deps: () => Promise<ToolDeps>,
  answers: OnFirstUse<typeof import('./toolAnswers')>,
): vscode.LanguageModelTool<unknown> {
  const tool = onFirstUse(async () => {
    const [{ toolFor, toolSource }, made] = await Promise.all([answers.get(), deps()]);
    await made.services.whenMade();
    return toolFor(id, toolSource(made));
  });
  return {
    prepareInvocation: async (options, token) => (await tool.get()).prepareInvocation?.(options, token),
    invoke: async (options, token) => (await tool.get()).invoke(options, token),
  };
}
