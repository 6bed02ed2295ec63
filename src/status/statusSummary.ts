import type { FlowSync } from '../api/types';
import { t } from '../base/l10n';
import type { ExplorerStatus } from '../lists/explorer';
import { clockTime, escapeMarkdown, serviceTimeAgo, timeAgo } from '../base/format';
import { updatedAgoWords } from '../base/freshness';
import { inert } from '../base/inert';
import { flowLabel, groupByFlow } from '../lists/grouping';
import type { ListState } from '../lists/refresh';

/** What the status bar item shows, decided without vscode so it can be unit-tested. */
export interface StatusSummary {
  text: string;
  /** Markdown. */
  tooltip: string;
  /** 'focus' the Processing view, or run 'setApiKey' / 'setBaseUrl'. */
  action: 'focus' | 'setApiKey' | 'setBaseUrl';
  warning: boolean;
  /**
   * What a screen reader says (StatusBarItem.accessibilityInformation): the text in words, with what its icon and
   * colour say, e.g. "7 flow syncs processing, 1 stuck, updated 20 seconds ago".
   */
  accessibleLabel: string;
}

/** What History adds: the stuck syncs (named in the tooltip, counted in the text) and a sparkline of the last hour. */
export interface StatusExtras {
  stuck: readonly FlowSync[];
  sparkline?: string;
  /**
   * The hover's lines of the pinned flows, in pin order, made by History (src/history/pins.ts pinnedLines, service text
   * escaped): "- Nightly export: idle", "- Invoices: processing 2, 1 with errors".
   */
  pinned?: readonly string[];
}

export function statusSummary(
  status: ExplorerStatus,
  detail: string | undefined,
  state: Readonly<ListState<FlowSync>>,
  /** Asked only when the summary shows them (the service is set up): the sparkline costs a pass over History. */
  extras: (() => StatusExtras) | undefined,
  now: number,
): StatusSummary {
  const setUp = setUpSummary(status, detail);
  if (setUp) return setUp;
  const count = state.items?.length;
  const { stuck: stuckNow, sparkline, pinned = [] } = extras?.() ?? { stuck: [] };
  const stuck = state.items ? stuckNow : [];
  const spinning = count !== undefined && count > 0;
  const counted =
    count === undefined
      ? t('Flow Sync')
      : stuck.length
        ? t('{0} processing, {1} stuck', count, stuck.length)
        : t('{0} processing', count);
  const icon = state.error || stuck.length ? 'warning' : count === undefined || spinning ? 'sync~spin' : 'check';
  const lines = [...processingLines(state.items), ...stuckLines(stuck, now)];
  if (state.items) lines.push(...errorLines(state.items.map((i) => i.value)));
  if (pinned.length) lines.push('', `**${t('Pinned')}**`, ...pinned);
  if (sparkline) lines.push('', `${t('Last hour:')} ${escapeMarkdown(sparkline)}`);
  if (state.error) lines.push('', `$(warning) ${escapeMarkdown(state.error.message)}`);
  if (state.loadedAt !== undefined) {
    lines.push(
      '',
      t('Last loaded at {0} ({1}).', clockTime(state.loadedAt), timeAgo(new Date(state.loadedAt).toISOString(), now)),
    );
  }
  return {
    text: `$(${icon}) ${counted}`,
    tooltip: lines.join('\n'),
    action: state.error?.kind === 'unauthorized' ? 'setApiKey' : 'focus',
    warning: state.error !== undefined || stuck.length > 0,
    accessibleLabel: statusWords(count, stuck.length, state, now),
  };
}

/**
 * The service is not set up: the summary that asks for what is missing (the URL, else the key; a refused URL or an
 * unreadable keyring is a warning), or undefined when it is ready.
 */
function setUpSummary(status: ExplorerStatus, detail: string | undefined): StatusSummary | undefined {
  if (status === 'ready') return undefined;
  const url = status === 'noUrl' || status === 'invalidUrl';
  const text = url ? t('Flow Sync: set up') : t('Flow Sync: Set API Key');
  const missing = url
    ? t('Set the Flow Sync service URL to start.')
    : t('Enter your Flow Sync API key to see what is processing.');
  return {
    text: `$(${url ? 'gear' : 'key'}) ${text}`,
    tooltip: escapeMarkdown(detail ?? missing),
    action: url ? 'setBaseUrl' : 'setApiKey',
    warning: status === 'invalidUrl' || status === 'secretsUnavailable',
    accessibleLabel: text,
  };
}

/** The hover's lines of the syncs processing, by flow (the first 10 flows named); none before the first load. */
function processingLines(items: Readonly<ListState<FlowSync>>['items']): string[] {
  if (!items) return [];
  const groups = groupByFlow(items);
  const lines = [groups.length ? `**${t('Processing now')}**` : t('No flow syncs are processing.')];
  for (const g of groups.slice(0, 10)) lines.push(`- ${escapeMarkdown(g.label)}: ${g.items.length}`);
  if (groups.length > 10) lines.push(t('- and {0} more flows', groups.length - 10));
  return lines;
}

/** The hover's lines of the stuck syncs (the first 10 named, with when they started); none when none is stuck. */
function stuckLines(stuck: readonly FlowSync[], now: number): string[] {
  if (!stuck.length) return [];
  const lines = ['', `**${t('Stuck')}**`];
  for (const s of stuck.slice(0, 10)) {
    lines.push(`- #${s.id} (${escapeMarkdown(flowLabel(s))}), ${t('started {0}', serviceTimeAgo(s.created_at, now))}`);
  }
  if (stuck.length > 10) lines.push(t('- and {0} more', stuck.length - 10));
  return lines;
}

