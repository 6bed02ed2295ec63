/** The workspace state key that keeps each view's filter across reloads. */
export const FILTERS_STATE_KEY = 'flowsync.filters';

/** Whether this workspace kept a filter: then the views' filters are made at start, so the views show it again. */
export function keptFilters(state: { get(key: string): unknown }): boolean {
  const kept = state.get(FILTERS_STATE_KEY);
  return typeof kept === 'object' && kept !== null && Object.keys(kept).length > 0;
}
