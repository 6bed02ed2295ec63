import type { Connection, FlowSync, Item } from '../api/types';
import { inert } from '../base/inert';
import { serviceName } from '../base/serviceSet';
import { t } from '../base/l10n';
import type { HistoryEntry } from '../history/entry';
import { entryFlowLabel } from '../history/entry';
import { flowLabel, teamLabel } from '../lists/grouping';

/** What Go to... lists of one service: what it holds now (nothing is loaded for it). */
export interface GoToService {
  readonly id: string;
  /** Its name, with several services (shown on each row). */
  readonly name?: string;
  readonly processing: readonly Item<FlowSync>[];
  readonly connections: readonly Item<Connection>[];
  readonly history: readonly HistoryEntry[];
}

/** Where a picked row goes: an item of a list, or a run of History (by id and when it left). */
export type GoToTarget =
  | { readonly view: 'processing' | 'connections'; readonly service: string; readonly id: number }
  | { readonly view: 'history'; readonly service: string; readonly id: number; readonly leftAt: number };

export interface GoToPick {
  /** Icon and id first (typing an id finds it), then the name of a connection. */
  readonly label: string;
  /** The flow or team, and the service with several. */
  readonly description: string;
  readonly target: GoToTarget;
}

/** Longest service text on a row: enough to tell rows apart. */
const SHOWN = 80;

/**
 * The rows of Go to Flow Sync or Connection...: every processing sync, connection and History run of every service,
 * in that order. Service text is inert (no icon, link or markup can form; the pick's own icons are ours). Pure.
 */
export function goToPicks(services: readonly GoToService[]): GoToPick[] {
  const picks: GoToPick[] = [];
  const several = services.length > 1;
  for (const service of services) {
    const suffix = several ? ` · ${serviceName({ several }, service) ?? inert(service.id, 60)}` : '';
    for (const { value: s } of service.processing) {
      picks.push({
        label: `$(sync) #${s.id}`,
        description: `${inert(flowLabel(s), SHOWN)} · ${inert(s.status, 40)}${suffix}`,
        target: { view: 'processing', service: service.id, id: s.id },
      });
    }
    for (const { value: c } of service.connections) {
      picks.push({
        label: `$(plug) #${c.id} ${inert(c.name, SHOWN)}`,
        description: `${inert(teamLabel(c), SHOWN)} · ${inert(c.type, 40)}${suffix}`,
        target: { view: 'connections', service: service.id, id: c.id },
      });
    }
    for (const e of service.history) {
      picks.push({
        label: `$(history) #${e.id}`,
        description: `${t('left processing')} · ${inert(entryFlowLabel(e), SHOWN)}${suffix}`,
        target: { view: 'history', service: service.id, id: e.id, leftAt: e.leftAt },
      });
    }
  }
  return picks;
}
