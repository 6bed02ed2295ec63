import type { Connection, FlowSync, Item } from '../api/types';
import { t } from '../base/l10n';
import type { Field } from './rowFields';

/** A group of items under one key (a flow or team id, a status, a type), with the label it is shown by. */
export interface Group<T> {
  key: GroupKey;
  label: string;
  items: Item<T>[];
}

export type GroupKey = number | string;

/**
 * Sorts a group's items in place. `order`, when present, gives the same order for a whole answer at once (the indexes
 * of `items`, sorted): groupBy then sorts every item once and fills the groups in that order, instead of sorting each
 * group on its own.
 */
export type SortItems<T> = ((items: Item<T>[]) => void) & { order?: (items: readonly Item<T>[]) => ArrayLike<number> };

/** Groups items by a key; `label` names a group from its first item; groups (by label) and members are sorted. */
export function groupBy<T>(
  items: readonly Item<T>[],
  keyOf: (value: T) => GroupKey,
  labelOf: (value: T) => string,
  sortItems: SortItems<T>,
): Group<T>[] {
  const groups = new Map<GroupKey, Group<T>>();
  // With a whole-answer order, the group of each item is noted here and the groups are filled in that order.
  const groupOf: Group<T>[] | undefined = sortItems.order ? new Array<Group<T>>(items.length) : undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const key = keyOf(item.value);
    let group = groups.get(key);
    if (!group) {
      group = { key, label: labelOf(item.value), items: [] };
      groups.set(key, group);
    }
    if (groupOf) groupOf[i] = group;
    else group.items.push(item);
  }
  if (groupOf) {
    const order = sortItems.order!(items);
    for (let j = 0; j < order.length; j++) groupOf[order[j]].items.push(items[order[j]]);
  }
  const sorted = [...groups.values()];
  const labelKeys = new Map(sorted.map((g) => [g, sortKey(g.label)]));
  sorted.sort((a, b) => compareKeys(labelKeys.get(a)!, labelKeys.get(b)!) || compareGroupKeys(a.key, b.key));
  if (!groupOf) for (const group of sorted) sortItems(group.items);
  return sorted;
}

/**
 * A key whose plain string order is a natural, case- and accent-insensitive order: "c9" before "c10", "émile" beside
 * "emile". Computed once per item, so sorting 10,000 names costs string comparisons instead of Intl.Collator calls
 * (about four times faster, and no ICU set-up at activation).
 */
export function sortKey(text: string): string {
  return sortEntry(text).key;
}

/**
 * A text field (src/lists/rowFields.ts) that orders naturally and without regard to case, as byText sorts: its
 * placement is its sort key.
 */
export function textField<T>(read: (value: T) => string): Field<T> {
  return { read, place: (reading) => sortKey(String(reading)) };
}

/**
 * A text's sort key, and its rank among the keys it was last ranked with (see rankEntries): texts ranked together
 * (same `ranking`) sort by rank, a number, instead of by comparing their keys.
 */
interface SortEntry {
  readonly key: string;
  rank: number;
  ranking: number;
}

function sortEntry(text: string): SortEntry {
  let entry = SORT_ENTRIES.get(text);
  if (entry === undefined) {
    let key = text.toLowerCase();
    if (NON_ASCII.test(key)) key = key.normalize('NFD').replace(COMBINING_MARKS, '');
    entry = { key: padDigitRuns(key), rank: 0, ranking: UNRANKED };
    if (SORT_ENTRIES.size >= MAX_SORT_KEYS) SORT_ENTRIES.clear(); // a bound, not an LRU: answers repeat their names
    SORT_ENTRIES.set(text, entry);
  }
  return entry;
}

/** Sort keys of the names seen lately: the next answer mostly repeats them, so regrouping skips recomputing them. */
const SORT_ENTRIES = new Map<string, SortEntry>();
const MAX_SORT_KEYS = 200_000;
const UNRANKED = -1;
const PENDING = -2;
let rankings = 0;

/**
 * The newest ranking: its distinct keys in order and their ranks, spaced RANK_GAP apart so that a few new keys can be
 * ranked between them without ranking everything again (an answer that renames one item is most answers that change).
 */
