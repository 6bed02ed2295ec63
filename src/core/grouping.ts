import type { Connection, FlowSync, Item } from '../api/types';
import { t } from '../l10n';

/** A group of items under one key, with the label it is shown by. */
export interface Group<T> {
  key: number;
  label: string;
  items: Item<T>[];
}

/** Groups items by a numeric key; `label` names a group from its first item; groups and members are sorted. */
export function groupBy<T>(
  items: readonly Item<T>[],
  keyOf: (value: T) => number,
  labelOf: (value: T) => string,
  compareItems: (a: T, b: T) => number,
): Group<T>[] {
  const groups = new Map<number, Group<T>>();
  for (const item of items) {
    const key = keyOf(item.value);
    let group = groups.get(key);
    if (!group) {
      group = { key, label: labelOf(item.value), items: [] };
      groups.set(key, group);
    }
    group.items.push(item);
  }
  const sorted = [...groups.values()].sort((a, b) => collator.compare(a.label, b.label) || a.key - b.key);
  for (const group of sorted) group.items.sort((a, b) => compareItems(a.value, b.value));
  return sorted;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

export function flowLabel(sync: FlowSync): string {
  return sync.flow?.name?.trim() || t('Flow {0}', sync.flow_id);
}

export function teamLabel(connection: Connection): string {
  return connection.team?.name?.trim() || t('Team {0}', connection.team_id);
}

/** Processing flow syncs by flow; within a flow, newest first. */
export function groupByFlow(items: readonly Item<FlowSync>[]): Group<FlowSync>[] {
  return groupBy(items, (s) => s.flow_id, flowLabel, (a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
}

/** Connections by team; within a team, by name. */
export function groupByTeam(items: readonly Item<Connection>[]): Group<Connection>[] {
  return groupBy(items, (c) => c.team_id, teamLabel, (a, b) => collator.compare(a.name, b.name) || a.id - b.id);
}
