import { COMMAND, type CommandId } from '../base/commandIds';
import { exportArgument } from '../export/exportRun';
import { FILTER_VIEWS } from '../filter/viewFilters';
import { isHistoryNode, type HistoryNode } from '../history/historyNode';
import { listRowKind, type ListRow } from '../lists/listRow';
import { MAX_WINDOW_ITEMS } from '../lists/windowBudget';

/*
 * What each command takes as its argument, and the one check of it before any handler runs (issue #49 finding 11): a
 * command's arguments come from anywhere (a view's row, a notification's button, a command link, a key binding's or a
 * task's JSON, another extension), so each is checked for its shape here, by the shape check of its kind (a list's row:
 * src/lists/listRow.ts; a History row: src/history/historyNode.ts; an export: src/export/exportRun.ts), and a command
 * given anything else does nothing but log one line, which names the command and the argument's type, never its text.
 * Pure; the dispatcher (src/commands/vscode/handlers.ts) then checks that a row's service is one shown.
 */

/**
 * The argument each command takes: `none` (it reads none: whatever it is given, it runs as from the palette),
 * `rows` (a row of the views, and the selected rows: menus, notifications), `view` (a view's name: Clear Filter, the
 * no-match row's link), `export` (Export History's `{ uri, format, service?, filter? }`).
 */
export type ArgumentKind = 'none' | 'rows' | 'view' | 'export';

/** The commands that take an argument, and which; every other command takes none (it runs as from the palette). */
const TAKES: Readonly<Partial<Record<CommandId, Exclude<ArgumentKind, 'none'>>>> = {
  [COMMAND.openJson]: 'rows',
  [COMMAND.copyId]: 'rows',
  [COMMAND.copyLink]: 'rows',
  [COMMAND.watch]: 'rows',
  [COMMAND.unwatch]: 'rows',
  [COMMAND.pinFlow]: 'rows',
  [COMMAND.unpinFlow]: 'rows',
  [COMMAND.openInBrowser]: 'rows',
  [COMMAND.copyAsMarkdown]: 'rows',
  [COMMAND.clearFilter]: 'view',
  [COMMAND.exportHistory]: 'export',
};

/** The argument a command takes. */
export function argumentOf(id: CommandId): ArgumentKind {
  return TAKES[id] ?? 'none';
}

/** The most rows a command is handed at once: no view holds more (the window's items; History's runs are in days). */
export const MAX_CHOSEN_ROWS = MAX_WINDOW_ITEMS;

/** A row of the views a command acts on: a list's item or group row, or a History row. */
export type Row = ListRow | HistoryNode;

/**
 * What a command is handed, checked: its row and rows (only rows of the views' shapes), its argument (a view's name,
 * an export's object), and `log`: a line to log as it runs (an export argument it will refuse, saying why). Or
 * `ignored`: the line to log instead of running it.
 */
export type CheckedArguments =
  | { readonly node?: Row; readonly nodes?: readonly Row[]; readonly arg?: unknown; readonly log?: string }
  | { readonly ignored: string };

/**
 * Checks what VS Code passed a command (`node` and `nodes`: its first two arguments, as given) against the argument
 * the command takes. Nothing given: it runs as from the palette. A command of rows given the views' service row or
 * no-match row also runs as from the palette (no command acts on one), as it did. Anything that throws while it is read
 * (a getter, a proxy) is ignored like any other value that is no argument.
 */
export function checkArguments(id: CommandId, node: unknown, nodes: unknown): CheckedArguments {
  try {
    return check(id, node, nodes);
  } catch {
    return { ignored: `${id}: ignored its argument, which could not be read.` };
  }
}

function check(id: CommandId, node: unknown, nodes: unknown): CheckedArguments {
  const kind = argumentOf(id);
  if (kind === 'none' || (node === undefined && nodes === undefined)) return {};
  const ignored = (expected: string, value: unknown) => ({
    ignored: `${id}: ignored its argument (${typeOf(value)}), which is not ${expected}.`,
  });
  if (kind === 'view') {
    return FILTER_VIEWS.some((view) => view === node) ? { arg: node } : ignored("a view's name", node);
  }
  if (kind === 'export') {
    const given = exportArgument(node);
    if (given === undefined) return ignored('{ uri, format, service?, filter? }', node);
    return 'problem' in given
      ? { arg: node, log: `${id}: its argument's "${given.problem}" cannot be used; nothing is written.` }
      : { arg: node };
  }
  const row = rowOf(node);
  if (row === null) return ignored('a row of the Flow Sync views', node);
  if (nodes === undefined) return row ? { node: row } : {};
  if (!Array.isArray(nodes) || nodes.length > MAX_CHOSEN_ROWS) {
    return ignored(`a list of at most ${MAX_CHOSEN_ROWS} rows of the Flow Sync views`, nodes);
  }
  const rows: Row[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const each = rowOf(nodes[i]);
    if (each === null) return ignored('a list of rows of the Flow Sync views', nodes);
    if (each) rows.push(each);
  }
  return row ? { node: row, nodes: rows } : { nodes: rows };
}

/**
 * A value as a command's row: the row (an item or group row of a list, a History row), undefined for a view's
 * service or no-match row (no command acts on one), null for anything else (or nothing given).
 */
function rowOf(value: unknown): Row | undefined | null {
  if (isHistoryNode(value)) return value;
  const kind = listRowKind(value);
  if (kind === 'row') return value as ListRow;
  return kind === 'other' ? undefined : null;
}

/** What a value is, in a few words and never its text: what a log line may say of an argument. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  switch (typeof value) {
    case 'undefined':
      return 'nothing';
    case 'object':
      return 'an object';
    case 'string':
      return `a string of ${value.length} characters`;
    default:
      return `a ${typeof value}`;
  }
}