let latest: { ranking: number; keys: string[]; ranks: number[] } | undefined;
const RANK_GAP = 1024;
/** Ranks stay below this, so that rank × items + index (byText) is an exact float for any answer under the item cap. */
const MAX_RANK = 2 ** 30;

/**
 * Gives every entry of `entries` a rank under one ranking. When few of them are new to the newest ranking, their
 * keys are placed between its keys (a binary search each); otherwise the distinct keys are sorted and ranked anew. The
 * next answer with the same names skips this: its entries share a ranking.
 */
function rankEntries(entries: readonly SortEntry[]): void {
  const current = latest;
  if (current) {
    const fresh: SortEntry[] = [];
    for (const entry of entries) {
      if (entry.ranking !== current.ranking && entry.ranking !== PENDING) {
        entry.ranking = PENDING;
        fresh.push(entry);
      }
    }
    const few = fresh.length <= Math.max(64, entries.length >> 4);
    const compact = current.keys.length <= 4 * entries.length + 1024; // keys of items long gone are dropped by a full ranking
    if (few && compact && addToRanking(current, fresh)) return;
    for (const entry of fresh) entry.ranking = UNRANKED;
  }
  rankAll(entries);
}

/** One sort of the distinct keys of `entries`, compared by the engine; a new ranking. */
function rankAll(entries: readonly SortEntry[]): void {
  const distinct: SortEntry[] = [];
  for (const entry of entries) {
    if (entry.ranking !== PENDING) {
      entry.ranking = PENDING;
      distinct.push(entry);
    }
  }
  // The default sort compares strings by UTF-16 code units, as `<` does (compareKeys).
  const keys = [...new Set(distinct.map((e) => e.key))].sort();
  const ranks = keys.map((_key, index) => (index + 1) * RANK_GAP);
  const rankOf = new Map(keys.map((key, index) => [key, ranks[index]]));
  const ranking = ++rankings;
  for (const entry of distinct) {
    entry.rank = rankOf.get(entry.key)!;
    entry.ranking = ranking;
  }
  latest = { ranking, keys, ranks };
}

/**
 * Ranks `fresh` (distinct entries, marked PENDING) within `current`: a key it holds gets its rank, a new key a rank
 * between its neighbours'. False, with nothing changed, when some gap has no room left (then everything is ranked anew).
 */
function addToRanking(
  current: { ranking: number; keys: string[]; ranks: number[] },
  fresh: readonly SortEntry[],
): boolean {
  const { keys, ranks } = current;
  const newKeys = [...new Set(fresh.map((e) => e.key))].sort();
  const rankOf = new Map<string, number>();
  const added: Array<{ at: number; key: string; rank: number }> = [];
  for (let i = 0; i < newKeys.length;) {
    const at = lowerBound(keys, newKeys[i]);
    if (keys[at] === newKeys[i]) {
      rankOf.set(newKeys[i], ranks[at]);
      i++;
      continue;
    }
    // every new key that falls in the gap before keys[at], spread evenly between the ranks around it
    let end = i + 1;
    while (end < newKeys.length && (at === keys.length || newKeys[end] < keys[at])) end++;
    const low = at > 0 ? ranks[at - 1] : 0;
    const high = at < keys.length ? ranks[at] : low + 2 * RANK_GAP * (end - i);
    const m = end - i;
    if (high - low - 1 < m || high > MAX_RANK) return false;
    for (let j = 0; j < m; j++) {
      const rank = low + Math.floor(((j + 1) * (high - low)) / (m + 1));
      rankOf.set(newKeys[i + j], rank);
      added.push({ at, key: newKeys[i + j], rank });
    }
    i = end;
  }
  if (added.length) {
    // merge: the added keys are sorted, and `at` says before which old key each goes
    const mergedKeys: string[] = [];
    const mergedRanks: number[] = [];
    let next = 0;
    for (let k = 0; k <= keys.length; k++) {
      for (; next < added.length && added[next].at === k; next++) {
        mergedKeys.push(added[next].key);
        mergedRanks.push(added[next].rank);
      }
      if (k < keys.length) {
        mergedKeys.push(keys[k]);
        mergedRanks.push(ranks[k]);
      }
    }
    current.keys = mergedKeys;
    current.ranks = mergedRanks;
  }
  for (const entry of fresh) {
    entry.rank = rankOf.get(entry.key)!;
    entry.ranking = current.ranking;
  }
  return true;
}

