import type * as vscode from 'vscode';
import { onFirstUse } from '../../base/onFirstUse';
import { STATE_KEYS } from '../../base/stateKeys';

/**
 * At the start: removes the temporary files killed exports left (leftoverSweep.ts, with the export's code, loaded only
 * when one is remembered). Costs one globalState read when there is none (almost always).
 */
export function removeExportLeftovers(state: vscode.Memento, log: vscode.LogOutputChannel): vscode.Disposable {
  const remembered = state.get(STATE_KEYS.exportTemporaryFiles);
  if (!Array.isArray(remembered) || remembered.length === 0) return { dispose: () => undefined };
  const sweep = onFirstUse(async () => (await import('./leftoverSweep')).sweepLeftovers(state, log), {
    dispose: (made) => made.dispose(),
  });
  void sweep.get().catch(() => undefined);
  return { dispose: () => sweep.dispose() };
}
