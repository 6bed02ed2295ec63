import type { Item } from '../api/types';
import type { Group, GroupKey } from './grouping';
import type { IconSpec } from './icons';
import { LevelPages, ROOT_LEVEL, groupLevel, type LevelCut } from './levelPages';

/** A group row (a flow, a team); `list` is the id of the list it belongs to (see src/lists). */
export interface GroupNode<T> {
  kind: 'group';
  list: string;
  group: Group<T>;
  /** A pinned flow with nothing listed (src/history/pins.ts): a row of its own, without children. */
  idle?: true;
}

/**
 * The pinned flows as a tree grouped by flow shows them: their group keys, whose groups come first (in the order
 * pinned), and those with nothing processing, shown as idle rows after them.
 */
export interface PinnedGroups {
  readonly keys: readonly GroupKey[];
  readonly idle: readonly { readonly key: GroupKey; readonly label: string }[];
}

export interface LeafNode<T> {
  kind: 'leaf';
  list: string;
  item: Item<T>;
  parent: GroupNode<T>;
}

export type TreeNode<T> = GroupNode<T> | LeafNode<T>;

/**
 * The "Show more" row at the end of a level that shows fewer rows than it has (src/lists/levelPages.ts): `parent` is
 * the group whose rows it ends, none at the root. No command acts on it as on a row (src/lists/listRow.ts).
 */
export interface MoreNode<T> {
  kind: 'more';
  list: string;
  parent?: GroupNode<T>;
  cut: LevelCut;
}

/** A row as the tree shows it: an item, a group, or the "Show more" row of a level. */
export type ShownNode<T> = TreeNode<T> | MoreNode<T>;

/** How one row (an item) of a list looks. Pure. */
export interface RowAdapter<T> {
  /** Prefix of row ids, e.g. "sync" → "sync:123"; also the path of an item's link. */
  leafIdPrefix: string;
  leafContext: string;
  idOf(value: T): number;
  /**
   * True when two values of the same item look the same in the tree: label, description, icon and tooltip (compare
   * exactly the fields those read; a field-by-field check is what keeps a changed answer of 10,000 items under 5 ms).
   */
  looksSame(a: T, b: T): boolean;
  leafLabel(value: T): string;
  leafDescription(value: T, now: number): string;
  /** The description holds a relative time, so it ages while the data stays the same. */
  descriptionAges: boolean;
  leafTooltip(item: Item<T>, now: number): string;
  leafIcon(value: T): IconSpec;
}

/** How a list is shown as a tree: its rows, and how they are grouped and sorted (src/lists/arrange.ts builds it). */
export interface TreeAdapter<T> extends RowAdapter<T> {
  /** The group rows; null for a flat list (the items are the root's children). */
  groupRows: {
    idPrefix: string;
    context: string;
    icon(group: Group<T>): IconSpec;
    describe(group: Group<T>): string;
  } | null;
  /** The groups, sorted, with their items sorted (a flat list: one group holding every item). */
  group(items: readonly Item<T>[]): Group<T>[];
  /**
   * Everything that decides a value's group, the group's label and its place in the group (e.g. team id, team name
   * and connection name). When every item of a new answer has the same placement as the item at the same index of the
   * previous one, the groups are reused instead of grouped again.
   */
  placement(value: T): string;
  /** True when two values have the same placement, told without building it (a new answer mostly repeats the last). */
  samePlace(a: T, b: T): boolean;
}

/** What an update changed: everything (groups came, went or were renamed), or the items of some groups. */
export type TreeChange<T> = { all: true } | { all: false; groups: GroupNode<T>[] };

/**
 * Groups start expanded while the whole tree has at most this many rows (group rows and item rows); beyond it, they
 * start collapsed, so every group's row shows without scrolling past hundreds of items first (a Connections view with
 * many teams). The person's own expand/collapse choices are kept (src/lists/vscode/groupedTree.ts).
 */
export const EXPANDED_ROWS_LIMIT = 100;

export function groupsStartExpanded(rows: number, limit = EXPANDED_ROWS_LIMIT): boolean {
  return rows <= limit;
}

