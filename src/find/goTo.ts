import type { Connection, FlowSync, Item } from '../api/types';
import { inert } from '../base/inert';
import { serviceName } from '../base/serviceSet';
import { t } from '../base/l10n';
import { PickRows, PICK_ROWS, pickSegment } from '../filter/pickRows';
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

/** The most rows Go to... shows at once (at first, and for each text typed): what it costs is bounded by it. */
const GO_TO_ROWS = PICK_ROWS;

/** One service's rows as Go to... makes them (a row's pick is made only when it is shown). */
class ServiceRows {
  readonly suffix: string;

  constructor(
    readonly service: GoToService,
    several: boolean,
  ) {
    this.suffix = several ? ` · ${serviceName({ several }, service) ?? inert(service.id, 60)}` : '';
  }

  processing(s: FlowSync): GoToPick {
    return {
      label: `$(sync) #${s.id}`,
      description: `${inert(flowLabel(s), SHOWN)} · ${inert(s.status, 40)}${this.suffix}`,
      target: { view: 'processing', service: this.service.id, id: s.id },
    };
  }

  connection(c: Connection): GoToPick {
    return {
      label: `$(plug) #${c.id} ${inert(c.name, SHOWN)}`,
      description: `${inert(teamLabel(c), SHOWN)} · ${inert(c.type, 40)}${this.suffix}`,
      target: { view: 'connections', service: this.service.id, id: c.id },
    };
  }

  run(e: HistoryEntry): GoToPick {
    return {
      label: `$(history) #${e.id}`,
      description: `${t('left processing')} · ${inert(entryFlowLabel(e), SHOWN)}${this.suffix}`,
      target: { view: 'history', service: this.service.id, id: e.id, leftAt: e.leftAt },
    };
  }
}

function rowsOf(services: readonly GoToService[]): ServiceRows[] {
  return services.map((service) => new ServiceRows(service, services.length > 1));
}

/**
 * The rows Go to Flow Sync or Connection... shows before anything is typed: at most `max` (GO_TO_ROWS), so it costs the
 * same however much is loaded: every processing sync of every service first, then the newest History runs across the
 * services, then connections while there is room (a small setup sees everything). Service text is inert (no icon, link
 * or markup can form; the pick's own icons are ours). Pure; a row beyond `max` is never made.
 */
export function goToPicks(services: readonly GoToService[], max = GO_TO_ROWS): GoToPick[] {
  const rows = rowsOf(services);
  const picks: GoToPick[] = [];
  for (const r of rows) {
    for (const { value } of r.service.processing) {
      if (picks.length >= max) return picks;
      picks.push(r.processing(value));
    }
  }
  // The newest runs first across the services: each service's History is newest first, so the next is at a head.
  const at = rows.map(() => 0);
  while (picks.length < max) {
    let best = -1;
    for (let k = 0; k < rows.length; k++) {
      const e = rows[k].service.history[at[k]];
      if (e !== undefined && (best === -1 || e.leftAt > rows[best].service.history[at[best]].leftAt)) best = k;
    }
    if (best === -1) break;
    picks.push(rows[best].run(rows[best].service.history[at[best]++]));
  }
  for (const r of rows) {
    for (const { value } of r.service.connections) {
      if (picks.length >= max) return picks;
      picks.push(r.connection(value));
    }
  }
  return picks;
}

/**
 * Go to... as the person types (src/filter/pickRows.ts): finds any loaded item by its id (`1003`, `#1003`, a flow's id)
 * or by its name (a flow's, a connection's or its team's; words in any order, folded as Find folds them: letter case
 * and accents), in the order of goToPicks's kinds (processing, History, connections; service by service), a step at a
 * time, and shows at most `max` rows; before anything is typed, goToPicks. Pure.
 */
export function goToRows(services: readonly GoToService[], max = GO_TO_ROWS): PickRows<GoToPick> {
  const rows = rowsOf(services);
  const segments = [
    ...rows.map((r) =>
      pickSegment({
        items: r.service.processing,
        row: ({ value }) => r.processing(value),
        id: ({ value }) => value.id,
        otherId: ({ value }) => value.flow_id,
        name: ({ value }) => value.flow?.name,
      }),
    ),
    ...rows.map((r) =>
      pickSegment({
        items: r.service.history,
        row: (e) => r.run(e),
        id: (e) => e.id,
        otherId: (e) => e.flowId,
        name: (e) => e.flowName,
      }),
    ),
    ...rows.map((r) =>
      pickSegment({
        items: r.service.connections,
        row: ({ value }) => r.connection(value),
        id: ({ value }) => value.id,
        name: ({ value }) => value.name,
        otherName: ({ value }) => value.team?.name,
      }),
    ),
  ];
  return new PickRows(segments, { max, first: () => goToPicks(services, max) });
}
