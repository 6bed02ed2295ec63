import { inert } from '../base/inert';
import { t } from '../base/l10n';
import type { FilterView } from './filterQuery';
import { FILTER_VIEWS } from './viewFilters';

/** What the person sees of a filter (it may be a link's, so anybody's text): inert, one line, short. */
const SHOWN_FILTER = 40;

export function shownFilter(source: string): string {
  return inert(source, SHOWN_FILTER);
}

/** A view's description while filtered: `filter: receipts · 3 of 7`. */
export function filterDescription(source: string, matched: number, total: number): string {
  return t('filter: {0} · {1} of {2}', shownFilter(source), matched, total);
}

/** What the input box says as you type: "3 of 7 match". */
export function matchCountText(matched: number, total: number): string {
  return t('{0} of {1} match', matched, total);
}

/** A service's row (several services) while filtered: "3 of 7 syncs" (`count` is the list's own words for 7). */
export function serviceMatchText(matched: number, count: string): string {
  return t('{0} of {1}', matched, count);
}

/** The view's message when nothing matches: plain text. */
export function noMatchText(source: string): string {
  return t('Nothing matches the filter "{0}".', shownFilter(source));
}

/** The input box's prompt for a view. */
export function filterPrompt(view: FilterView): string {
  switch (view) {
    case 'processing':
      return t(
        'Words match any shown field. Terms: status: flow: service: id: has:errors has:webhook is:stuck is:watched is:longer age>10m; -negates. Empty clears.',
      );
    case 'connections':
      return t('Words match any shown field. Terms: team: type: service: id:; -negates. Empty clears.');
    case 'history':
      return t(
        'Words match any shown field. Terms: status: flow: service: id: has:errors has:webhook is:watched ran>1h; -negates. Empty clears.',
      );
  }
}

/** The path of a view's link: vscode://<extension>/processing?filter=… */
export function viewLink(extensionId: string, view: FilterView, source: string | undefined): string {
  const query = source ? `?filter=${encodeURIComponent(source)}` : '';
  return `vscode://${extensionId}/${view}${query}`;
}

/**
 * Reads a view link: /processing, /connections or /history, with an optional `filter` (parseFilter bounds it).
 * Undefined when the path names no view (it is then another kind of link); `filter` undefined when the link has none.
 * Anything else in the link is ignored.
 */
export function parseViewLink(path: string, query: string): { view: FilterView; filter?: string } | undefined {
  const name = path.replace(/^\/+|\/+$/g, '').toLowerCase();
  const view = FILTER_VIEWS.find((v) => v === name);
  if (!view) return undefined;
  const filter = new URLSearchParams(query).get('filter');
  if (filter === null) return { view };
  return { view, filter };
}
