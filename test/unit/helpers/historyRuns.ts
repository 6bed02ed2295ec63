import { makeEntry, type HistoryEntry } from '../../../src/history/index';
import { NOW } from './items';

const MIN = 60_000;
const HOUR = 60 * MIN;

/**
 * A run of flow `flowId` (named `flowName`) that left `hoursAgo` hours before `now` after `minutes` minutes: first seen
 * when it was created, last seen 15 s before it left.
 */
export function leftRun(
  id: number,
  flowId: number,
  flowName: string,
  hoursAgo: number,
  minutes: number,
  now = NOW,
): HistoryEntry {
  const leftAt = now - hoursAgo * HOUR;
  return makeEntry({
    id,
    flowId,
    flowName,
    createdAt: new Date(leftAt - minutes * MIN).toISOString(),
    firstSeen: leftAt - minutes * MIN,
    lastSeen: leftAt - MIN / 4,
    leftAt,
  });
}
