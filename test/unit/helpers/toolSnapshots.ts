/** Lists and snapshots as the language model tools' answers read them (src/tools/*Result.ts), for their tests. */
import type { Connection, FlowSync, Item } from '../../../src/api/types';
import type { ListState } from '../../../src/lists/refresh';
import type { ToolSnapshot } from '../../../src/tools/listAnswer';
import { NOW, iso, syncAt } from './items';

/** A flow sync created `id` minutes before NOW, updated then; without `flowName` it has no flow summary. */
export function sync(
  id: number,
  flowId: number,
  flowName: string | undefined,
  extra: Partial<FlowSync> = {},
): Item<FlowSync> {
  const flow = flowName === undefined ? undefined : { id: flowId, name: flowName };
  return syncAt(id, flowId, NOW, id * 60_000, { flow, ...extra });
}

/** A connection updated an hour before NOW; without `teamName` it has no team summary. */
export function conn(
  id: number,
  name: string,
  teamId: number,
  teamName: string | undefined,
  type = 'slack',
): Item<Connection> {
  const value: Connection = {
    id,
    name,
    type,
    team_id: teamId,
    team: teamName === undefined ? undefined : { id: teamId, name: teamName },
    user_id: 7,
    created_at: iso(0),
    updated_at: iso(3_600_000),
    meta: {},
  };
  return { value, raw: { ...value } };
}

/** A list loaded 5 s before NOW. */
export function loaded<T>(items: Item<T>[], extra: Partial<ListState<T>> = {}): ListState<T> {
  return { items, loadedAt: NOW - 5_000, dropped: 0, loading: false, failures: 0, ...extra };
}

/** A ready service's snapshot of the list, for all teams. */
export function snapshot<T>(state: ListState<T>, extra: Partial<ToolSnapshot<T>> = {}): ToolSnapshot<T> {
  return { status: 'ready', state, teamId: '', teams: [], now: NOW, ...extra };
}

/** `n` flow syncs of three flows. */
export const manySyncs = (n: number) =>
  Array.from({ length: n }, (_, i) => sync(i + 1, 100 + (i % 3), `Flow ${i % 3}`));
