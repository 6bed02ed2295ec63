/** Lists and snapshots as the language model tools' answers read them (src/tools/*Result.ts), for their tests. */
import type { Connection, FlowSync, Item } from '../../../src/api/types';
import type { ListState } from '../../../src/lists/refresh';
import type { ToolSnapshot } from '../../../src/tools/listAnswer';
import { NOW, iso } from './items';

export function sync(
  id: number,
  flowId: number,
  flowName: string | undefined,
  extra: Partial<FlowSync> = {},
): Item<FlowSync> {
  const value: FlowSync = {
    id,
    flow_id: flowId,
    status: 'pending',
    created_at: iso(id * 60_000),
    updated_at: iso(0),
    errors: null,
    webhook: false,
    flow: flowName === undefined ? undefined : { id: flowId, name: flowName },
    ...extra,
  };
  return { value, raw: { ...value } };
}

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

export function loaded<T>(items: Item<T>[], extra: Partial<ListState<T>> = {}): ListState<T> {
  return { items, loadedAt: NOW - 5_000, dropped: 0, loading: false, failures: 0, ...extra };
}

export function snapshot<T>(state: ListState<T>, extra: Partial<ToolSnapshot<T>> = {}): ToolSnapshot<T> {
  return { status: 'ready', state, teamId: '', teams: [], now: NOW, ...extra };
}

export const manySyncs = (n: number) =>
  Array.from({ length: n }, (_, i) => sync(i + 1, 100 + (i % 3), `Flow ${i % 3}`));
