import { STATE_KEYS } from '../base/stateKeys';
/** The workspace state key that keeps each view's filter across reloads. */
export const FILTERS_STATE_KEY = STATE_KEYS.filters;
/** The workspace state key of the filters a link set ({ view: its text }): they are not kept across restarts. */
const LINK_FILTERS_STATE_KEY = STATE_KEYS.filtersFromLinks;

/** A workspace's state, as the filters keep theirs (VS Code's workspaceState). */
export interface FilterState {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Whether this workspace kept a filter: then the views' filters are made at start, so the views show it again. */
export function keptFilters(state: { get(key: string): unknown }): boolean {
  const kept = state.get(FILTERS_STATE_KEY);
  return typeof kept === 'object' && kept !== null && Object.keys(kept).length > 0;
}

/** Records that a link set the view's filter to `text` (as kept: the filter's source), or cleared it (undefined). */
export async function rememberLinkFilter(state: FilterState, view: string, text: string | undefined): Promise<void> {
  const links = { ...record(state.get(LINK_FILTERS_STATE_KEY)) };
  if (text === undefined) delete links[view];
  else links[view] = text;
  await state.update(LINK_FILTERS_STATE_KEY, links);
}

/**
 * At the start, before the filters are read: a view's filter that a link set, and that is still as the link set it,
 * is not kept (a link is anybody's text, and its filter could hide stuck syncs from a header too short to say so: it
 * lasts the session in which the link was opened). A filter the person set or changed since is kept.
 */
export async function dropLinkFilters(state: FilterState): Promise<void> {
  const links = record(state.get(LINK_FILTERS_STATE_KEY));
  if (Object.keys(links).length === 0) return;
  const kept = { ...record(state.get(FILTERS_STATE_KEY)) };
  for (const [view, text] of Object.entries(links)) if (kept[view] === text) delete kept[view];
  await Promise.all([state.update(FILTERS_STATE_KEY, kept), state.update(LINK_FILTERS_STATE_KEY, undefined)]);
}

/** A kept { view: text } object, read as untrusted. */
function record(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
