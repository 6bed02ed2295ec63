import type { HistoryEntry, HistoryGroup } from '../index';
import type { HistoryService } from './historyService';

/** A service (several services), a day of the History view, and one sync that left processing on it. */
export type HistoryNode =
  | { kind: 'historyService'; service: string }
  | { kind: 'historyDay'; group: HistoryGroup; service: string }
  | { kind: 'historyEntry'; entry: HistoryEntry; service: string };

export function isHistoryNode(value: unknown): value is HistoryNode {
  const kind = (value as { kind?: unknown } | undefined)?.kind;
  return kind === 'historyDay' || kind === 'historyEntry' || kind === 'historyService';
}

/** A service whose History the view shows. */
export interface HistoryViewService {
  readonly id: string;
  readonly name?: string;
  readonly history: HistoryService;
}
