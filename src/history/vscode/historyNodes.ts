import type { HistoryService } from './historyService';

/** A service whose History the view shows. */
export interface HistoryViewService {
  readonly id: string;
  readonly name?: string;
  readonly history: HistoryService;
}
