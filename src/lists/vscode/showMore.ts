import * as vscode from 'vscode';
import { SHOW_MORE_ROWS } from '../../base/commandIds';

/** What each "Show more" row handed to VS Code does, by the row itself: any other argument does nothing. */
const shows = new WeakMap<object, () => void>();

/**
 * The command of a level's "Show more" row (src/lists/levelPages.ts; the lists' views and History): Enter or a click
 * on the row runs `show`. Only the row itself, as VS Code hands it back, finds it.
 */
export function showMoreCommand(row: object, title: string, show: () => void): vscode.Command {
  shows.set(row, show);
  return { title, command: SHOW_MORE_ROWS, arguments: [row] };
}

/** Registers the "Show more" rows' command (at start, with the others; package.json does not declare it). */
export function registerShowMoreRows(): vscode.Disposable {
  return vscode.commands.registerCommand(SHOW_MORE_ROWS, (row: unknown) => {
    if (typeof row === 'object' && row !== null) shows.get(row)?.();
  });
}
