import type { Connection, FlowSync, Item } from '../../../src/api/types';

/** The tests' "now": 22 Nov 2026, 12:00 UTC (FakeClock starts there too). */
export const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
/** The ISO timestamp `msAgo` before NOW. */
export const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();

/** A valid flow sync item, created `id` seconds before NOW; without `name` it has no flow summary. */
export function sync(
  id: number,
  flowId: number,
  name: string | undefined,
  extra: Partial<FlowSync> = {},
): Item<FlowSync> {
  return syncAt(id, flowId, NOW, id * 1000, { flow: name ? { id: flowId, name } : undefined, ...extra });
}

/** A flow sync of flow `flowId` ("Flow <flowId>") as a poll at `now` lists it: created `agoMs` before, updated then. */
export function syncAt(
  id: number,
  flowId: number,
  now: number,
  agoMs: number,
  extra: Partial<FlowSync> = {},
): Item<FlowSync> {
  const value: FlowSync = {
    id,
    flow_id: flowId,
    status: 'pending',
    created_at: new Date(now - agoMs).toISOString(),
    updated_at: new Date(now).toISOString(),
    errors: null,
    webhook: false,
    flow: { id: flowId, name: `Flow ${flowId}` },
    ...extra,
  };
  return { value, raw: { ...value } };
}

/** A valid connection item; without `teamName` it has no team summary. */
export function conn(id: number, name: string, teamId: number, teamName?: string, type = 'slack'): Item<Connection> {
  const value: Connection = {
    id,
    name,
    type,
    team_id: teamId,
    team: teamName ? { id: teamId, name: teamName } : undefined,
    user_id: 1,
    created_at: iso(0),
    updated_at: iso(0),
    meta: { a: 1, b: 2 },
  };
  return { value, raw: { ...value } };
}

/** A flow sync as the service sends it (raw JSON, fixed times): `extra` adds or overrides fields. */
export function rawSync(id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    flow_id: 10,
    status: 'pending',
    created_at: '2026-11-22T11:58:00.000Z',
    updated_at: '2026-11-22T11:59:00.000Z',
    errors: null,
    webhook: false,
    flow: { id: 10, name: 'Invoices' },
    ...extra,
  };
}
