/**
 * The messages between the Run Timeline panel (extension host, src/timeline/vscode/timelinePanel.ts) and its page (the
 * webview, src/timeline/webview/timeline.ts), and the page's kept state. Pure: no vscode, no DOM; both sides import it.
 *
 *   page → extension  { type: 'ready' }                    the script runs: send everything (again after a reload)
 *   extension → page  { type: 'timeline', strings, … }     the words, the services, the runs of the service shown
 *   page → extension  { type: 'service', service }         the service picker changed
 *   page → extension  { type: 'run', action, id, service } a bar chosen: reveal in History, Open as JSON, in Browser
 *   page → extension  { type: 'rendered', … }              drawn (what, and any Content Security Policy violation)
 *
 * Flow and service names are service text: they travel as data and the page sets them as text only (never as HTML).
 */
import { inert } from '../base/inert';
import type { TimelineStrings } from './timelineStrings';

/** The runs of one service, as columns (one entry per run, ordered by lane, then start). Times in ms since the epoch. */
export interface TimelineRuns {
  readonly id: number[];
  readonly lane: number[];
  readonly start: number[];
  /** When last seen processing (a processing run: now). */
  readonly lastSeen: number[];
  /** When seen gone (the end is between lastSeen and it); a processing run: -1. */
  readonly end: number[];
  /** RUN_FLAG bits. */
  readonly flags: number[];
}

export const RUN_FLAG = { errors: 1, stuck: 2, firstSeen: 4 } as const;

export interface TimelineLane {
  readonly name: string;
  readonly pinned: boolean;
}

export interface TimelineData {
  /** The service shown ('' with one service), and every service's name (the picker: shown with two or more). */
  readonly service: string;
  readonly services: readonly string[];
  readonly lanes: readonly TimelineLane[];
  readonly runs: TimelineRuns;
  /** The time of the data (the right edge of "now"). */
  readonly now: number;
  /** The History filter applied (its text), '' when none. */
  readonly filter: string;
  /** Flows not given a lane (beyond MAX_LANES), and their runs. */
  readonly moreFlows: number;
}

/** What the page keeps across hiding and reloads (vscode.setState), and the serializer hands back: checked. */
export interface TimelineState {
  readonly service?: string;
  /** The visible window: its start and its span (ms). */
  readonly start?: number;
  readonly span?: number;
  /** The first lane shown (vertical scroll). */
  readonly scroll?: number;
  readonly table?: boolean;
}

export type TimelinePanelMessage = {
  type: 'timeline';
  strings: TimelineStrings;
  locale: string;
  data: TimelineData;
  /** The state a restored panel came back with (checked): the page starts from it when it keeps none of its own. */
  restored?: TimelineState;
};

export type RunAction = 'reveal' | 'json' | 'browser';

interface TimelineRenderReport {
  type: 'rendered';
  /** Bars drawn, lanes shown, rows of the table. */
  bars: number;
  lanes: number;
  rows: number;
  violations: string[];
}

export type TimelinePageMessage =
  | { type: 'ready' }
  | { type: 'service'; service: string }
  | { type: 'run'; action: RunAction; id: number; end: number }
  | TimelineRenderReport;

/** The longest service name the page sends back (the settings' own bound is lower). */
const MAX_SERVICE = 200;
const ACTIONS: readonly RunAction[] = ['reveal', 'json', 'browser'];

/** A message from the page, checked field by field (a webview is a web page: nothing it posts is trusted). */
export function parseTimelineMessage(data: unknown): TimelinePageMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const m = data as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'service':
      return typeof m.service === 'string' && m.service.length <= MAX_SERVICE
        ? { type: 'service', service: m.service }
        : undefined;
    case 'run':
      return ACTIONS.includes(m.action as RunAction) &&
        Number.isSafeInteger(m.id) &&
        typeof m.end === 'number' &&
        Number.isFinite(m.end)
        ? { type: 'run', action: m.action as RunAction, id: m.id as number, end: m.end }
        : undefined;
    case 'rendered': {
      const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);
      const violations = Array.isArray(m.violations) ? m.violations.slice(0, 20).map((v) => inert(v, 200)) : [];
      return { type: 'rendered', bars: count(m.bars), lanes: count(m.lanes), rows: count(m.rows), violations };
    }
    default:
      return undefined;
  }
}

const HOUR_MS = 3_600_000;
/** The narrowest and the widest window: one hour to 90 days (History keeps at most 90 days). */
export const MIN_SPAN_MS = HOUR_MS;
export const MAX_SPAN_MS = 90 * 24 * HOUR_MS;
/** The most lanes (flows) a timeline has; more flows are counted, not drawn. */
export const MAX_LANES = 500;

/**
 * The page's state as it came back (the serializer's, from a page: not trusted): each field kept only when it has the
 * right type and lies within its bounds (the span between MIN_SPAN_MS and MAX_SPAN_MS, the start a time after 2000 and
 * before `now` plus a day, the scroll a lane index); anything else is dropped, and a value that is no object is {}.
 */
export function parseTimelineState(value: unknown, now: number): TimelineState {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const v = value as Record<string, unknown>;
  const state: { -readonly [K in keyof TimelineState]: TimelineState[K] } = {};
  if (typeof v.service === 'string' && v.service.length <= MAX_SERVICE) state.service = v.service;
  if (typeof v.span === 'number' && v.span >= MIN_SPAN_MS && v.span <= MAX_SPAN_MS) state.span = v.span;
  const earliest = Date.UTC(2000, 0, 1);
  if (typeof v.start === 'number' && v.start >= earliest && v.start <= now + 24 * HOUR_MS) state.start = v.start;
  if (Number.isInteger(v.scroll) && (v.scroll as number) >= 0 && (v.scroll as number) < MAX_LANES) {
    state.scroll = v.scroll as number;
  }
  if (typeof v.table === 'boolean') state.table = v.table;
  return state;
}
