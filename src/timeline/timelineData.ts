import { inert } from '../base/inert';
import { plausibleStart } from '../base/plausibleTime';
import { entryFlowLabel, makeEntry, type HistoryEntry } from '../history/entry';
import { MAX_LANES, RUN_FLAG, type TimelineData, type TimelineLane } from './timelineMessages';

/** A run processing now, as the timeline reads it (History's tracked syncs). */
export interface ProcessingRun {
  readonly id: number;
  readonly flowId: number;
  readonly flowName: string;
  readonly createdAt: string;
  readonly firstSeen: number;
  readonly hadErrors: boolean;
  readonly stuck: boolean;
}

/** What the timeline is drawn from: one service's History, as held in memory (never the service). */
export interface TimelineSource {
  /** History's runs (any order). */
  readonly entries: readonly HistoryEntry[];
  readonly processing: readonly ProcessingRun[];
  /** The pinned flows, in the order pinned. */
  readonly pinned: readonly number[];
  /** History's filter as a test of a run (undefined: no filter), and its text. */
  readonly keep?: (entry: HistoryEntry) => boolean;
  readonly filterText?: string;
}

interface Run {
  readonly id: number;
  readonly lane: number;
  readonly start: number;
  readonly lastSeen: number;
  readonly end: number;
  readonly flags: number;
}

/**
 * The timeline of one service: one lane per flow (the pinned flows first, in the order pinned, then the busiest: most
 * runs, then by name), at most MAX_LANES lanes (the runs of further flows are counted, not sent); one run per History
 * entry the filter keeps, from its plausible start (created_at where it can be true, else when first seen: flagged) to
 * when it was seen gone (`end`), last seen processing at `lastSeen` (the end lies between the two); and one per sync
 * processing now, from its plausible start to now (end -1), stuck or with errors flagged. Runs are ordered by lane, then
 * start. `service` and `services` name the service shown and the picker's choices. Pure.
 */
export function timelineData(
  source: TimelineSource,
  now: number,
  service: string,
  services: readonly string[],
): TimelineData {
  const flows = new Map<number, { name: string; runs: Run[]; nameAt: number }>();
  const add = (flowId: number, name: string, at: number, run: Omit<Run, 'lane'>) => {
    let flow = flows.get(flowId);
    if (!flow) flows.set(flowId, (flow = { name, runs: [], nameAt: at }));
    else if (at > flow.nameAt) {
      flow.name = name; // the newest name the service sent
      flow.nameAt = at;
    }
    flow.runs.push({ ...run, lane: 0 });
  };
  for (const e of source.entries) {
    if (source.keep && !source.keep(e)) continue;
    const start = e.duration.startMs;
    const flags = (e.hadErrors ? RUN_FLAG.errors : 0) | (e.duration.from === 'firstSeen' ? RUN_FLAG.firstSeen : 0);
    const lastSeen = Math.max(start, e.lastSeen);
    add(e.flowId, entryFlowLabel(e), e.leftAt, { id: e.id, start, lastSeen, end: Math.max(lastSeen, e.leftAt), flags });
  }
  for (const p of source.processing) {
    if (source.keep && !source.keep(processingEntry(p, now))) continue;
    const begun = plausibleStart(p.createdAt, p.firstSeen, now);
    const flags =
      (p.hadErrors ? RUN_FLAG.errors : 0) |
      (p.stuck ? RUN_FLAG.stuck : 0) |
      (begun.from === 'firstSeen' ? RUN_FLAG.firstSeen : 0);
    const name = p.flowName || entryFlowLabel({ flowId: p.flowId, flowName: '' });
    add(p.flowId, name, now, { id: p.id, start: Math.min(begun.ms, now), lastSeen: now, end: -1, flags });
  }
  const pinOrder = new Map(source.pinned.map((id, i) => [id, i]));
  const order = [...flows.entries()].sort(([a, fa], [b, fb]) => {
    const pa = pinOrder.get(a) ?? Infinity;
    const pb = pinOrder.get(b) ?? Infinity;
    if (pa !== pb) return pa - pb;
    return fb.runs.length - fa.runs.length || fa.name.localeCompare(fb.name) || a - b;
  });
  const shown = order.slice(0, MAX_LANES);
  const lanes: TimelineLane[] = [];
  const columns = { id: [] as number[], lane: [] as number[], start: [] as number[], lastSeen: [] as number[] };
  const end: number[] = [];
  const flagsOf: number[] = [];
  shown.forEach(([flowId, flow], lane) => {
    lanes.push({
      name: inert(flow.name, 120) || entryFlowLabel({ flowId, flowName: '' }),
      pinned: pinOrder.has(flowId),
    });
    flow.runs.sort((a, b) => a.start - b.start || a.id - b.id);
    for (const run of flow.runs) {
      columns.id.push(run.id);
      columns.lane.push(lane);
      columns.start.push(run.start);
      columns.lastSeen.push(run.lastSeen);
      end.push(run.end);
      flagsOf.push(run.flags);
    }
  });
  return {
    service,
    services,
    lanes,
    runs: { ...columns, end, flags: flagsOf },
    now,
    filter: source.filterText ?? '',
    moreFlows: order.length - shown.length,
  };
}

/** A processing run as History's filter sees it: a run last seen now (its flags, its time so far). */
function processingEntry(p: ProcessingRun, now: number): HistoryEntry {
  return makeEntry({
    id: p.id,
    flowId: p.flowId,
    flowName: p.flowName,
    createdAt: p.createdAt,
    firstSeen: p.firstSeen,
    lastSeen: now,
    leftAt: now,
    raw: undefined,
    hadErrors: p.hadErrors,
  });
}
