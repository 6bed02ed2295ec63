import type { Connection, FlowSync, Item } from '../api/types';
import { t } from '../l10n';
import { flowLabel, teamLabel } from './grouping';
import { plausibleStart } from './history/start';
import { inert } from './inert';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "42 s ago", "3 min ago", "5 h ago", "2 d ago"; "unknown time" for an unparseable timestamp. */
export function timeAgo(iso: string, nowMs: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return t('unknown time');
  const elapsed = nowMs - at;
  if (elapsed < 5 * SECOND) return t('just now');
  if (elapsed < MINUTE) return t('{0} s ago', Math.floor(elapsed / SECOND));
  if (elapsed < HOUR) return t('{0} min ago', Math.floor(elapsed / MINUTE));
  if (elapsed < DAY) return t('{0} h ago', Math.floor(elapsed / HOUR));
  return t('{0} d ago', Math.floor(elapsed / DAY));
}

/**
 * timeAgo of a time the service sent, or "unknown time" when it cannot be true: not a time, before 2000, or in the
 * future beyond clock skew; for a sync's created_at with `firstSeenMs` (when this extension first saw it processing),
 * also long before that. The one rule of plausibleStart, so no text claims an age the durations do not count from.
 */
export function serviceTimeAgo(iso: string, nowMs: number, firstSeenMs?: number): string {
  return plausibleStart(iso, firstSeenMs, nowMs)?.from === 'created' ? timeAgo(iso, nowMs) : t('unknown time');
}

/** A timestamp for tooltips: ISO as the API sent it, with the relative time beside it. */
function when(iso: string, nowMs: number): string {
  return `${escapeMarkdown(iso)} (${serviceTimeAgo(iso, nowMs)})`;
}

export function syncCount(n: number): string {
  return n === 1 ? t('1 sync') : t('{0} syncs', n);
}

export function connectionCount(n: number): string {
  return n === 1 ? t('1 connection') : t('{0} connections', n);
}

export function syncLabel(sync: FlowSync): string {
  return `#${sync.id}`;
}

/** Tree description of a sync: status, how long ago it started, and marks for webhook and errors. */
export function syncDescription(sync: FlowSync, nowMs: number): string {
  const parts = [sync.status, t('started {0}', serviceTimeAgo(sync.created_at, nowMs))];
  if (sync.webhook) parts.push(t('webhook'));
  if (sync.errors !== null) parts.push(t('has errors'));
  return parts.join(' · ');
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
    [t('Errors'), s.errors === null ? t('none') : `\`${escapeCode(JSON.stringify(s.errors))}\``],
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

function table(rows: Array<[string, string]>): string {
  return ['| | |', '|---|---|', ...rows.map(([k, v]) => `| **${k}** | ${v} |`)].join('\n');
}

/**
 * Makes text from the service inert, then escapes it so it shows literally in a MarkdownString: every ASCII
 * punctuation character (exactly the set CommonMark lets a backslash escape) is escaped, so no construct can start in
 * it: no emphasis, table, link, HTML or entity, and no autolink either (a hover turned `https://…`, which needs a
 * bare `:` and `//`, into a live link even with the rest escaped; `www.` and `name@host` need a bare `.` or `@`).
 * The one way service text enters Markdown: hovers (status bar, rows, History) build theirs from it.
 */
export function escapeMarkdown(text: string): string {
  return inert(text).replace(MARKDOWN_PUNCTUATION, '\\$&');
}

/** ASCII punctuation: what CommonMark's backslash escapes (spec 2.4). */
const MARKDOWN_PUNCTUATION = /[!-/:-@[-`{-~]/g;

function escapeCode(text: string): string {
  return inert(text).replace(/`/g, "'").replace(/\|/g, '\\|');
}

/** Ends a message with a full stop when it has no closing punctuation, so another sentence can follow it. */
export function asSentence(message: string): string {
  return /[.!?…)]$/.test(message.trim()) ? message.trim() : `${message.trim()}.`;
}

/** "12:04:31" style local clock time for "last loaded at". */
export function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
