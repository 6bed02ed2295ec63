import { t } from './l10n';
import { plausibleStart } from './plausibleTime';
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

/** Ends a message with a full stop when it has no closing punctuation, so another sentence can follow it. */
export function asSentence(message: string): string {
  return /[.!?…)]$/.test(message.trim()) ? message.trim() : `${message.trim()}.`;
}

/** "12:04:31" style local clock time for "last loaded at". */
export function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
