/**
 * The messages between the activity panel (extension host, src/activity/vscode/activityPanel.ts) and its page (the webview,
 * src/activity/webview/activity.ts). Pure: no vscode, no DOM; both sides import it.
 *
 *   page → extension  { type: 'ready' }                  the script runs: send everything (again: the page reloads
 *                                                         each time the panel is shown)
 *   extension → page  { type: 'init', strings, … }        the page's words (localized), the locale, the series
 *   extension → page  { type: 'series', series }          new data, or the range the page asked for
 *   page → extension  { type: 'range', range }           Hour / Day / Week pressed
 *   page → extension  { type: 'rendered', … }            drawn (what, and any Content Security Policy violation)
 *
 * Flow names are service text: they travel as data and the page sets them as text only (never as HTML).
 */
import { isActivityRange, type ActivityRange, type ActivitySeries } from './activityData';
import { inert } from '../base/inert';

/** Every word the page shows, localized by the extension (the page holds no text of its own). */
export interface ActivityStrings {
  /** The page's heading (also the panel's title). */
  heading: string;
  /** Accessible name of the Hour / Day / Week buttons' group. */
  rangeGroup: string;
  /** The buttons' labels. */
  ranges: Record<ActivityRange, string>;
  /** What the chart and the table show, per range: the chart's accessible name and the table's caption. */
  captions: Record<ActivityRange, string>;
  /** Describes the chart to a screen reader and points to the table. */
  chartHint: string;
  showTable: string;
  hideTable: string;
  /** Header of the table's first column. */
  time: string;
  /** Header of the table's last column. */
  total: string;
  /** Shown instead of the chart when nothing was recorded in the range. */
  empty: string;
  /** The y axis' label. */
  yAxis: string;
}

export type PanelMessage =
  | { type: 'init'; strings: ActivityStrings; locale: string; series: ActivitySeries }
  | { type: 'series'; series: ActivitySeries }
  | { type: 'error'; message: string };

export interface RenderReport {
  type: 'rendered';
  range: ActivityRange;
  /** Series drawn (flows). */
  flows: number;
  /** Time buckets drawn (rows of the table). */
  buckets: number;
  /** Whether a chart was drawn (false: the "no activity" sentence). */
  chart: boolean;
  /** Content Security Policy violations the page has seen so far ("directive blocked-uri"); expected empty. */
  violations: string[];
}

export type PageMessage = { type: 'ready' } | { type: 'range'; range: ActivityRange } | RenderReport;

/** Most flows and buckets the page is sent; more is cut (the newest buckets are kept). */
export const MAX_FLOWS = 24;
export const MAX_BUCKETS = 2_000;
/** Longest flow name shown. */
export const MAX_FLOW_NAME = 80;
/** Longest sentence of when nobody watched (team History). */
const MAX_UNWATCHED = 600;
/** Unwatched stretches shaded at most. */
const MAX_GAPS = 50;

/**
 * A message from the page, checked field by field (a webview is a web page: what it posts is not trusted to have
 * any shape). Undefined for anything else.
 */
export function parsePageMessage(data: unknown): PageMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const m = data as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'range':
      return isActivityRange(m.range) ? { type: 'range', range: m.range } : undefined;
    case 'rendered': {
      if (!isActivityRange(m.range)) return undefined;
      const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
      const violations = Array.isArray(m.violations) ? m.violations.slice(0, 20).map((v) => inert(v, 200)) : [];
      return {
        type: 'rendered',
        range: m.range,
        flows: count(m.flows),
        buckets: count(m.buckets),
        chart: m.chart === true,
        violations,
      };
    }
    default:
      return undefined;
  }
}

/**
 * The series as the page gets it: buckets with a finite time, ascending and distinct (the newest MAX_BUCKETS), each
 * flow's counts aligned with them (missing, negative or non-finite counts are 0), at most MAX_FLOWS flows, names made
 * inert (one line, no control or bidi characters, at most MAX_FLOW_NAME characters; `unnamed` when that leaves
 * nothing), the sentence of when nobody watched inert and bounded. `range` is the range asked for, whatever the series
 * says.
 */
export function normalizeSeries(
  series: ActivitySeries | undefined,
  range: ActivityRange,
  unnamed = '?',
): ActivitySeries {
  const times = Array.isArray(series?.times) ? series.times : [];
  const order = times
    .map((time, index) => ({ time, index }))
    .filter((b) => typeof b.time === 'number' && Number.isFinite(b.time))
    .sort((a, b) => a.time - b.time || a.index - b.index)
    .filter((b, i, all) => i === 0 || b.time !== all[i - 1].time)
    .slice(-MAX_BUCKETS);
  const flows = (Array.isArray(series?.flows) ? series.flows : []).slice(0, MAX_FLOWS).map((flow) => {
    const counts = Array.isArray(flow?.counts) ? flow.counts : [];
    const value = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
    return {
      name: inert(flow?.name ?? '', MAX_FLOW_NAME) || unnamed,
      counts: order.map((b) => value(counts[b.index])),
      ...(flow?.other === true ? { other: true } : {}),
    };
  });
  const unwatched = typeof series?.unwatched === 'string' ? inert(series.unwatched, MAX_UNWATCHED) : '';
  const gaps = (Array.isArray(series?.gaps) ? series.gaps : [])
    .filter((g) => Array.isArray(g) && Number.isFinite(g[0]) && Number.isFinite(g[1]) && g[0] < g[1])
    .filter((_, i) => i < MAX_GAPS)
    .map(([from, to]): [number, number] => [from, to]);
  return {
    range,
    times: order.map((b) => b.time),
    flows,
    ...(unwatched ? { unwatched } : {}),
    ...(gaps.length ? { gaps } : {}),
  };
}

/** Whether anything was recorded: at least one bucket with a count above 0. */
export function hasActivity(series: ActivitySeries): boolean {
  return series.flows.some((flow) => flow.counts.some((c) => c > 0));
}