/** The status bar in words: "7 flow syncs processing, 1 stuck, refresh failed, updated 20 seconds ago". */
function statusWords(
  count: number | undefined,
  stuck: number,
  state: Readonly<ListState<FlowSync>>,
  now: number,
): string {
  const parts = [
    count === undefined
      ? t('Flow Sync, loading')
      : count === 1
        ? t('1 flow sync processing')
        : t('{0} flow syncs processing', count),
  ];
  if (stuck) parts.push(t('{0} stuck', stuck));
  if (state.error) parts.push(t('refresh failed: {0}', inert(state.error.message, 200)));
  if (state.loadedAt !== undefined) parts.push(updatedAgoWords(state.loadedAt, now));
  return parts.join(', ');
}

/** One service as the status bar sums it up (several services). */
export interface ServiceStatus {
  name: string;
  status: ExplorerStatus;
  detail: string | undefined;
  state: Readonly<ListState<FlowSync>>;
  stuck: readonly FlowSync[];
  /** Its pinned flows with their state (StatusExtras.pinned). */
  pinned?: StatusExtras['pinned'];
}

/**
 * The status bar over several services: the total, "N processing" (", M stuck"), over the services whose data is
 * shown; the hover lists each service with its count or its trouble. A service's trouble never hides another's count.
 */
export function servicesSummary(services: readonly ServiceStatus[], now: number): StatusSummary {
  let count = 0;
  let stuck = 0;
  let shown = 0;
  let troubled = 0;
  const lines = [`**${t('Flow syncs processing')}**`];
  const withErrors: string[] = [];
  for (const s of services) {
    const name = escapeMarkdown(s.name);
    const items = s.status === 'ready' ? s.state.items : undefined;
    const stuckHere = items ? s.stuck.length : 0;
    const trouble = s.status !== 'ready' ? (s.detail ?? statusTrouble(s.status)) : s.state.error?.message;
    if (items) {
      shown++;
      count += items.length;
      stuck += stuckHere;
    }
    if (trouble) troubled++;
    const counted = items
      ? stuckHere
        ? t('{0} processing, {1} stuck', items.length, stuckHere)
        : t('{0} processing', items.length)
      : t('no data');
    lines.push(`- ${name}: ${counted}${trouble ? ` · $(warning) ${escapeMarkdown(trouble)}` : ''}`);
    const syncs = items?.map((i) => i.value) ?? [];
    withErrors.push(...errorLines(syncs, name));
  }
  lines.push(...withErrors);
  // Each service's pinned flows under its name: "- Production › Nightly export: idle"
  const pinned = services.flatMap((s) =>
    s.status === 'ready' ? (s.pinned ?? []).map((line) => `- ${escapeMarkdown(s.name)} › ${line.slice(2)}`) : [],
  );
  if (pinned.length) lines.push('', `**${t('Pinned')}**`, ...pinned);
  const loadedAt = Math.max(...services.map((s) => s.state.loadedAt ?? -Infinity));
  if (Number.isFinite(loadedAt)) {
    lines.push('', t('Last loaded at {0} ({1}).', clockTime(loadedAt), timeAgo(new Date(loadedAt).toISOString(), now)));
  }
  const counted =
    shown === 0 ? t('Flow Sync') : stuck ? t('{0} processing, {1} stuck', count, stuck) : t('{0} processing', count);
  const icon = troubled || stuck ? 'warning' : shown === 0 || count > 0 ? 'sync~spin' : 'check';
  const words = [
    shown === 0
      ? t('Flow Sync, loading')
      : count === 1
        ? t('1 flow sync processing')
        : t('{0} flow syncs processing', count),
  ];
  if (stuck) words.push(t('{0} stuck', stuck));
  words.push(t('{0} services', services.length));
  if (troubled) words.push(troubled === 1 ? t('1 service has a problem') : t('{0} services have a problem', troubled));
  return {
    text: `$(${icon}) ${counted}`,
    tooltip: lines.join('\n'),
    action: 'focus',
    warning: troubled > 0 || stuck > 0,
    accessibleLabel: words.join(', '),
  };
}

/** The most syncs with errors the hover names (per service); the rest are counted. */
const ERRORS_NAMED = 10;

/**
 * The hover's lines naming the processing syncs that report errors ("**With errors**", then "- #1003 (Invoices)"),
 * titled with its service's name when there are several (`service`, already escaped); none when no sync has errors.
 */
function errorLines(syncs: readonly FlowSync[], service?: string): string[] {
  const withErrors = syncs.filter((s) => s.errors !== null && s.errors !== undefined);
  if (withErrors.length === 0) return [];
  const title = service === undefined ? t('With errors') : t('With errors in {0}', service);
  const lines = ['', `**${title}**`];
  for (const s of withErrors.slice(0, ERRORS_NAMED)) lines.push(`- #${s.id} (${escapeMarkdown(flowLabel(s))})`);
  if (withErrors.length > ERRORS_NAMED) lines.push(t('- and {0} more', withErrors.length - ERRORS_NAMED));
  return lines;
}

function statusTrouble(status: ExplorerStatus): string {
  if (status === 'noKey') return t('no API key');
  if (status === 'secretsUnavailable') return t('the keyring could not be read');
  return t('the service URL is not usable');
}