/**
 * The tree of one list, without vscode: groups, stable group nodes across answers, which groups a new answer changed
 * (comparing what the rows show, never stringifying items), and which rows' "… ago" texts have aged. The vscode
 * tree (src/lists/vscode/groupedTree.ts) only renders it.
 */
export class TreeModel<T> {
  private nodes: GroupNode<T>[] = [];
  /** The last answer and its items' placements; where each of its items sits is worked out when first needed. */
  private last?: {
    items: readonly Item<T>[];
    placements: string[];
    where?: { groupOf: Int32Array; positionOf: Int32Array };
  };
  /** The description each shown item was last rendered with (it holds a relative time that ages). */
  private readonly renderedDescriptions = new Map<string, string>();
  /** How many pages of rows each level shows (src/lists/levelPages.ts), kept across answers. */
  readonly pages = new LevelPages();

  constructor(
    readonly list: string,
    readonly adapter: TreeAdapter<T>,
  ) {}

  get groups(): readonly GroupNode<T>[] {
    return this.nodes;
  }

  children(node: GroupNode<T>): LeafNode<T>[] {
    if (node.idle) return [];
    return node.group.items.map((item) => ({ kind: 'leaf', list: this.list, item, parent: node }));
  }

  leafId(value: T): string {
    return `${this.adapter.leafIdPrefix}:${this.adapter.idOf(value)}`;
  }

  groupId(group: Group<T>): string {
    return `${this.adapter.groupRows?.idPrefix ?? 'all'}:${group.key}`;
  }

  /** How many rows the whole tree has expanded: the group rows (if any) and every item's row. */
  rowCount(): number {
    let rows = this.adapter.groupRows ? this.nodes.length : 0;
    for (const node of this.nodes) rows += node.group.items.length;
    return rows;
  }

  /** The root's children: the group rows, or the items of a flat list. */
  roots(): TreeNode<T>[] {
    if (this.adapter.groupRows) return [...this.nodes];
    return this.nodes.flatMap((node) => this.children(node));
  }

  /**
   * The root's rows as shown: the group rows (in the order `arrange` puts them), or a flat list's items; at most the
   * root's pages of them, then a "Show more" row when it has more.
   */
  shownRoots(arrange?: (groups: GroupNode<T>[]) => GroupNode<T>[]): ShownNode<T>[] {
    if (this.adapter.groupRows) {
      const { rows, cut } = this.pages.slice(ROOT_LEVEL, arrange ? arrange([...this.nodes]) : this.nodes);
      return cut ? [...rows, { kind: 'more', list: this.list, cut }] : [...rows];
    }
    const [only, ...others] = this.nodes; // a flat list has one group, holding every item
    if (!only) return [];
    const items = others.length ? this.nodes.flatMap((node) => node.group.items) : only.group.items;
    return this.shownLeaves(others.length ? { ...only, group: { ...only.group, items } } : only, ROOT_LEVEL);
  }

  /** A group's rows as shown: at most its pages of them, then a "Show more" row when it has more. */
  shownChildren(node: GroupNode<T>): ShownNode<T>[] {
    return node.idle ? [] : this.shownLeaves(node, groupLevel(node.group.key));
  }

  private shownLeaves(node: GroupNode<T>, level: string): ShownNode<T>[] {
    const { rows, cut } = this.pages.slice(level, node.group.items);
    const shown: ShownNode<T>[] = rows.map((item) => ({ kind: 'leaf', list: this.list, item, parent: node }));
    if (cut) shown.push({ kind: 'more', list: this.list, parent: this.adapter.groupRows ? node : undefined, cut });
    return shown;
  }

  /** The row of an item, by id (for links and reveal). */
  findLeaf(id: number): LeafNode<T> | undefined {
    return this.locateLeaf(id)?.leaf;
  }

