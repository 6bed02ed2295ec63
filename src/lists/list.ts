import type { Validator } from '../api/validate';
import type { CommandId } from '../commandIds';
import type { TeamDirectory } from '../core/teams';
import type { TreeAdapter } from '../core/treeModel';

/**
 * One list the extension shows: everything that differs between lists, declared once. Explorer, the views, the
 * commands, the JSON documents and the notifications loop over the registry (src/lists/index.ts); a new list is one
 * module like processing.ts plus its manifest entries (view, welcome contents, refresh command). Pure: no vscode.
 */
export interface ListDefinition<T extends { id: number }> {
  /** Registry key: in JSON document URIs, tree nodes and the Explorer's `lists`. */
  readonly id: string;
  /** The view that shows it (package.json `contributes.views`). */
  readonly viewId: string;
  /** The command that refreshes only this list (package.json `contributes.commands`). */
  readonly refreshCommand: CommandId;
  /** Names the list in messages, e.g. "processing flow syncs". */
  label(): string;
  /** Path of its endpoint below /api/public/v1. */
  readonly endpoint: string;
  readonly validate: Validator<T>;
  /**
   * True: loaded at once and polled on the refresh interval (slower while the window is unfocused).
   * False: loaded when its view is first shown, again after a change of service, key or team, and on demand.
   */
  readonly polled: boolean;
  readonly tree: TreeAdapter<T>;
  /** The key of the group a value belongs to (the same key `tree.group` uses). */
  groupKeyOf(value: T): number;
  /** The view's message when the list is empty. */
  emptyText(): string;
  /** The view's badge for a count, if the list shows one. */
  badge?(count: number): { value: number; tooltip: string } | undefined;
  /** Titles of the read-only JSON documents of an item and of a group. */
  readonly json: { itemTitle(id: number): string; groupTitle(key: number): string };
  /** How its items appear in a quick pick (Open as JSON without a selection); texts from the service are made inert there. */
  readonly pick: { title(): string; icon: string; label(value: T): string; description(value: T): string };
  /** Called after each successful load, e.g. to learn the teams. `complete`: the answer was not filtered by team. */
  onLoaded?(context: ListContext, values: readonly T[], complete: boolean): void;
}

/** What a list may update after a load. */
export interface ListContext {
  teams: TeamDirectory;
}

/**
 * Declares a list of values of type T, keeping its literal types (so the Explorer's `lists` are typed per id):
 * `defineList<FlowSync>()({ id: 'processing', … })`.
 */
export function defineList<T extends { id: number }>() {
  return <const D extends ListDefinition<T>>(definition: D): D => definition;
}
