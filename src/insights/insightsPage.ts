/**
 * Show Flow Insights (issue #31), what its page shows: per flow (and with several services, the same flow side by side
 * per service, matched by name) runs, median, p95 and p99 over the History kept, runs per day and in the last 24
 * hours, slower than usual in words, and each flow's daily trend and runs per hour. Pure: the numbers come from
 * src/history/insights.ts; this makes them the page's text (localized, flow names inert and bounded). The page
 * (src/insights/webview/insights.ts) sets every text as text, never as markup.
 *
 *   page → extension  { type: 'ready' }                  the script runs: send the page (again after a reload)
 *   extension → page  { type: 'page', page }             the words and the rows
 *   page → extension  { type: 'rendered', … }            drawn: rows and Content Security Policy violations
 */
import { inert } from '../base/inert';
import { t } from '../base/l10n';
import { SLOWER_FACTOR, SLOWER_MIN_RUNS, acrossServices, type FlowInsight } from '../history/insights';
import { span } from '../history/texts';

/** Most flows a page lists per service (the busiest), and longest flow name shown. */
const MAX_PAGE_FLOWS = 200;
const MAX_PAGE_NAME = 80;

/** The columns of a flow's row, each a text: a row's values, and in the page's strings their headings. */
interface InsightsColumns {
  flow: string;
  runs: string;
  median: string;
  p95: string;
  p99: string;
  perDay: string;
  last24: string;
  /** In a row: "Slower than usual: …" in words, or "As usual" / "Too few runs to tell". */
  usual: string;
}

interface InsightsStrings extends InsightsColumns {
  heading: string;
  /** The sentence under the heading: what the numbers are over, and the rule of "slower than usual". */
  intro: string;
  caption: string;
  service: string;
  trendSummary: string;
  trendCaption: string;
  day: string;
  perHourCaption: string;
  hour: string;
  empty: string;
}

interface InsightsDay {
  day: string;
  runs: string;
  median: string;
  p95: string;
}

export interface InsightsRow extends InsightsColumns {
  /** The service's name (several services). */
  service?: string;
  slower: boolean;
  days: InsightsDay[];
  /** Runs finished in each of the last 24 hours, oldest first: [hour label, runs]. */
  perHour: Array<[string, string]>;
}

/** A flow and its rows: one row, or one per service that has it (side by side). */
export interface InsightsGroup {
  flow: string;
  rows: InsightsRow[];
}

export interface InsightsPage {
  strings: InsightsStrings;
  several: boolean;
  groups: InsightsGroup[];
  /** Flows slower than usual (for the page's summary line and tests). */
  slower: number;
}

export type InsightsPanelMessage = { type: 'page'; page: InsightsPage };
export interface InsightsRenderReport {
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

function insightsStrings(historyDays: number): InsightsStrings {
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
  };
}

/**
 * The page: `services` each with its flows (flowInsights); with several, the same flow side by side per service.
 * `hourLabel` names an hour (the page's locale; a test passes a fixed one); `now` the hour the last one ends.
 */
export function insightsPage(
  services: ReadonlyArray<{ readonly service: string; readonly flows: readonly FlowInsight[] }>,
  several: boolean,
  historyDays: number,
  now: number,
  hourLabel: (endMs: number) => string = (ms) => new Date(ms).toISOString().slice(11, 16),
): InsightsPage {
  const bounded = services.map((s) => ({ service: s.service, flows: s.flows.slice(0, MAX_PAGE_FLOWS) }));
  const groups: InsightsGroup[] = acrossServices(bounded).map((g) => ({
    flow: inert(g.label, MAX_PAGE_NAME) || t('(unnamed flow)'),
    rows: g.services.map(({ service, insight }) =>
      pageRow(insight, several ? inert(service, 60) : undefined, now, hourLabel),
    ),
  }));
  const slower = groups.reduce((n, g) => n + g.rows.filter((r) => r.slower).length, 0);
  return { strings: insightsStrings(historyDays), several, groups, slower };
}

function pageRow(
  f: FlowInsight,
  service: string | undefined,
  now: number,
  hourLabel: (endMs: number) => string,
): InsightsRow {
  const activeDays = f.days.filter((d) => d.runs > 0).length;
  const last24 = f.perHour.reduce((n, c) => n + c, 0);
  const hourEnd = Math.floor(now / 3_600_000) * 3_600_000;
  return {
    flow: inert(f.label, MAX_PAGE_NAME),
    ...(service !== undefined ? { service } : {}),
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
    perHour: f.perHour.map((n, i) => [hourLabel(hourEnd - (23 - i) * 3_600_000), String(n)]),
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
