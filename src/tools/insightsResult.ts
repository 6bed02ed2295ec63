import { FilterSubjects } from '../filter/filterMatch';
import { parseFilter } from '../filter/filterQuery';
import { SLOWER_FACTOR, SLOWER_MIN_RUNS, type FlowInsight } from '../history/insights';
import { span } from '../history/texts';
import type { ExplorerStatus } from '../lists/explorer';
import { cells, computed, quote, t, type Data, type Own } from './dataBlock';
import { beginAnswer, matcher } from './answerParts';
import { inputLimit, inputRecord, inputText } from './toolInput';

/** The flowsync_insights tool's answer: per flow, its runs, durations and whether it is slower than usual. Pure. */

export interface InsightsInput {
  /** A flow's name (a part of it, any letter case) or id. */
  flow?: string;
  /** A filter in the language of src/filter: words and flow:/service:/id: terms about the flow. */
  filter?: string;
  /** Only the flows slower than usual. */
  slower: boolean;
  limit: number;
}

export function insightsInput(raw: unknown): InsightsInput {
  const o = inputRecord(raw);
  return {
    flow: inputText(o.flow),
    filter: inputText(o.filter),
    slower: o.slower === true || o.slower === 'true',
    limit: inputLimit(o.limit),
  };
}

/** What the insights tool answers from: one service's flows (src/history/insights.ts: summaries and runs in memory). */
export interface InsightsToolData {
  status: ExplorerStatus;
  detail?: string;
  hide?: string;
  historyDays: number;
  flows: readonly FlowInsight[];
  /** The service's name, with several services (see ToolSnapshot.service). */
  service?: string;
}

/** Days of the daily median trend a row lists (the newest). */
const TREND_DAYS = 7;

/**
 * The insights tool: per flow, runs, median, p95 and p99 over the History kept, runs per day and in the last 24 hours,
 * the trend of the daily median, and whether it is slower than usual; those slower than usual first, then the busiest.
 */
export function insightsResult(input: InsightsInput, h: InsightsToolData): string {
  const a = beginAnswer(
    h,
    t(
      "Flow Sync: flow insights over the last {0} days as this VS Code saw them: runs, median, p95 and p99 durations, runs per day, and whether a flow is slower than usual (the median of its last 24 hours at least {1} times its median over the days before, with at least {2} runs on each side). Durations count from the service's start of a sync to when it was no longer listed as processing.",
      h.historyDays,
      SLOWER_FACTOR,
      SLOWER_MIN_RUNS,
    ),
  );
  if (typeof a === 'string') return a;
  let flows = h.flows;
  if (input.flow !== undefined) {
    a.filter(t('flow {0}', quote(input.flow, h.hide)));
    const matches = matcher(input.flow);
    flows = flows.filter((f) => matches(f.flowId, f.label));
  }
  if (input.filter !== undefined) {
    a.filter(t('filter {0}', quote(input.filter, h.hide, 200)));
    const parsed = parseFilter(input.filter, 'history');
    if (parsed.problem !== undefined) {
      a.say(
        t(
          'The filter (the "filters" line of the data block) cannot be used: the reason is the "problem" line of the data block.',
        ),
      ).note(t('problem: {0}', quote(parsed.problem, h.hide, 300)));
      return a.text();
    }
    const service = h.service ?? '';
    const subjects = new FilterSubjects<FlowInsight>((f) => ({
      fields: { flow: [f.label], service: [service] },
      ids: { flow: [f.flowId], id: [f.flowId] },
    }));
    flows = flows.filter((f) => subjects.matches(parsed.filter, f));
  }
  if (input.slower) a.filter(t('slower than usual'));
  const slower = flows.filter((f) => f.slower);
  const matching = input.slower ? slower : flows;
  if (a.hasFilters()) {
    a.say(
      t('Filters (the "filters" line of the data block): {0} of {1} flows match.', matching.length, h.flows.length),
    );
  } else a.say(t('{0} flows in all.', h.flows.length));
  a.say(t('{0} of them are slower than usual now.', slower.length));
  if (matching.length === 0) return a.say(t('Nothing to list.')).text();
  const sorted = [...matching].sort(
    (x, y) => Number(y.slower) - Number(x.slower) || y.runs - x.runs || x.flowId - y.flowId,
  );
  const shown = sorted.slice(0, input.limit);
  a.say(t('Listed {0}, {1}.', shown.length, t('those slower than usual first, then by runs')));
  for (const f of shown) a.row(insightRow(f, h.hide));
  return a.more(matching.length - shown.length).text();
}

function insightRow(f: FlowInsight, hide: string | undefined): Data {
  const days = f.days.filter((d) => d.runs > 0).length;
  const trend = f.days
    .slice(-TREND_DAYS)
    .map((d) => (Number.isFinite(d.medianMs) ? computed(`${d.day} ${span(d.medianMs)}`) : computed(`${d.day} -`)));
  const parts: Data[] = [
    t('flow {0} (#{1})', quote(f.label, hide), f.flowId),
    t('{0} runs over {1} days', f.runs, days),
    t('median {0}', durationOrNone(f.medianMs)),
    t('p95 {0}', durationOrNone(f.p95Ms)),
    t('p99 {0}', durationOrNone(f.p99Ms)),
    t('{0} runs per day', computed(days > 0 ? (f.runs / days).toFixed(1) : '0')),
    t(
      'last 24 hours: {0} runs, median {1}',
      f.perHour.reduce((n, c) => n + c, 0),
      durationOrNone(f.recent.medianMs),
    ),
    t('the days before: median {0}', durationOrNone(f.before.medianMs)),
    f.slower ? t('slower than usual') : t('not slower than usual'),
  ];
  if (trend.length) parts.push(t('daily median, oldest first: {0}', computed(trend.join(', '))));
  return cells(parts);
}

function durationOrNone(ms: number): Own {
  return Number.isFinite(ms) ? computed(span(ms)) : t('none yet');
}
