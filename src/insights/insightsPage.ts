/**
 * Show Flow Insights (issue #31), what its page shows: per flow (and with several services, the same flow side by side
 * per service, matched by name) runs, median, p95 and p99 over the History kept, runs per day and in the last 24
 * hours, slower than usual in words, and each flow's daily trend and runs per hour. Pure: the numbers come from
 * src/history/insights.ts; this makes them the page's text (localized, flow names inert and bounded). The page
 * (src/insights/webview/insights.ts) sets every text as text, never as markup.
 *
 *   page → extension  { type: 'ready' }                  the script runs: send the whole page (again after a reload,
 *                                                         or when an update could not be applied)
 *   extension → page  { type: 'insights', … }            the words and the rows: the whole page, then what changed
 *                                                         (insightsState.ts; InsightsFeed in insightsUpdates.ts)
 *   page → extension  { type: 'rendered', … }            drawn: rows and Content Security Policy violations
 */
import { inert } from '../base/inert';
import { t } from '../base/l10n';
import { SLOWER_FACTOR, SLOWER_MIN_RUNS, type FlowInsight } from '../history/insights';
import { span } from '../history/texts';
import {
  insightsGroups,
  type InsightsGroup,
  type InsightsPart,
  type InsightsPartRow,
  type InsightsStrings,
  type InsightsUpdate,
} from './insightsState';

/** Most flows a page lists per service (the busiest), and longest flow name shown. */
const MAX_PAGE_FLOWS = 200;
const MAX_PAGE_NAME = 80;

export interface InsightsPage {
  strings: InsightsStrings;
  several: boolean;
  groups: InsightsGroup[];
  /** Flows slower than usual (for the page's summary line and tests). */
  slower: number;
}

export type InsightsPanelMessage = InsightsUpdate;
interface InsightsRenderReport {
  type: 'rendered';
  rows: number;
  violations: string[];
}
export type InsightsPageMessage = { type: 'ready' } | InsightsRenderReport;

/** A message from the page, checked field by field (a webview is a web page: its messages are not trusted). */
export function parseInsightsMessage(data: unknown): InsightsPageMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const m = data as Record<string, unknown>;
  if (m.type === 'ready') return { type: 'ready' };
  if (m.type !== 'rendered') return undefined;
  const rows = typeof m.rows === 'number' && Number.isInteger(m.rows) && m.rows >= 0 ? m.rows : 0;
  const violations = Array.isArray(m.violations) ? m.violations.slice(0, 20).map((v) => inert(v, 200)) : [];
  return { type: 'rendered', rows, violations };
}

export function insightsStrings(historyDays: number): InsightsStrings {
  return {
    heading: t('Flow Insights'),
    intro: t(
      "Durations of the flow syncs this VS Code saw leave processing over the last {0} days, from the service's start to when they were no longer listed. A flow is slower than usual when the median of its last 24 hours is at least {1} times its median over the days before ({2} runs each at least).",
      historyDays,
      SLOWER_FACTOR,
      SLOWER_MIN_RUNS,
    ),
    caption: t('Flows: runs and durations'),
    flow: t('Flow'),
    service: t('Service'),
    runs: t('Runs'),
    median: t('Median'),
    p95: t('p95'),
    p99: t('p99'),
    perDay: t('Runs per day'),
    last24: t('Last 24 hours'),
    usual: t('Compared with usual'),
    trendSummary: t('Daily trend and runs per hour'),
    trendCaption: t('Daily median and p95'),
    day: t('Day'),
    perHourCaption: t('Runs finished per hour, last 24 hours'),
    hour: t('Hour'),
    empty: t('No flow sync has left processing yet, so there is nothing to compare.'),
    unnamed: t('(unnamed flow)'),
  };
}

