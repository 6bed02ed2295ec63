import type * as vscode from 'vscode';
import { onFirstUse, type OnFirstUse } from '../../base/onFirstUse';
import { dropLinkFilters, keptFilters } from '../keptFilters';
import type { FindViews, createFindViews } from './findViews';

/**
 * The views' filters (Find): their code (esbuild.js CHUNKS: find) is loaded, and they are made, when one is first set
 * or read, or at once when this workspace kept a filter (so the views show it from the start).
 */
export function findOnFirstUse(
  views: Parameters<typeof createFindViews>[0],
  state: Pick<vscode.Memento, 'get' | 'update'>,
  now: () => number,
  onError: (error: unknown) => void,
): OnFirstUse<FindViews> {
  const find = onFirstUse(async () => (await import('./findViews')).createFindViews(views, state, now), {
    dispose: (made) => made.dispose(),
    onError,
  });
  // A link's filter lasts the session it was opened in (keptFilters.ts); VS Code's state shows the change at once.
  void dropLinkFilters(state);
  if (keptFilters(state)) find.get().catch(() => undefined);
  return find;
}
