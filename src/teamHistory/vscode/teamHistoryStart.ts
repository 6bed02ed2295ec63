import { onFirstUse, type OnFirstUse } from '../../base/onFirstUse';
import { teamHistory, type TeamHistory } from './teamHistory';
import type { TeamHistoryDeps } from './teamHistoryTypes';

/**
 * Team History of this window, made with the services' code (the registry's withServices: after activate() returned
 * and the host had its turn, never in it, and before the services, whose Histories join its slot): it connects in the
 * background when a connection string is kept.
 */
export function teamHistoryOnFirstUse(
  deps: Omit<TeamHistoryDeps, 'slot'>,
  failed: (what: string) => (error: unknown) => void,
): OnFirstUse<TeamHistory> {
  return onFirstUse(async () => teamHistory(deps), {
    onError: failed('Team History'),
    dispose: (made) => made.dispose(),
  });
}