  /**
   * Makes the levels above an item's row show the pages that hold it (its group's rows; the root's, for its group row
   * or a flat list's row): a reveal then finds it drawn. Which level now shows more: `root` (the root's, or both),
   * its group, or none; undefined when the item is not listed. `arrange` orders the group rows as shown.
   */
  showPageOf(
    id: number,
    arrange?: (groups: GroupNode<T>[]) => GroupNode<T>[],
  ): { leaf: LeafNode<T>; more?: GroupNode<T> | 'root' } | undefined {
    const found = this.locateLeaf(id);
    if (!found) return undefined;
    const { leaf, position } = found;
    if (!this.adapter.groupRows) return { leaf, more: this.pages.reveal(ROOT_LEVEL, position) ? 'root' : undefined };
    const groupMore = this.pages.reveal(groupLevel(leaf.parent.group.key), position);
    const roots = arrange ? arrange([...this.nodes]) : this.nodes;
    const rootMore = this.pages.reveal(ROOT_LEVEL, roots.indexOf(leaf.parent));
    return { leaf, more: rootMore ? 'root' : groupMore ? leaf.parent : undefined };
  }

  private locateLeaf(id: number): { leaf: LeafNode<T>; position: number } | undefined {
    for (const node of this.nodes) {
      const position = node.group.items.findIndex((i) => this.adapter.idOf(i.value) === id);
      if (position >= 0) {
        return { leaf: { kind: 'leaf', list: this.list, item: node.group.items[position], parent: node }, position };
      }
    }
    return undefined;
  }

  /**
   * Takes a new answer; undefined when nothing a person sees changed. Group nodes keep their identity. Items are
   * compared with the adapter's looksSame: what a row, its tooltip and its icon show (open JSON documents follow every
   * change on their own).
   */
  update(items: readonly Item<T>[]): TreeChange<T> | undefined {
    const last = this.last;
    // The placement of the item at the same index of the last answer, when it is the same: no string built
    const placements = items.map((item, i) =>
      last && i < last.items.length && this.adapter.samePlace(last.items[i].value, item.value)
        ? last.placements[i]
        : this.adapter.placement(item.value),
    );
    if (last && last.items.length === items.length) {
      const moved: number[] = [];
      const limit = 16 + (items.length >> 7); // a few moved items are re-sorted within their groups; more, and all are
      for (let i = 0; i < items.length && moved.length <= limit; i++) {
        if (placements[i] !== last.placements[i]) moved.push(i);
      }
      if (moved.length === 0) return this.updateInPlace(items, placements, last);
      if (moved.length <= limit) {
        const change = this.updateLocally(items, placements, last, moved);
        if (change !== 'regroup') return change;
      }
    }
    const change = this.regroup(items);
    this.last = { items, placements };
    return change;
  }

  /** Same placements as the last answer: the same groups in the same order; only items may differ. */
  private updateInPlace(
    items: readonly Item<T>[],
    placements: string[],
    last: { items: readonly Item<T>[] },
  ): TreeChange<T> | undefined {
    const { groupOf, positionOf } = this.locate(last.items);
    const groupItems = this.nodes.map((node) => node.group.items.slice());
    const changed = new Set<number>();
    for (let i = 0; i < items.length; i++) {
      const g = groupOf[i];
      if (last.items[i] !== items[i] && !this.adapter.looksSame(last.items[i].value, items[i].value)) changed.add(g);
      groupItems[g][positionOf[i]] = items[i];
    }
    this.nodes.forEach((node, g) => (node.group = { ...node.group, items: groupItems[g] }));
    this.last = { items, placements, where: { groupOf, positionOf } };
    return changed.size
      ? { all: false, groups: [...changed].sort((a, b) => a - b).map((g) => this.nodes[g]) }
      : undefined;
  }

