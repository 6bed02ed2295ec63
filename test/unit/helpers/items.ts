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
  const value: FlowSync = {
    id,
    flow_id: flowId,
    status: 'pending',
    created_at: iso(id * 1000),
    updated_at: iso(0),
    errors: null,
    webhook: false,
    flow: name ? { id: flowId, name } : undefined,
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