/** The first index of sorted `keys` whose key is not below `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (keys[mid] < key) low = mid + 1;
    else high = mid;
  }
  return low;
}

const NON_ASCII = /[^ -~]/; // anything outside printable ASCII
const COMBINING_MARKS = /[\u0300-\u036f]/g;
const ZEROS = '0'.repeat(16);

/** "a7b" → "a0000000000000007b": numbers compare by value as plain strings. A loop: 5x faster than a regex here. */
function padDigitRuns(text: string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length;) {
    if (isDigit(text.charCodeAt(i))) {
      let end = i + 1;
      while (end < text.length && isDigit(text.charCodeAt(end))) end++;
      out += text.slice(copied, i) + ZEROS.slice(Math.min(16, end - i)) + text.slice(i, end);
      copied = i = end;
    } else {
      i++;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

const isDigit = (code: number) => code >= 48 && code <= 57;

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareGroupKeys(a: GroupKey, b: GroupKey): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : compareKeys(String(a), String(b));
}

/**
 * Sorts items by a text's sort key, then by id. The keys are ranked once (rankEntries) and then sorted as numbers by
 * the engine's own sort of a Float64Array (rank × n + index), with no comparison function per pair; items whose texts
 * share a key keep their answer order unless their ids are out of order, and are then sorted by id. The order is thus
 * by (rank, id, index).
 *
 * The texts and entries of the last answer sorted are kept by position: an answer mostly repeats the last one in the
 * same order, and comparing a text with the one at the same index reads memory in order, where a lookup in the table
 * of sort keys reads it at random (at 50,000 items, most of the time sorting took); an answer of the same length updates
 * them in place, where a text differs. So are its ranks, ids and order:
 * an answer of the same length in which few positions have another rank or id (a renamed item) takes the last order,
 * with those positions taken out and merged back where they now belong (reorder), instead of sorting everything.
 */
export function byText<T>(textOf: (value: T) => string, idOf: (value: T) => number): SortItems<T> {
  let last: LastOrder = {
    texts: [],
    entries: [],
    ranks: new Float64Array(0),
    ids: new Float64Array(0),
    order: new Int32Array(0),
  };
  const order = (items: readonly Item<T>[]): Int32Array => {
    const n = items.length;
    const before = last;
    // An answer of the last one's length updates its texts and entries in place, only where a text differs: the
    // texts kept are equal to the new ones, and an unchanged position costs a comparison and no store.
    const inPlace = n === before.texts.length;
    const texts = inPlace ? before.texts : new Array<string>(n);
    const entries = inPlace ? before.entries : new Array<SortEntry>(n);
    const known = Math.min(n, before.texts.length);
    let ranking = UNRANKED;
    let ranked = n > 0;
    for (let i = 0; i < n; i++) {
      const text = textOf(items[i].value);
      let entry: SortEntry;
      if (i < known && before.texts[i] === text) {
        entry = before.entries[i];
        if (!inPlace) {
          texts[i] = text;
          entries[i] = entry;
        }
      } else {
        entry = sortEntry(text);
        texts[i] = text;
        entries[i] = entry;
      }
      if (i === 0) ranking = entry.ranking;
      if (entry.ranking !== ranking || ranking === UNRANKED) ranked = false;
    }
    if (!ranked) rankEntries(entries);
    const ranks = new Float64Array(n);
    const ids = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      ranks[i] = entries[i].rank;
      ids[i] = idOf(items[i].value);
    }
    const result = reorder(before, ranks, ids) ?? sortByRank(ranks, ids);
    last = { texts, entries, ranks, ids, order: result.slice() };
    return result;
  };
  const sort = (items: Item<T>[]): void => {
    const sorted = order(items);
    const copy = items.slice();
    for (let j = 0; j < sorted.length; j++) items[j] = copy[sorted[j]];
  };
  return Object.assign(sort, { order });
}

/** What byText keeps of the last answer it sorted, by position. */
interface LastOrder {
  texts: string[];
  entries: SortEntry[];
  ranks: Float64Array;
  ids: Float64Array;
  order: Int32Array;
}

