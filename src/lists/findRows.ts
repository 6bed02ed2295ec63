import type { Connection, FlowSync } from '../api/types';
import { plausibleStart } from '../base/plausibleTime';
import { t } from '../base/l10n';
import type { FilterLive, FilterSubject } from '../filter/filterMatch';
import { flowLabel, teamLabel } from './grouping';
import { errorsText } from './itemTexts';

/**
 * What a filter (src/filter) sees of a list's row, declared beside the list (processing.ts, connections.ts): the texts
 * the row shows (label, description, group row, tooltip) by term, for the service of that name; and its flags and
 * durations, read anew for each match (the Processing view adds History's stuck, watched and "longer than usual").
 * Loaded with the filters' code, not at start. Pure.
 */
export interface RowsForFilter<T> {
  subject(value: T, service: string): FilterSubject;
  live(value: T, now: number): FilterLive;
}

/** "#1003", its status, "webhook", "has errors", the flow (group row, tooltip: name and id) and the errors (tooltip). */
export const processingRows: RowsForFilter<FlowSync> = {
  subject: (s, service) => ({
    fields: { status: s.status, flow: flowLabel(s), service },
    ids: { id: s.id, flow: s.flow_id },
    more: processingMore(s),
  }),
  live: (s, now) => {
    const start = plausibleStart(s.created_at, undefined, now);
    return {
      flags: { errors: s.errors !== null, webhook: s.webhook },
      seconds: { age: start === undefined ? undefined : Math.max(0, now - start.ms) / 1000 },
    };
  },
};

/** A sync's marks and errors, as its row shows them: "webhook", "has errors" and the errors. */
function processingMore(s: FlowSync): string[] {
  const more: string[] = [];
  if (s.webhook) more.push(t('webhook'));
  if (s.errors !== null) more.push(t('has errors'), errorsText(s.errors));
  return more;
}

/** Its name and type, its team (group row, tooltip: name and id), its id and its user (tooltip). */
export const connectionRows: RowsForFilter<Connection> = {
  subject: (c, service) => ({
    fields: { team: teamLabel(c), type: c.type, service },
    ids: { id: c.id, team: c.team_id },
    more: [c.name, `#${c.user_id}`],
  }),
  live: () => ({}),
};
