import type { FlowSync, Item } from '../api/types';
import { serviceTimeAgo } from '../base/format';
import type { FilterLive } from '../filter/filterMatch';
import { FilterSubjects } from '../filter/filterMatch';
import { processingRows } from '../lists/findRows';
import { flowLabel } from '../lists/grouping';
import type { WebTemplates } from '../webPages/webUrl';
import { cells, computed, quote, t, type Data } from './dataBlock';
import { matcher, pageCell, readFilter } from './answerParts';
import { finish, loadedOrExplained, scoped, scopeText, type ToolSnapshot } from './listAnswer';
import { filterInput, inputLimit, inputRecord, inputText } from './toolInput';

/** The flowsync_processing tool's answer: the flow syncs processing now. Pure. */

export interface ProcessingInput {
  team?: string;
  flow?: string;
  /** A filter in the views' language (src/filter), as sent. */
  filter?: string;
  limit: number;
}

export function processingInput(raw: unknown): ProcessingInput {
  const o = inputRecord(raw);
  return { team: inputText(o.team), flow: inputText(o.flow), ...filterInput(o), limit: inputLimit(o.limit) };
}

export function processingResult(input: ProcessingInput, s: ToolSnapshot<FlowSync>): string {
  const a = scoped(s, t('Flow Sync: flow syncs processing now ({0}).', scopeText(s)));
  if (typeof a === 'string') return a;
  if (!loadedOrExplained(s, t('processing flow syncs'), a)) return a.text();

  let items = s.state.items!;
  if (input.team !== undefined) {
    a.filter(t('team {0}', quote(input.team, s.hide)));
    const held = heldTeamMatches(input.team, s);
    if (held === false) {
      a.say(
        s.teamId
          ? t(
              'The extension holds only the flow syncs of {0} (the team filter of its views), so it cannot list those of the team asked for (the "filters" line of the data block). The person can choose another team with "Flow Sync: Filter by Team...".',
              scopeText(s),
            )
          : t(
              'Flow syncs do not say which team they belong to, and the extension holds those of all teams, so it cannot list only those of the team asked for (the "filters" line of the data block). The person can choose a team with "Flow Sync: Filter by Team...".',
            ),
      );
      return a.text();
    }
  }
  if (input.flow !== undefined) {
    a.filter(t('flow {0}', quote(input.flow, s.hide)));
    const matches = matcher(input.flow);
    items = items.filter((i) => matches(i.value.flow_id, flowLabel(i.value)));
  }
  if (input.filter !== undefined) {
    const filter = readFilter(a, input.filter, 'processing', s.hide);
    if (!filter) return a.text();
    const subjects = new FilterSubjects<Item<FlowSync>>(
      (i) => processingRows.subject(i.value, s.service ?? ''),
      (i) => withLive(processingRows.live(i.value, s.now), s.live?.(i.value, s.now)),
    );
    items = subjects.filter(filter, items);
  }
  const sorted = [...items].sort(longestRunningFirst);
  return finish(
    a,
    sorted,
    s.state.items!.length,
    input.limit,
    (item) => syncRow(item.value, s.now, s.hide, s.pages),
    t('longest running first'),
  );
}

export function syncRow(sync: FlowSync, now: number, hide: string | undefined, pages?: WebTemplates): Data {
  const parts: Data[] = [
    t('flow sync #{0}', sync.id),
    t('flow {0} (#{1})', quote(flowLabel(sync), hide), sync.flow_id),
    t('status {0}', quote(sync.status, hide, 40)),
    t('started {0} ({1})', computed(serviceTimeAgo(sync.created_at, now)), quote(sync.created_at, hide, 40)),
  ];
  if (sync.webhook) parts.push(t('triggered by webhook'));
  if (sync.errors !== null && sync.errors !== undefined) {
    parts.push(t('errors {0}', quote(errorText(sync.errors), hide, 160)));
  }
  parts.push(...pageCell(pages, 'sync', { id: sync.id, flow_id: sync.flow_id }, hide));
  return cells(parts);
}

function errorText(errors: unknown): string {
  if (typeof errors === 'string') return errors;
  try {
    return JSON.stringify(errors) ?? String(errors);
  } catch {
    return String(errors);
  }
}

/** A sync's own flags and durations, with what History knows over them. */
function withLive(own: FilterLive, extra: FilterLive | undefined): FilterLive {
  return extra ? { flags: { ...own.flags, ...extra.flags }, seconds: { ...own.seconds, ...extra.seconds } } : own;
}

/**
 * Whether the processing list that is held answers a team filter: true when it was loaded for that team, false when
 * it cannot tell (flow syncs carry no team: an unfiltered list mixes every team) or holds another team.
 */
function heldTeamMatches(query: string, s: ToolSnapshot<unknown>): boolean {
  if (!s.teamId) return false;
  return matcher(query)(s.teamId, s.teams.find((team) => team.id === s.teamId)?.name);
}

/** Oldest start first; a start time that cannot be read goes last; then by id. */
function longestRunningFirst(a: Item<FlowSync>, b: Item<FlowSync>): number {
  const x = Date.parse(a.value.created_at);
  const y = Date.parse(b.value.created_at);
  if (Number.isNaN(x) !== Number.isNaN(y)) return Number.isNaN(x) ? 1 : -1;
  return (Number.isNaN(x) ? 0 : x - y) || a.value.id - b.value.id;
}
