/**
 * The data of the activity chart ("Flow Sync Activity" panel): how many flow syncs were processing over time, per flow.
 * The history side computes it (activitySeries), the panel (src/activity/vscode/activityPanel.ts) draws it. Pure: no vscode.
 */

export type ActivityRange = 'hour' | 'day' | 'week';

/** Every range, in the order the panel offers them. */
export const ACTIVITY_RANGE_ORDER: readonly ActivityRange[] = ['hour', 'day', 'week'];

export function isActivityRange(value: unknown): value is ActivityRange {
  return typeof value === 'string' && (ACTIVITY_RANGE_ORDER as readonly string[]).includes(value);
}

export interface ActivitySeries {
  range: ActivityRange;
  /** Bucket start times (ms since epoch), ascending. */
  times: number[];
  /** One series per flow (top flows, then "Other"), counts per bucket (same length as times). Names are service text. */
  flows: Array<{
    name: string;
    counts: number[];
    /** Set on the "Other" series (the flows beyond the top ones): drawn in a neutral colour. Optional. */
    other?: boolean;
  }>;
  /** With team History: when nobody watched the service in the range, in words (the page shows it as text). */
  unwatched?: string;
  /** The same stretches, [from, to) in ms, ascending: the chart shades them. */
  gaps?: Array<[number, number]>;
}
