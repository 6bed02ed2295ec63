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

/** A flow's lane as it is gathered: its newest name and when it was sent, its runs. */
interface Flow {
  readonly flowId: number;
  name: string;
  nameAt: number;
  runs: number;
  lane: number;
}

/**
 * The timeline of one service: one lane per flow (the pinned flows first, in the order pinned, then the busiest: most
 * runs, then by name), at most MAX_LANES lanes (the runs of further flows are counted, not sent); one run per History
 * entry the filter keeps, from its plausible start (created_at where it can be true, else when first seen: flagged) to
 * when it was seen gone (`end`), last seen processing at `lastSeen` (the end lies between the two); and one per sync
 * processing now, from its plausible start to now (end -1), stuck or with errors flagged. Runs are ordered by lane, then
 * start. `service` and `services` name the service shown and the picker's choices. Pure. Every run is read into typed
 * columns first (no object per run: at 50,000 runs beside 20 services' History, allocation is most of the cost).
 */
export function timelineData(
  source: TimelineSource,
  now: number,
  service: string,
  services: readonly string[],
): TimelineData {
  const read = readRuns(source, now);
  const pinOrder = new Map(source.pinned.map((flowId, i) => [flowId, i]));
  const ranked = [...read.flows].sort((a, b) => {
    const pa = pinOrder.get(a.flowId) ?? Infinity;
    const pb = pinOrder.get(b.flowId) ?? Infinity;
    if (pa !== pb) return pa - pb;
    return b.runs - a.runs || a.name.localeCompare(b.name) || a.flowId - b.flowId;
  });
  const shown = ranked.slice(0, MAX_LANES);
  shown.forEach((flow, lane) => (flow.lane = lane));
  const lanes: TimelineLane[] = shown.map((flow) => ({
    name: inert(flow.name, 120) || entryFlowLabel({ flowId: flow.flowId, flowName: '' }),
    pinned: pinOrder.has(flow.flowId),
  }));
  const { runs, laneOfRun } = byLane(read, shown.length);
  const column = (values: Float64Array | Uint8Array | Int32Array) => runs.map((run) => values[run]);
  return {
    service,
    services,
    lanes,
    runs: {
      id: column(read.id),
      lane: column(laneOfRun),
      start: column(read.start),
      lastSeen: column(read.lastSeen),
      end: column(read.end),
      flags: column(read.flags),
    },
    now,
    filter: source.filterText ?? '',
    moreFlows: ranked.length - shown.length,
  };
}

/** The runs the filter keeps, read into columns (`n` of them), each with its flow's place in `flows`. */
interface ReadRuns {
  readonly n: number;
  readonly flows: Flow[];
  readonly flowOf: Int32Array;
  readonly id: Float64Array;
  readonly start: Float64Array;
  readonly lastSeen: Float64Array;
  readonly end: Float64Array;
  readonly flags: Uint8Array;
}

function readRuns(source: TimelineSource, now: number): ReadRuns {
  const total = source.entries.length + source.processing.length;
  const r = {
    n: 0,
    flows: [] as Flow[],
    flowOf: new Int32Array(total),
    id: new Float64Array(total),
    start: new Float64Array(total),
    lastSeen: new Float64Array(total),
    end: new Float64Array(total),
    flags: new Uint8Array(total),
  };
  const places = new Map<number, number>(); // flow id -> its place in r.flows
  /** The flow's place (made on its first run), its newest name kept. */
  const flowFor = (flowId: number, name: string, at: number): number => {
    let place = places.get(flowId);
    if (place === undefined) {
      place = r.flows.push({ flowId, name, nameAt: at, runs: 0, lane: -1 }) - 1;
      places.set(flowId, place);
    }
    const flow = r.flows[place];
    if (at > flow.nameAt) {
      flow.name = name; // the newest name the service sent
      flow.nameAt = at;
    }
    flow.runs++;
    return place;
  };
  for (const e of source.entries) {
    if (source.keep && !source.keep(e)) continue;
    const n = r.n++;
    r.flowOf[n] = flowFor(e.flowId, e.flowName || entryFlowLabel(e), e.leftAt);
    r.id[n] = e.id;
    r.start[n] = e.duration.startMs;
    r.lastSeen[n] = Math.max(e.duration.startMs, e.lastSeen);
    r.end[n] = Math.max(r.lastSeen[n], e.leftAt);
    r.flags[n] = (e.hadErrors ? RUN_FLAG.errors : 0) | (e.duration.from === 'firstSeen' ? RUN_FLAG.firstSeen : 0);
  }
  for (const p of source.processing) {
    if (source.keep && !source.keep(processingEntry(p, now))) continue;
    const begun = plausibleStart(p.createdAt, p.firstSeen, now);
    const n = r.n++;
    r.flowOf[n] = flowFor(p.flowId, p.flowName || entryFlowLabel({ flowId: p.flowId, flowName: '' }), now);
    r.id[n] = p.id;
    r.start[n] = Math.min(begun.ms, now);
    r.lastSeen[n] = now;
    r.end[n] = -1;
    r.flags[n] =
      (p.hadErrors ? RUN_FLAG.errors : 0) |
      (p.stuck ? RUN_FLAG.stuck : 0) |
      (begun.from === 'firstSeen' ? RUN_FLAG.firstSeen : 0);
  }
  return r;
}

/** The runs of the lanes shown (their flows' `lane` set), by lane (counted into place), then start, then id. */
function byLane(read: ReadRuns, laneCount: number): { runs: number[]; laneOfRun: Int32Array } {
  const { n, start, id } = read;
  const laneOfRun = new Int32Array(n);
  const from = new Int32Array(laneCount + 1);
  for (let run = 0; run < n; run++) {
    const lane = read.flows[read.flowOf[run]].lane;
    laneOfRun[run] = lane;
    if (lane >= 0) from[lane + 1]++;
  }
  for (let lane = 0; lane < laneCount; lane++) from[lane + 1] += from[lane];
  const order = new Uint32Array(from[laneCount]);
  const next = Int32Array.from(from.subarray(0, laneCount));
  for (let run = 0; run < n; run++) if (laneOfRun[run] >= 0) order[next[laneOfRun[run]]++] = run;
  for (let lane = 0; lane < laneCount; lane++) {
    order.subarray(from[lane], from[lane + 1]).sort((a, b) => start[a] - start[b] || id[a] - id[b]);
  }
  return { runs: Array.from(order), laneOfRun };
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