/** At most this many positions (or 1/64 of the answer) with another rank or id: the last order is updated, not redone. */
const FEW_MOVED = 64;

/** Every position sorted by (rank, id, index): rank × n + index sorted natively, then runs of one rank by id. */
function sortByRank(ranks: Float64Array, ids: Float64Array): Int32Array {
  const n = ranks.length;
  const codes = new Float64Array(n);
  for (let i = 0; i < n; i++) codes[i] = ranks[i] * n + i; // exact: ranks < 2^30 and n ≤ the item cap (< 2^17)
  codes.sort();
  const result = new Int32Array(n);
  for (let j = 0; j < n; j++) result[j] = codes[j] % n;
  for (let start = 0, j = 1; j <= n; j++) {
    if (j === n || ranks[result[j]] !== ranks[result[start]]) {
      if (j - start > 1) byIdWithin(ids, result, start, j);
      start = j;
    }
  }
  return result;
}

/**
 * The order by (rank, id, index) from the last one, when the answer has its length and few positions have another
 * rank or id: the other positions keep their relative order, so the last order without the moved positions is merged
 * with the moved ones, sorted. Undefined when that does not apply.
 */
function reorder(before: LastOrder, ranks: Float64Array, ids: Float64Array): Int32Array | undefined {
  const n = ranks.length;
  if (before.order.length !== n || n === 0) return undefined;
  const limit = Math.max(FEW_MOVED, n >> 6);
  const moved: number[] = [];
  for (let i = 0; i < n; i++) {
    if (ranks[i] !== before.ranks[i] || ids[i] !== before.ids[i]) {
      if (moved.length === limit) return undefined;
      moved.push(i);
    }
  }
  if (moved.length === 0) return before.order.slice();
  const below = (a: number, b: number) => ranks[a] - ranks[b] || ids[a] - ids[b] || a - b;
  moved.sort(below);
  const isMoved = new Uint8Array(n);
  for (const i of moved) isMoved[i] = 1;
  const result = new Int32Array(n);
  let m = 0;
  let out = 0;
  for (let j = 0; j < n; j++) {
    const i = before.order[j];
    if (isMoved[i]) continue;
    while (m < moved.length && below(moved[m], i) < 0) result[out++] = moved[m++];
    result[out++] = i;
  }
  while (m < moved.length) result[out++] = moved[m++];
  return result;
}

/** Sorts `order[start..end)` (indexes of items with the same sort key, in answer order) by id, when not already. */
function byIdWithin(ids: Float64Array, order: Int32Array, start: number, end: number): void {
  let inOrder = true;
  for (let j = start + 1; j < end && inOrder; j++) inOrder = ids[order[j - 1]] < ids[order[j]];
  if (!inOrder) order.subarray(start, end).set(Array.from(order.subarray(start, end)).sort((a, b) => ids[a] - ids[b]));
}

export function flowLabel(sync: FlowSync): string {
  return sync.flow?.name?.trim() || t('Flow {0}', sync.flow_id);
}

export function teamLabel(connection: Connection): string {
  return connection.team?.name?.trim() || t('Team {0}', connection.team_id);
}

/** Sorts items by an ISO timestamp, newest first, then by id (highest first). */
export function newestFirst<T>(timeOf: (value: T) => string, idOf: (value: T) => number): (items: Item<T>[]) => void {
  return (items) => {
    items.sort((a, b) => compareKeys(timeOf(b.value), timeOf(a.value)) || idOf(b.value) - idOf(a.value));
  };
}

/** Sorts items by id, lowest first. */
export function byId<T>(idOf: (value: T) => number): (items: Item<T>[]) => void {
  return (items) => {
    items.sort((a, b) => idOf(a.value) - idOf(b.value));
  };
}

const syncsNewestFirst = newestFirst<FlowSync>(
  (s) => s.created_at,
  (s) => s.id,
);

/** Processing flow syncs by flow; within a flow, newest first. */
export function groupByFlow(items: readonly Item<FlowSync>[]): Group<FlowSync>[] {
  return groupBy(items, (s) => s.flow_id, flowLabel, syncsNewestFirst);
}
