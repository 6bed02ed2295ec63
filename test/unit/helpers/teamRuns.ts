import type { TeamRun } from '../../../src/teamHistory/teamRows';

const MIN = 60_000;

/**
 * A run of flow 7 ("Invoices") that `observer` saw leave `service` at `leftAt`: created 10 minutes before, first seen
 * 9 minutes before, last seen 15 s before (the store's and the session's tests).
 */
export function teamRunAt(
  service: string,
  observer: string,
  id: number,
  leftAt: number,
  extra: Partial<TeamRun> = {},
): TeamRun {
  return {
    observer,
    service,
    team: '',
    id,
    flowId: 7,
    flowName: 'Invoices',
    createdAt: new Date(leftAt - 10 * MIN).toISOString(),
    firstSeen: leftAt - 9 * MIN,
    lastSeen: leftAt - MIN / 4,
    leftAt,
    hadErrors: false,
    ...extra,
  };
}
