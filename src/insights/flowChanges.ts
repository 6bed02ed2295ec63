import type { HistoryEntry } from '../history/entry';
import type { FlowInsight, flowInsights } from '../history/insights';
import type { OlderDays } from '../history/summary';

/*
 * A service's flows after its History changed, computed again for the flows whose runs changed alone (Flow Insights,
 * issue #49 item 10). History replaces its runs with a new array on every change, most often the old one with runs
 * that left since at the top and the oldest gone at the bottom (a poll's departures, the cap, the days kept); a
 * flow's figures (flowInsights) read its own runs and summaries only, so the flows none of those runs belong to keep
 * theirs. Pure.
 */

/** How far into the new runs the first old one is looked for: more new runs than this compute the service anew. */
const MOST_NEW_RUNS = 10_000;

/**
 * The flows whose runs differ between `before` and `after` when `after` is `before` with runs added at the top and at
 * the bottom, or some of its last ones gone (each run the same object); undefined when it is anything else.
 */
export function changedFlows(before: readonly HistoryEntry[], after: readonly HistoryEntry[]): Set<number> | undefined {
  const flows = new Set<number>();
  const first = before.length === 0 ? after.length : after.indexOf(before[0]);
  if (first === -1 || first > MOST_NEW_RUNS) return undefined;
  for (let i = 0; i < first; i++) flows.add(after[i].flowId);
  const kept = Math.min(before.length, after.length - first);
  for (let j = 0; j < kept; j++) if (after[first + j] !== before[j]) return undefined;
  for (let j = kept; j < before.length; j++) flows.add(before[j].flowId);
  for (let i = first + kept; i < after.length; i++) flows.add(after[i].flowId);
  return flows;
}

/**
 * `flows` (flowInsights of an earlier History with the same `older`) with the flows of `changed` computed again from
 * `entries` at `now`, in flowInsights' order (most runs first). Each flow is computed with its own runs (in their
 * order) and summaries: what flowInsights gives for it.
 */
export function withFlowsChanged(
  flows: readonly FlowInsight[],
  changed: ReadonlySet<number>,
  entries: readonly HistoryEntry[],
  older: OlderDays,
  now: number,
  compute: typeof flowInsights,
): FlowInsight[] {
  const runs = new Map<number, HistoryEntry[]>();
  for (const flowId of changed) runs.set(flowId, []);
  for (const e of entries) runs.get(e.flowId)?.push(e);
  const summaries = summariesByFlow(older);
  const result = flows.filter((f) => !changed.has(f.flowId));
  for (const [flowId, own] of runs) result.push(...compute(own, summaries.get(flowId) ?? { ...older, days: [] }, now));
  return result.sort((a, b) => b.runs - a.runs || a.flowId - b.flowId);
}

/** Each flow's older days: the same days, with that flow's summary alone (made once per OlderDays). */
function summariesByFlow(older: OlderDays): Map<number, OlderDays> {
  let byFlow = SUMMARIES.get(older);
  if (!byFlow) {
    const days = new Map<number, Array<OlderDays['days'][number]>>();
    for (const day of older.days) {
      for (const flow of day.flows) {
        let own = days.get(flow.flowId);
        if (!own) days.set(flow.flowId, (own = []));
        own.push({ ...day, flows: [flow] });
      }
    }
    byFlow = new Map([...days].map(([flowId, own]) => [flowId, { before: older.before, days: own }]));
    SUMMARIES.set(older, byFlow);
  }
  return byFlow;
}

const SUMMARIES = new WeakMap<OlderDays, Map<number, OlderDays>>();
