/**
 * Flow Insights' page as data, and how it changes (issue #49 item 10): each service's part of the page (its flows'
 * rows), the panel posting a whole page when the page loads and after that only the services and flows whose rows
 * changed, and the page merging each update into what it holds. Pure: no vscode, no DOM; the panel
 * (src/insights/vscode/insightsPanel.ts through InsightsFeed) and the page (src/insights/webview/insights.ts) both
 * import it.
 *
 *   extension → page  { type: 'insights', seq, … }       the whole page (no `base`), or what changed since `base`
 */

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

export interface InsightsStrings extends InsightsColumns {
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
  /** A flow's name when the service sent none. */
  unnamed: string;
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

/** A flow's row as its service's part holds it: the row (without the service's name) and its group's key. */
export interface InsightsPartRow extends Omit<InsightsRow, 'service'> {
  /** Rows of several services are one flow, side by side, when their keys are equal (the flow's name, any case). */
  group: string;
}

/** One service's part of the page: its name (several services) and its flows' rows by key, busiest first. */
export interface InsightsPart {
  service?: string;
  /** The flows' keys in their order. */
  flows: string[];
  rows: Record<string, InsightsPartRow>;
}

/** The page as the page holds it: as of update `seq`, the words, and each service's part by key, in their order. */
export interface InsightsState {
  seq: number;
  strings: InsightsStrings;
  several: boolean;
  services: string[];
  parts: Record<string, InsightsPart>;
}

/**
 * What changed in a row: the fields that changed (a new row: all of them); of its days, when only the last ones
 * changed, those from the day at `daysFrom` on (the days before it as they were).
 */
export type InsightsRowUpdate = Partial<InsightsPartRow> & { daysFrom?: number };

/** What changed in a service's part: its name, its flows' order, the rows that changed (only what is here). */
export interface InsightsPartUpdate {
  service?: string;
  flows?: string[];
  rows?: Record<string, InsightsRowUpdate>;
}

/**
 * An update of the page, number `seq`. Without `base`: the whole page (words, services, every part whole). With
 * `base`: what changed since update `base` (the services' order when it changed, the parts that changed and of them
 * only what changed); the page applies it only on top of `base`.
 */
export interface InsightsUpdate {
  type: 'insights';
  seq: number;
  base?: number;
  strings?: InsightsStrings;
  several?: boolean;
  services?: string[];
  parts?: Record<string, InsightsPartUpdate>;
}

/**
 * The page after `update`: a whole page alone, a change merged into `state`. Undefined when the update cannot be
 * applied (a change of another state than `state`, or one that names what neither has): the page then asks for the
 * whole page again. A change gives exactly what the whole page of then gives. `state` is left as it is.
 */
export function applyInsights(state: InsightsState | undefined, update: InsightsUpdate): InsightsState | undefined {
  const base = update.base === undefined ? undefined : state;
  if (update.base !== undefined && state?.seq !== update.base) return undefined;
  const strings = update.strings ?? base?.strings;
  const several = update.several ?? base?.several;
  const services = update.services ?? base?.services;
  if (!strings || several === undefined || !services) return undefined;
  const parts: Record<string, InsightsPart> = {};
  for (const key of services) {
    const was = base && own(base.parts, key);
    const change = update.parts && own(update.parts, key);
    if (!change) {
      if (!was) return undefined;
      parts[key] = was;
      continue;
    }
    const flows = change.flows ?? was?.flows;
    if (!flows) return undefined;
    const rows: Record<string, InsightsPartRow> = {};
    for (const flow of flows) {
      const old = was && own(was.rows, flow);
      const changed = change.rows && own(change.rows, flow);
      const row = changed ? mergeRow(old, changed) : old;
      if (!row) return undefined;
      rows[flow] = row;
    }
    const service = change.service ?? was?.service;
    parts[key] = service === undefined ? { flows, rows } : { service, flows, rows };
  }
  return { seq: update.seq, strings, several, services, parts };
}

/**
 * The page's tables: each flow a group, with several services the same flow side by side (its rows in the services'
 * order; a service with two flows of one name shows the busier one), in the order flows first appear; and how many
 * rows say slower than usual.
 */
export function insightsGroups(state: InsightsState): { groups: InsightsGroup[]; slower: number } {
  const byKey = new Map<string, { group: InsightsGroup; parts: Set<string> }>();
  let slower = 0;
  for (const key of state.services) {
    const part = state.parts[key];
    for (const flow of part.flows) {
      const { group, ...row } = part.rows[flow];
      let g = byKey.get(group);
      if (!g) {
        byKey.set(group, (g = { group: { flow: row.flow || state.strings.unnamed, rows: [] }, parts: new Set() }));
      }
      if (g.parts.has(key)) continue;
      g.parts.add(key);
      g.group.rows.push(state.several ? { ...row, service: part.service ?? '' } : row);
      if (row.slower) slower++;
    }
  }
  return { groups: [...byKey.values()].map((g) => g.group), slower };
}

/** The fields every row has: a new row comes whole. */
const ROW_FIELDS: ReadonlyArray<keyof InsightsPartRow> = [
  'flow',
  'group',
  'runs',
  'median',
  'p95',
  'p99',
  'perDay',
  'last24',
  'usual',
  'slower',
  'days',
  'perHour',
];

/** `old` with `change` (undefined when it cannot be: a new row not whole, days from a day it does not have). */
function mergeRow(old: InsightsPartRow | undefined, change: InsightsRowUpdate): InsightsPartRow | undefined {
  const { daysFrom, ...fields } = change;
  if (!old) {
    if (daysFrom !== undefined || !ROW_FIELDS.every((field) => Object.hasOwn(fields, field))) return undefined;
    return fields as InsightsPartRow;
  }
  const row = { ...old, ...fields };
  if (daysFrom !== undefined) {
    if (!fields.days || daysFrom > old.days.length) return undefined;
    row.days = old.days.filter((_, i) => i < daysFrom).concat(fields.days);
  }
  return row;
}

/**
 * What changed from row `old` to `row` (undefined: nothing): the fields that differ, and of the days only those from
 * the first that differs (when any before it are the same).
 */
export function rowChange(
  old: InsightsPartRow,
  row: InsightsPartRow,
  same: (a: unknown, b: unknown) => boolean,
): InsightsRowUpdate | undefined {
  const change: InsightsRowUpdate = {};
  let changed = false;
  for (const field of ROW_FIELDS) {
    if (field === 'days' || same(old[field], row[field])) continue;
    (change as Record<string, unknown>)[field] = row[field];
    changed = true;
  }
  let from = 0;
  while (from < old.days.length && from < row.days.length && same(old.days[from], row.days[from])) from++;
  if (from < row.days.length || old.days.length !== row.days.length) {
    change.days = row.days.slice(from);
    if (from > 0) change.daysFrom = from;
    changed = true;
  }
  return changed ? change : undefined;
}

function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
