import type { Connection, FlowSync, Item } from '../api/types';
import { inert } from '../base/inert';
import { t } from '../base/l10n';
import { serviceName } from '../base/serviceSet';
import { PickRows, pickSegment, type PickSegment } from '../filter/pickRows';
import type { WebKind, WebTemplates, WebValues } from '../webPages/webUrl';

/** One thing that has a web page: its service, its kind, the values of its template and its name in messages. */
export interface WebTarget {
  readonly service: string;
  readonly kind: WebKind;
  readonly values: WebValues;
  readonly name: string;
}

/** A sync's page (a Processing row, a History run, a finished or stuck sync's notification). */
export function syncTarget(service: string, sync: { id: number; flowId: number }): WebTarget {
  return { service, kind: 'sync', values: { id: sync.id, flow_id: sync.flowId }, name: t('Flow sync #{0}', sync.id) };
}

/** A connection's page. */
export function connectionTarget(service: string, connection: Connection): WebTarget {
  return {
    service,
    kind: 'connection',
    values: { id: connection.id, team_id: connection.team_id },
    name: t('Connection #{0}', connection.id),
  };
}

/** A flow's page (a Processing group while grouped by flow, a flow among the syncs). */
export function flowTarget(service: string, id: number): WebTarget {
  return { service, kind: 'flow', values: { id, flow_id: id }, name: t('Flow #{0}', id) };
}

/** A team's page (a Connections group while grouped by team, a team among the connections). */
export function teamTarget(service: string, id: number): WebTarget {
  return { service, kind: 'team', values: { id, team_id: id }, name: t('Team #{0}', id) };
}

/** A row of Open in Browser's pick: a loaded row that has a page. */
export interface WebPick {
  readonly label: string;
  readonly description: string;
  readonly section?: string;
  readonly target: WebTarget;
}

/** A service as Open in Browser's pick reads it: what its lists hold now (nothing is loaded for it). */
export interface WebPickService {
  readonly id: string;
  readonly name?: string;
  readonly syncs: readonly Item<FlowSync>[];
  readonly connections: readonly Item<Connection>[];
}

/**
 * Open in Browser's pick (src/filter/pickRows.ts): the loaded rows that have a page, service by service (a section
 * each, with several): each sync, each flow of the syncs (once), each connection, each team of the connections (once),
 * of the kinds the service has a template for. Found by id (a sync's, its flow's; a connection's, its team's) and by
 * name (the flow's; the connection's, its team's). Service text is inert (quick picks render $(icon) syntax). Pure:
 * nothing is made for a row until it is shown.
 */
export function webPicks(
  services: { readonly all: readonly WebPickService[]; readonly several: boolean },
  templates: (service: string) => WebTemplates | undefined,
): PickRows<WebPick> {
  const segments: PickSegment<unknown, WebPick>[] = [];
  for (const service of services.all) {
    const has = templates(service.id) ?? {};
    const section = serviceName(services, service);
    const id = service.id;
    const pick = (icon: string, label: string, target: WebTarget): WebPick => ({
      label: `$(${icon}) ${inert(label)}`,
      description: target.name,
      section,
      target,
    });
    const flowName = (s: FlowSync) => s.flow?.name ?? t('Flow #{0}', s.flow_id);
    const teamName = (c: Connection) => c.team?.name ?? t('Team #{0}', c.team_id);
    if (has.sync) {
      segments.push(
        pickSegment({
          items: service.syncs,
          row: ({ value: s }) => pick('sync', flowName(s), syncTarget(id, { id: s.id, flowId: s.flow_id })),
          id: ({ value }) => value.id,
          otherId: ({ value }) => value.flow_id,
          name: ({ value }) => value.flow?.name,
        }),
      );
    }
    if (has.flow) {
      segments.push(
        pickSegment({
          items: service.syncs,
          row: ({ value: s }) => pick('symbol-event', flowName(s), flowTarget(id, s.flow_id)),
          id: ({ value }) => value.flow_id,
          name: ({ value }) => value.flow?.name,
          distinct: { among: `flow ${id}`, key: ({ value }) => value.flow_id },
        }),
      );
    }
    if (has.connection) {
      segments.push(
        pickSegment({
          items: service.connections,
          row: ({ value: c }) => pick('plug', c.name, connectionTarget(id, c)),
          id: ({ value }) => value.id,
          otherId: ({ value }) => value.team_id,
          name: ({ value }) => value.name,
          otherName: ({ value }) => value.team?.name,
        }),
      );
    }
    if (has.team) {
      segments.push(
        pickSegment({
          items: service.connections,
          row: ({ value: c }) => pick('organization', teamName(c), teamTarget(id, c.team_id)),
          id: ({ value }) => value.team_id,
          name: ({ value }) => value.team?.name,
          distinct: { among: `team ${id}`, key: ({ value }) => value.team_id },
        }),
      );
    }
  }
  return new PickRows(segments);
}
