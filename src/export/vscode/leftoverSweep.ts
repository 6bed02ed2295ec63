import * as vscode from 'vscode';
import { LEFTOVERS_STATE_KEY, removeLeftovers, type LeftoverMemory } from '../leftovers';

/** The temporary files of exports, remembered in globalState (leftovers.ts). */
export function leftoverMemory(state: vscode.Memento): LeftoverMemory {
  return { get: () => state.get(LEFTOVERS_STATE_KEY), update: (value) => state.update(LEFTOVERS_STATE_KEY, value) };
}

/**
 * Removes the temporary files killed exports left (leftovers.ts), and looks again a minute later at one that may be
 * another window's export in progress. With the export's code (the commands' chunk, esbuild.js CHUNKS): loaded at a
 * start only when a file is remembered (exportLeftovers.ts).
 */
export function sweepLeftovers(state: vscode.Memento, log: vscode.LogOutputChannel): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const files = {
    modifiedAt: async (where: string) =>
      Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.parse(where, true))).then(
        (s) => s.mtime,
        () => undefined,
      ),
    remove: async (where: string) => vscode.workspace.fs.delete(vscode.Uri.parse(where, true)),
  };
  const sweep = async (): Promise<void> => {
    const { removed, again } = await removeLeftovers(leftoverMemory(state), files, Date.now());
    if (removed) log.info(`Removed ${removed} temporary file(s) left by an export that did not finish`);
    if (again !== undefined) timer = setTimeout(() => void sweep().catch(() => undefined), again);
  };
  void sweep().catch(() => undefined);
  return { dispose: () => clearTimeout(timer) };
}
