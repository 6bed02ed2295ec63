import type { GroupKey } from './grouping';
import type { GroupNode, PinnedGroups } from './treeModel';

/**
 * The roots of a tree grouped by flow with pinned flows (src/history/pins.ts): the pinned flows' groups first, in the
 * order pinned, then an idle row (a group node without items, `idle`) for each pinned flow with nothing listed, then
 * every other group in its order. Pure. Only History loads it (the services' chunk), so a start without pins pays
 * nothing: the tree asks its decorations to arrange its roots (RowDecorations.arrangeRoots).
 */
export class PinnedRows<T> {
  /** The idle rows shown, by key: the same node while it stays idle (VS Code keeps its row). */
  private idle = new Map<GroupKey, GroupNode<T>>();

  constructor(private readonly list: string) {}

  arrange(nodes: readonly GroupNode<T>[], pins: PinnedGroups | undefined): GroupNode<T>[] {
    if (!pins?.keys.length) {
      this.idle.clear();
      return [...nodes];
    }
    const order = new Map(pins.keys.map((key, i) => [key, i]));
    const pinned = nodes.filter((node) => order.has(node.group.key));
    pinned.sort((a, b) => order.get(a.group.key)! - order.get(b.group.key)!);
    return [...pinned, ...this.idleRows(nodes, pins), ...nodes.filter((node) => !order.has(node.group.key))];
  }

  /** The idle rows of the pinned flows that have no group (kept as the same nodes while they stay idle). */
  private idleRows(nodes: readonly GroupNode<T>[], pins: PinnedGroups): GroupNode<T>[] {
    const listed = new Set(nodes.map((node) => node.group.key));
    const next = new Map<GroupKey, GroupNode<T>>();
    for (const { key, label } of pins.idle) {
      if (listed.has(key) || next.has(key)) continue;
      const node = this.idle.get(key) ?? {
        kind: 'group',
        list: this.list,
        group: { key, label, items: [] },
        idle: true,
      };
      if (node.group.label !== label) node.group = { key, label, items: [] };
      next.set(key, node);
    }
    this.idle = next;
    return [...next.values()];
  }
}