  /**
   * A few items moved (e.g. a renamed connection): only their groups are grouped again; the others are updated in
   * place. 'regroup' when that is not enough (an item changed group, or a group appeared or was renamed).
   */
  private updateLocally(
    items: readonly Item<T>[],
    placements: string[],
    last: { items: readonly Item<T>[] },
    moved: number[],
  ): TreeChange<T> | undefined | 'regroup' {
    const { groupOf, positionOf } = this.locate(last.items);
    const affected = new Set(moved.map((i) => groupOf[i]));
    const groupItems = this.nodes.map((node) => node.group.items.slice());
    const changed = new Set<number>(affected);
    const indexOf = new Map<Item<T>, number>();
    for (let i = 0; i < items.length; i++) {
      const g = groupOf[i];
      groupItems[g][positionOf[i]] = items[i];
      if (affected.has(g)) indexOf.set(items[i], i);
      else if (last.items[i] !== items[i] && !this.adapter.looksSame(last.items[i].value, items[i].value)) {
        changed.add(g);
      }
    }
    const regrouped = this.adapter.group([...affected].flatMap((g) => groupItems[g]));
    const byKey = new Map([...affected].map((g) => [this.nodes[g].group.key, g]));
    if (regrouped.length !== affected.size) return 'regroup';
    for (const group of regrouped) {
      const g = byKey.get(group.key);
      if (g === undefined || this.nodes[g].group.label !== group.label) return 'regroup';
      groupItems[g] = group.items;
    }
    const where = { groupOf: groupOf.slice(), positionOf: positionOf.slice() };
    for (const g of affected) {
      groupItems[g].forEach((item, p) => {
        const i = indexOf.get(item)!;
        where.groupOf[i] = g;
        where.positionOf[i] = p;
      });
    }
    this.nodes.forEach((node, g) => (node.group = { ...node.group, items: groupItems[g] }));
    this.last = { items, placements, where };
    return { all: false, groups: [...changed].sort((a, b) => a - b).map((g) => this.nodes[g]) };
  }

  /** Where each item of the last answer sits in the groups: [group index, position], by answer index. */
  private locate(items: readonly Item<T>[]): { groupOf: Int32Array; positionOf: Int32Array } {
    if (this.last?.where) return this.last.where;
    const index = new Map<Item<T>, number>();
    items.forEach((item, i) => index.set(item, i));
    const groupOf = new Int32Array(items.length);
    const positionOf = new Int32Array(items.length);
    this.nodes.forEach((node, g) =>
      node.group.items.forEach((item, p) => {
        const i = index.get(item)!;
        groupOf[i] = g;
        positionOf[i] = p;
      }),
    );
    return { groupOf, positionOf };
  }

  private regroup(items: readonly Item<T>[]): TreeChange<T> | undefined {
    const fresh = this.adapter.group(items);
    this.forgetGoneItems(items);
    const old = new Map(this.nodes.map((node) => [node.group.key, node]));
    const sameShape =
      fresh.length === this.nodes.length &&
      fresh.every((g, i) => this.nodes[i].group.key === g.key && this.nodes[i].group.label === g.label);
    if (!sameShape) {
      this.nodes = fresh.map((group) => {
        const node = old.get(group.key);
        if (node) {
          node.group = group;
          return node;
        }
        return { kind: 'group', list: this.list, group };
      });
      return { all: true };
    }
    const changed: GroupNode<T>[] = [];
    for (const [i, group] of fresh.entries()) {
      const node = this.nodes[i];
      if (!this.sameItems(node.group.items, group.items)) changed.push(node);
      node.group = group;
    }
    return changed.length ? { all: false, groups: changed } : undefined;
  }

  /** Remembers the description a row was rendered with, when it can age. */
  rendered(value: T, description: string): void {
    if (this.adapter.descriptionAges) this.renderedDescriptions.set(this.leafId(value), description);
  }

  /** The groups with a row whose "… ago" text is no longer what was rendered at `now`. */
  agedGroups(now: number): GroupNode<T>[] {
    if (this.renderedDescriptions.size === 0) return [];
    return this.nodes.filter((node) =>
      node.group.items.some((item) => {
        const shown = this.renderedDescriptions.get(this.leafId(item.value));
        return shown !== undefined && shown !== this.adapter.leafDescription(item.value, now);
      }),
    );
  }

  /** Same items in the same order: the same objects (an identical answer), or values that look the same. */
  private sameItems(a: readonly Item<T>[], b: readonly Item<T>[]): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (a[i] !== b[i] && !this.adapter.looksSame(a[i].value, b[i].value)) return false;
    }
    return true;
  }

  /** Drops the rendered descriptions of items that are no longer listed. */
  private forgetGoneItems(items: readonly Item<T>[]): void {
    if (this.renderedDescriptions.size === 0) return;
    const listed = new Set(items.map((item) => this.leafId(item.value)));
    for (const id of this.renderedDescriptions.keys()) if (!listed.has(id)) this.renderedDescriptions.delete(id);
  }
}
