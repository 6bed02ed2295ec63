import { MAX_ITEMS } from '../api/validate';
import { own } from '../base/own';
import { ANY_LISTS } from './index';
import type { TreeNode } from './treeModel';

/** A row of any list's tree: an item or a group; it carries the id of its list. */
export type ListRow = TreeNode<{ id: number }>;

/**
 * What a value is as a row of a list's view: `row`, an item or group row (what the commands act on); `other`, the
 * view's service row, its no-match row or a level's "Show more" row (no command acts on one: a command given one runs as from the palette);
 * undefined, no row of these views.
 *
 * The one shape check of a list's row (a command's argument, the views' selection): its `kind` and its `list` (one
 * of the registry's); an item row's item, whose value its list's own validator accepts (the fields the commands read:
 * ids, a flow's, a team's, names); a group row's key (a number or a string), label and items (at most MAX_ITEMS, each
 * with an integer id). Only plain objects' own data is read (nothing inherited: a polluted prototype adds no field);
 * anything that throws while read is no row. Pure.
 */
export function listRowKind(value: unknown): 'row' | 'other' | undefined {
  try {
    const kind = own(value, 'kind');
    const list = ANY_LISTS.find((l) => l.id === own(value, 'list'));
    if (!list) return undefined;
    if (kind === 'noMatch' || kind === 'more') return 'other';
    if (kind === 'service') return typeof own(value, 'service') === 'string' ? 'other' : undefined;
    if (kind === 'leaf') {
      const item = own(value, 'item');
      const itemValue = own(item, 'value');
      return isPlain(itemValue) && typeof list.validate(itemValue as Record<string, unknown>) !== 'string'
        ? 'row'
        : undefined;
    }
    if (kind !== 'group') return undefined;
    const group = own(value, 'group');
    const key = own(group, 'key');
    const items = own(group, 'items');
    return (Number.isFinite(key) || typeof key === 'string') &&
      typeof own(group, 'label') === 'string' &&
      Array.isArray(items) &&
      items.length <= MAX_ITEMS &&
      items.every((item) => Number.isSafeInteger(own(own(item, 'value'), 'id')))
      ? 'row'
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a value is an item or group row of a list (listRowKind). */
export function isListRow(value: unknown): value is ListRow {
  return listRowKind(value) === 'row';
}

/** An object made as a literal or parsed from JSON (no class, no prototype of its own). */
function isPlain(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
