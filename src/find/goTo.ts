import type { Connection, FlowSync, Item } from '../api/types';
import { inert } from '../base/inert';
import { serviceName } from '../base/serviceSet';
import { t } from '../base/l10n';
import { foldForSearch } from '../filter/foldText';
import type { HistoryEntry } from '../history/entry';
import { entryFlowLabel } from '../history/entry';
import { flowLabel, teamLabel } from '../lists/grouping';

/** What Go to... lists of one service: what it holds now (nothing is loaded for it). */
export interface GoToService {
  readonly id: string;
  /** Its name, with several services (shown on each row). */
  readonly name?: string;
  readonly processing: readonly Item<FlowSync>[];
  readonly connections: readonly Item<Connection>[];
  readonly history: readonly HistoryEntry[];
}

/** Where a picked row goes: an item of a list, or a run of History (by id and when it left). */
export type GoToTarget =
  | { readonly view: 'processing' | 'connections'; readonly service: string; readonly id: number }
  | { readonly view: 'history'; readonly service: string; readonly id: number; readonly leftAt: number };

export interface GoToPick {
  /** Icon and id first (typing an id finds it), then the name of a connection. */
  readonly label: string;
  /** The flow or team, and the service with several. */
  readonly description: string;
  readonly target: GoToTarget;
}

/** Longest service text on a row: enough to tell rows apart. */
const SHOWN = 80;

/** The most rows Go to... shows at once (at first, and for each text typed): what it costs is bounded by it. */
const GO_TO_ROWS = 2_000;

/** One service's rows as Go to... makes them (a row's pick is made only when it is shown). */
class ServiceRows {
  readonly suffix: string;

  constructor(
    readonly service: GoToService,
    several: boolean,
  ) {
    this.suffix = several ? ` · ${serviceName({ several }, service) ?? inert(service.id, 60)}` : '';
  }

  processing(s: FlowSync): GoToPick {
    return {
      label: `$(sync) #${s.id}`,
      description: `${inert(flowLabel(s), SHOWN)} · ${inert(s.status, 40)}${this.suffix}`,
      target: { view: 'processing', service: this.service.id, id: s.id },
    };
  }

  connection(c: Connection): GoToPick {
    return {
      label: `$(plug) #${c.id} ${inert(c.name, SHOWN)}`,
      description: `${inert(teamLabel(c), SHOWN)} · ${inert(c.type, 40)}${this.suffix}`,
      target: { view: 'connections', service: this.service.id, id: c.id },
    };
  }

  run(e: HistoryEntry): GoToPick {
    return {
      label: `$(history) #${e.id}`,
      description: `${t('left processing')} · ${inert(entryFlowLabel(e), SHOWN)}${this.suffix}`,
      target: { view: 'history', service: this.service.id, id: e.id, leftAt: e.leftAt },
    };
  }
}

function rowsOf(services: readonly GoToService[]): ServiceRows[] {
  return services.map((service) => new ServiceRows(service, services.length > 1));
}

/**
 * The rows Go to Flow Sync or Connection... shows before anything is typed: at most `max` (GO_TO_ROWS), so it costs the
 * same however much is loaded: every processing sync of every service first, then the newest History runs across the
 * services, then connections while there is room (a small setup sees everything). Service text is inert (no icon, link
 * or markup can form; the pick's own icons are ours). Pure; a row beyond `max` is never made.
 */
export function goToPicks(services: readonly GoToService[], max = GO_TO_ROWS): GoToPick[] {
  const rows = rowsOf(services);
  const picks: GoToPick[] = [];
  for (const r of rows) {
    for (const { value } of r.service.processing) {
      if (picks.length >= max) return picks;
      picks.push(r.processing(value));
    }
  }
  // The newest runs first across the services: each service's History is newest first, so the next is at a head.
  const at = rows.map(() => 0);
  while (picks.length < max) {
    let best = -1;
    for (let k = 0; k < rows.length; k++) {
      const e = rows[k].service.history[at[k]];
      if (e !== undefined && (best === -1 || e.leftAt > rows[best].service.history[at[best]].leftAt)) best = k;
    }
    if (best === -1) break;
    picks.push(rows[best].run(rows[best].service.history[at[best]++]));
  }
  for (const r of rows) {
    for (const { value } of r.service.connections) {
      if (picks.length >= max) return picks;
      picks.push(r.connection(value));
    }
  }
  return picks;
}

/**
 * Go to... as the person types: finds any loaded item by its id (`1003`, `#1003`) or by its name (a flow's, a
 * connection's or its team's; words in any order, folded as Find folds them: letter case and accents), in the order
 * of goToPicks, and makes at most `max` rows. Pure.
 *
 * What a keystroke costs is bounded by an index made once when Go to opens (GoToIndex: every item's ids and the
 * number of its folded name in flat arrays, each distinct name folded once): a text compares the distinct names with
 * its words (those that held the text before, when the text grew), then walks the arrays, numbers only, until `max`
 * are found; a text that extends the one before looks only in what that one found.
 */
export class GoToSearch {
  private readonly rows: ServiceRows[];
  private index?: GoToIndex;
  /** The last text: its words, the names that held them, and the items it found (all of them, by position). */
  private last?: {
    readonly words: readonly string[];
    readonly id?: number;
    readonly names: readonly number[];
    readonly found?: readonly number[];
  };

  constructor(
    services: readonly GoToService[],
    private readonly max = GO_TO_ROWS,
  ) {
    this.rows = rowsOf(services);
  }

