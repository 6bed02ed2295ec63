import type { Connection, FlowSync, Item } from '../api/types';
import { t } from '../base/l10n';
import { escapeMarkdown, serviceTimeAgo } from '../base/format';
import { inert } from '../base/inert';
import { flowLabel, teamLabel } from './grouping';

/** What a row of the two lists says: counts, labels, descriptions and the Markdown tooltips (service text escaped). */

/** A timestamp for tooltips: ISO as the API sent it, with the relative time beside it. */
function when(iso: string, nowMs: number): string {
  return `${escapeMarkdown(iso)} (${serviceTimeAgo(iso, nowMs)})`;
}

export function syncLabel(sync: FlowSync): string {
  return `#${sync.id}`;
}

/** Tree description of a sync: status, how long ago it started, and marks for webhook and errors. */
export function syncDescription(sync: FlowSync, nowMs: number): string {
  return syncDescriptionParts(sync, nowMs).join(' · ');
}

/** The parts of a sync's description (Copy as Markdown says them after its title). */
export function syncDescriptionParts(sync: FlowSync, nowMs: number): string[] {
  const parts = [sync.status, t('started {0}', serviceTimeAgo(sync.created_at, nowMs))];
  if (sync.webhook) parts.push(t('webhook'));
  if (sync.errors !== null) parts.push(t('has errors'));
  return parts;
}

/** Markdown tooltip of a flow sync with every documented field. Values from the service are escaped. */
export function syncTooltip(item: Item<FlowSync>, nowMs: number): string {
  const s = item.value;
  const rows: Array<[string, string]> = [
    [t('Flow sync'), `#${s.id}`],
    [t('Flow'), `${escapeMarkdown(flowLabel(s))} (#${s.flow_id})`],
    [t('Status'), escapeMarkdown(s.status)],
    [t('Started'), when(s.created_at, nowMs)],
    [t('Updated'), when(s.updated_at, nowMs)],
    [t('Triggered by webhook'), s.webhook ? t('yes') : t('no')],
    [t('Errors'), s.errors === null ? t('none') : `\`${escapeCode(errorsText(s.errors))}\``],
  ];
  return table(rows);
}

export function connectionTooltip(item: Item<Connection>, nowMs: number): string {
  const c = item.value;
  const metaKeys = Object.keys(c.meta).length;
  const rows: Array<[string, string]> = [
    [t('Connection'), `${escapeMarkdown(c.name)} (#${c.id})`],
    [t('Type'), escapeMarkdown(c.type)],
    [t('Team'), `${escapeMarkdown(teamLabel(c))} (#${c.team_id})`],
    [t('User'), `#${c.user_id}`],
    [t('Created'), when(c.created_at, nowMs)],
    [t('Updated'), when(c.updated_at, nowMs)],
    [t('Meta'), metaKeys === 1 ? t('1 key') : t('{0} keys', metaKeys)],
  ];
  return table(rows);
}

/** A sync's errors as the tooltip shows them (their JSON; the shape is not documented). */
export function errorsText(errors: unknown): string {
  return JSON.stringify(errors) ?? String(errors);
}

function table(rows: Array<[string, string]>): string {
  return ['| | |', '|---|---|', ...rows.map(([k, v]) => `| **${k}** | ${v} |`)].join('\n');
}

function escapeCode(text: string): string {
  return inert(text).replace(/`/g, "'").replace(/\|/g, '\\|');
}
