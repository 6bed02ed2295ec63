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
 * of goToPicks, and makes at most `max` rows. Each text typed is one pass over the rows held (numbers compared, each
 * distinct name folded once per Go to and kept for the next keystrokes); a text that extends the one before looks only
 * in what that one found. Pure.
 */
export class GoToSearch {
  private readonly rows: ServiceRows[];
  /** Each name as Find folds it, while this Go to is open (names repeat: a flow's runs share its name). */
  private readonly folded = new Map<string, string>();
  /** The last text's query and the items it found (all of them), to narrow the next text that extends it. */
  private last?: { readonly words: readonly string[]; readonly id?: number; readonly found: Found[] };

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
    const words = foldForSearch(text).split(' ');
    const id = /^\d{1,15}$/.test(text) ? Number(text) : undefined;
    const narrowed = this.last && id === undefined && this.last.id === undefined && extends_(words, this.last.words);
    const found = narrowed
      ? this.last!.found.filter((f) => this.holds(f.kind, f.item, words, id))
      : this.all(words, id);
    // An answer cut after `max` (more were there) is not narrowed: the next text looks through everything again.
    this.last = found.length <= this.max ? { words, id, found } : undefined;
    const picks: GoToPick[] = [];
    for (const f of found) {
      if (picks.length >= this.max) break;
      const r = this.rows[f.service];
      picks.push(
        f.kind === 0
          ? r.processing(f.item as FlowSync)
          : f.kind === 1
            ? r.run(f.item as HistoryEntry)
            : r.connection(f.item as Connection),
      );
    }
    return picks;
  }

  private all(words: readonly string[], id: number | undefined): Found[] {
    const found: Found[] = [];
    for (const kind of [0, 1, 2] as const) {
      for (let k = 0; k < this.rows.length; k++) {
        const s = this.rows[k].service;
        if (kind === 0) {
          for (const { value } of s.processing) {
            if (this.holds(0, value, words, id) && found.push({ service: k, kind, item: value }) > this.max) {
              return found;
            }
          }
        } else if (kind === 1) {
          for (const e of s.history) {
            if (this.holds(1, e, words, id) && found.push({ service: k, kind, item: e }) > this.max) return found;
          }
        } else {
          for (const { value } of s.connections) {
            if (this.holds(2, value, words, id) && found.push({ service: k, kind, item: value }) > this.max) {
              return found;
            }
          }
        }
      }
    }
    return found;
  }

  private holds(kind: 0 | 1 | 2, item: Found['item'], words: readonly string[], id: number | undefined): boolean {
    if (kind === 0) {
      const s = item as FlowSync;
      return s.id === id || s.flow_id === id || this.named(s.flow?.name, words);
    }
    if (kind === 1) {
      const e = item as HistoryEntry;
      return e.id === id || e.flowId === id || this.named(e.flowName, words);
    }
    const c = item as Connection;
    return c.id === id || this.named(c.name, words) || this.named(c.team?.name, words);
  }

  /** True when the name, folded, holds every word. */
  private named(name: string | undefined, words: readonly string[]): boolean {
    if (typeof name !== 'string' || name.length === 0) return false;
    let folded = this.folded.get(name);
    if (folded === undefined) {
      folded = foldForSearch(name);
      this.folded.set(name, folded);
    }
    for (const word of words) if (!folded.includes(word)) return false;
    return true;
  }
}

/** One item a text found: its service (an index), its kind (0 processing, 1 History, 2 connection) and the item. */
interface Found {
  readonly service: number;
  readonly kind: 0 | 1 | 2;
  readonly item: FlowSync | HistoryEntry | Connection;
}

/** True when every word of the last text is in a word of the new one (typing on): what the new one finds, it found. */
function extends_(words: readonly string[], before: readonly string[]): boolean {
  return before.every((b) => words.some((w) => w.includes(b)));
}