/**
 * The page: `services` each with its flows (flowInsights); with several, the same flow side by side per service.
 * `hourLabel` names an hour (the page's locale; a test passes a fixed one); `now` the hour the last one ends. The
 * panel posts the same as parts (insightsPart, through InsightsFeed) and the page groups them alike (insightsGroups).
 */
export function insightsPage(
  services: ReadonlyArray<{ readonly service: string; readonly flows: readonly FlowInsight[] }>,
  several: boolean,
  historyDays: number,
  now: number,
  hourLabel: (endMs: number) => string = isoHourLabel,
): InsightsPage {
  const labels = hourLabels(now, hourLabel);
  const keys = services.map((_, i) => String(i));
  const parts: Record<string, InsightsPart> = {};
  services.forEach((s, i) => {
    parts[keys[i]] = insightsPart(s.flows, several ? inert(s.service, 60) : undefined, (f) => partRow(f, labels));
  });
  const strings = insightsStrings(historyDays);
  return { strings, several, ...insightsGroups({ seq: 0, strings, several, services: keys, parts }) };
}

/** An hour's label as plain Node gives it (UTC, hh:mm). */
const isoHourLabel = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** The labels of the last 24 hours, oldest first: the hours end on the hour, the last one at the hour `now` is in. */
export function hourLabels(now: number, hourLabel: (endMs: number) => string = isoHourLabel): string[] {
  const hourEnd = Math.floor(now / 3_600_000) * 3_600_000;
  return Array.from({ length: 24 }, (_, i) => hourLabel(hourEnd - (23 - i) * 3_600_000));
}

/**
 * A service's part of the page: its busiest MAX_PAGE_FLOWS flows' rows, keyed by flow id, and its name (several
 * services). `row` makes a flow's row (partRow; the panel keeps them made).
 */
export function insightsPart(
  flows: readonly FlowInsight[],
  service: string | undefined,
  row: (f: FlowInsight) => InsightsPartRow,
): InsightsPart {
  const keys: string[] = [];
  const rows: Record<string, InsightsPartRow> = {};
  for (let i = 0; i < flows.length && i < MAX_PAGE_FLOWS; i++) {
    const f = flows[i];
    const key = String(f.flowId);
    keys.push(key);
    rows[key] = row(f);
  }
  return service === undefined ? { flows: keys, rows } : { service, flows: keys, rows };
}

/** A flow's row: its numbers as text, its group's key, the last 24 hours under `labels` (hourLabels). */
export function partRow(f: FlowInsight, labels: readonly string[]): InsightsPartRow {
  const activeDays = f.days.filter((d) => d.runs > 0).length;
  const last24 = f.perHour.reduce((n, c) => n + c, 0);
  return {
    flow: inert(f.label, MAX_PAGE_NAME),
    group: f.label.toLocaleLowerCase('en'),
    runs: String(f.runs),
    median: duration(f.medianMs),
    p95: duration(f.p95Ms),
    p99: duration(f.p99Ms),
    perDay: activeDays ? (f.runs / activeDays).toFixed(1) : '0',
    last24: String(last24),
    usual: usualText(f),
    slower: f.slower,
    days: f.days.map((d) => ({
      day: d.day,
      runs: String(d.runs),
      median: duration(d.medianMs),
      p95: duration(d.p95Ms),
    })),
    perHour: f.perHour.map((n, i) => [labels[i], String(n)]),
  };
}

/** Slower than usual, in words (never an icon alone). */
export function usualText(f: Pick<FlowInsight, 'slower' | 'recent' | 'before'>): string {
  if (f.slower) {
    return t(
      'Slower than usual: median {0} in the last 24 hours, {1} before',
      span(f.recent.medianMs),
      span(f.before.medianMs),
    );
  }
  if (f.recent.runs < SLOWER_MIN_RUNS || f.before.runs < SLOWER_MIN_RUNS) return t('Too few runs to compare');
  return t('As usual');
}

function duration(ms: number): string {
  return Number.isFinite(ms) ? span(ms) : '–';
}
