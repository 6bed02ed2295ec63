/**
 * What a filtered view asks of its filter (made by src/find/vscode/findViews.ts, its own chunk, loaded once a filter
 * is first set or restored): which of a service's rows it keeps, and the view's words for it. Types only: the views
 * carry no filter code of their own.
 */
export interface RowFind<Row> {
  /** The filter reads flags or durations (is:stuck, age>10m): it is applied again when those may have changed. */
  readonly readsLive: boolean;
  /**
   * The rows of one service the filter keeps, in their order; worked out once for the same rows and `generation`
   * (a count the view raises when flags or durations may have changed).
   */
  keep(service: string, rows: readonly Row[], generation: number): readonly Row[];
  /** The view's description: `filter: receipts · 3 of 7`. */
  description(matched: number, total: number): string;
  /** The view's message when nothing matches. */
  noMatch(): string;
  /** The label of the row that clears the filter when nothing matches. */
  readonly clearLabel: string;
  /** A service's row (several services): "3 of 7 syncs" (`count`: the list's words for all of its rows). */
  serviceText(matched: number, count: string): string;
}