  /** The rows for the text typed now: goToPicks's first rows for an empty text. */
  find(value: string): GoToPick[] {
    const text = value.trim().replace(/^#/, '');
    if (text.length === 0) {
      this.last = undefined;
      return goToPicks(
        this.rows.map((r) => r.service),
        this.max,
      );
    }
    const index = (this.index ??= new GoToIndex(this.rows));
    const words = foldForSearch(text).split(' ');
    const id = /^\d{1,15}$/.test(text) ? Number(text) : undefined;
    const grew = this.last !== undefined && extends_(words, this.last.words);
    const names = index.namesHolding(words, grew ? this.last!.names : undefined);
    const narrowed = grew && id === undefined && this.last!.id === undefined ? this.last!.found : undefined;
    const found = index.find(names, id, this.max, narrowed);
    // An answer cut after `max` (more were there) is not narrowed: the next text looks through everything again.
    this.last = { words, id, names, found: found.length <= this.max ? found : undefined };
    const picks: GoToPick[] = [];
    for (const position of found) if (picks.length < this.max) picks.push(index.pick(position));
    return picks;
  }
}

/** A run of the index: the items of one kind of one service, from `start`. */
interface Segment {
  readonly start: number;
  readonly rows: ServiceRows;
  readonly kind: 0 | 1 | 2;
  readonly items: readonly (Item<FlowSync> | HistoryEntry | Item<Connection>)[];
}

/**
 * Every item Go to can find, in goToPicks's order (processing, History, connections; service by service), as flat
 * arrays: its id, its second id (a flow's; NaN when none) and the numbers of its one or two folded names (0: none).
 */
class GoToIndex {
  private readonly segments: Segment[] = [];
  private readonly ids: Float64Array;
  private readonly flowIds: Float64Array;
  private readonly names: Int32Array;
  private readonly teams: Int32Array;
  /** The distinct names, folded; 0 is no name. */
  private readonly folded: string[] = [''];

  constructor(rows: readonly ServiceRows[]) {
    let size = 0;
    for (const kind of [0, 1, 2] as const) {
      for (const r of rows) {
        const items = kind === 0 ? r.service.processing : kind === 1 ? r.service.history : r.service.connections;
        this.segments.push({ start: size, rows: r, kind, items });
        size += items.length;
      }
    }
    this.ids = new Float64Array(size);
    this.flowIds = new Float64Array(size).fill(NaN);
    this.names = new Int32Array(size);
    this.teams = new Int32Array(size);
    const numbers = new Map<string, number>();
    const numberOf = (name: string | undefined): number => {
      if (typeof name !== 'string' || name.length === 0) return 0;
      let n = numbers.get(name);
      if (n === undefined) {
        n = this.folded.push(foldForSearch(name)) - 1;
        numbers.set(name, n);
      }
      return n;
    };
    for (const { start, kind, items } of this.segments) {
      for (let i = 0; i < items.length; i++) {
        const p = start + i;
        if (kind === 1) {
          const e = items[i] as HistoryEntry;
          this.ids[p] = e.id;
          this.flowIds[p] = e.flowId;
          this.names[p] = numberOf(e.flowName);
        } else if (kind === 0) {
          const s = (items[i] as Item<FlowSync>).value;
          this.ids[p] = s.id;
          this.flowIds[p] = s.flow_id;
          this.names[p] = numberOf(s.flow?.name);
        } else {
          const c = (items[i] as Item<Connection>).value;
          this.ids[p] = c.id;
          this.names[p] = numberOf(c.name);
          this.teams[p] = numberOf(c.team?.name);
        }
      }
    }
  }

  /** The numbers of the names that hold every word, looking only at `among` when given (the text grew). */
  namesHolding(words: readonly string[], among?: readonly number[]): number[] {
    const holds = (n: number) => n !== 0 && words.every((w) => this.folded[n].includes(w));
    if (among) return among.filter(holds);
    const out: number[] = [];
    for (let n = 1; n < this.folded.length; n++) if (holds(n)) out.push(n);
    return out;
  }

  /** The positions of the items with the id or one of the names, in order: at most `max` + 1 (more were there). */
  find(names: readonly number[], id: number | undefined, max: number, among?: readonly number[]): number[] {
    const named = new Uint8Array(this.folded.length);
    for (const n of names) named[n] = 1;
    const wanted = id ?? NaN;
    const hit = (p: number) =>
      this.ids[p] === wanted || this.flowIds[p] === wanted || named[this.names[p]] === 1 || named[this.teams[p]] === 1;
    if (among) return among.filter(hit);
    const found: number[] = [];
    if (id === undefined && names.length === 0) return found;
    for (let p = 0; p < this.ids.length; p++) if (hit(p) && found.push(p) > max) break;
    return found;
  }

  /** The row of the item at `position`. */
  pick(position: number): GoToPick {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.segments[mid].start <= position) lo = mid;
      else hi = mid - 1;
    }
    const { start, rows, kind, items } = this.segments[lo];
    const item = items[position - start];
    if (kind === 1) return rows.run(item as HistoryEntry);
    return kind === 0
      ? rows.processing((item as Item<FlowSync>).value)
      : rows.connection((item as Item<Connection>).value);
  }
}

/** True when every word of the last text is in a word of the new one (typing on): what the new one finds, it found. */
function extends_(words: readonly string[], before: readonly string[]): boolean {
  return before.every((b) => words.some((w) => w.includes(b)));
}
