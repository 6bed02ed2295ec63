import { foldForSearch } from './foldText';

/*
 * A quick pick of loaded rows (Go to..., Open in Browser, Open as JSON, the watch and pin commands), bounded however
 * much is loaded: the one core every such pick goes through (its vscode adapter: src/filter/vscode/rowPick.ts;
 * test/unit/repo/picks.test.ts holds that no other pick of loaded rows is made).
 *
 * The rows are segments of items held elsewhere (a list's items, History's runs), in the order they are offered; a
 * row's pick is made only when it is shown. What the person types is found a step at a time: each step examines at
 * most PICK_STEP bounds' worth of items (src/filter/vscode/rowPick.ts runs the next step in a later task of the host),
 * and at most `max` rows are shown. An index of the items (their ids and the numbers of their folded names in typed
 * arrays, each distinct name folded once) grows as the steps reach them, and is kept for the next texts: a text
 * typed later walks numbers, not items.
 */

/** The most rows a pick shows at once (at first, and for each text typed): what it costs is bounded by it. */
export const PICK_ROWS = 2_000;

/**
 * What one step may examine (a step is one task of the extension host): items read into the index (each read once per
 * pick; a name never seen folded), indexed positions compared (numbers only) and names compared with the typed words.
 */
export const PICK_STEP = { indexed: 5_000, scanned: 200_000, names: 20_000 } as const;

/**
 * The most names the index remembers to fold each once (those that repeat: a flow's among its syncs, a team's among its
 * connections): a name seen again after that many others is folded again.
 */
const NAMES_KEPT = 1 << 16;

/** How a pick shows a row: its texts (service text made inert by its segment), and its part of the pick. */
export interface PickRow {
  readonly label: string;
  readonly description?: string;
  /** The heading it is shown under (a service, a list): a separator where it changes. */
  readonly section?: string;
}

/** One run of items of a pick: how each is found and how its row looks. */
export interface PickSegment<T, R> {
  readonly items: readonly T[];
  /** The row of an item, made only when it is shown. */
  row(item: T): R;
  /** Up to two numbers the item is found by when typed (`1003`, `#1003`): its id, a flow's id. */
  id?(item: T): number | undefined;
  otherId?(item: T): number | undefined;
  /** Up to two names it is found by (words in any order, folded: letter case and accents); each word in one of them. */
  name?(item: T): string | undefined;
  otherName?(item: T): string | undefined;
  /** Only the first item of each key is a row (a flow among its syncs): keys are shared by the segments of one `among`. */
  readonly distinct?: { readonly among: string; key(item: T): number };
  /** True for an item that is not a row (e.g. a flow already pinned, to Pin Flow). */
  skip?(item: T): boolean;
}

/** A segment of any items, as PickRows takes them (the items' type is the segment's own business). */
export function pickSegment<T, R>(segment: PickSegment<T, R>): PickSegment<unknown, R> {
  return segment as unknown as PickSegment<unknown, R>;
}

/** What one step found: every row found so far (at most `max`), whether the search is over, and what it examined. */
export interface PickStep<R> {
  readonly rows: readonly R[];
  /** True when nothing is left to look at (every item examined, or more than `max` found). */
  readonly done: boolean;
  /** What this step examined (each at most PICK_STEP's). */
  readonly examined: { readonly indexed: number; readonly scanned: number; readonly names: number };
}

/** The rows of a pick: a search per text typed, each run a step at a time. */
export class PickRows<R extends PickRow> {
  private readonly index: PickIndex<R>;
  private last?: { readonly words: readonly string[]; readonly search: PickSearch<R> };

  /**
   * `first`: the rows before anything is typed when they are not simply the first `max` rows (at most `max`; Go to's
   * newest History across the services), made at once.
   */
  constructor(
    segments: readonly PickSegment<unknown, R>[],
    private readonly options: { readonly max?: number; readonly first?: () => readonly R[] } = {},
  ) {
    this.index = new PickIndex(segments);
  }

  get max(): number {
    return this.options.max ?? PICK_ROWS;
  }

  /** How many items the segments hold (0: nothing is loaded). */
  get size(): number {
    return this.index.size;
  }

  /**
   * The search for a text (`#1003`, `1003`, words of a name); the empty text lists the rows in order. A text that
   * extends the last one, whose search ended having found every row it could (at most `max`), looks only among them.
   */
  search(value: string): PickSearch<R> {
    const text = value.trim().replace(/^#/, '').trim();
    if (text.length === 0) {
      this.last = undefined;
      const { first } = this.options;
      if (first) return PickSearch.made(first(), this.max);
      return new PickSearch(this.index, [], undefined, this.max);
    }
    const words = foldForSearch(text).split(' ');
    const id = /^\d{1,15}$/.test(text) ? Number(text) : undefined;
    const before = this.last;
    const among =
      before !== undefined && id === undefined && before.search.complete && extends_(words, before.words)
        ? before.search.positions
        : undefined;
    const search = new PickSearch(this.index, words, id, this.max, among);
    this.last = id === undefined ? { words, search } : undefined;
    return search;
  }
}

/** One text's search: `step()` until it is done. */
export class PickSearch<R extends PickRow> {
  private cursor = 0;
  private readonly found: number[] = [];
  private readonly rows: R[] = [];
  /** Each name's answer for this text: 0 not asked yet, 1 it holds every word, 2 it does not. */
  private holds = new Uint8Array(64);
  private over = false;

  /** A search whose rows are made already (the first rows a pick makes itself). */
  static made<R extends PickRow>(rows: readonly R[], max: number): PickSearch<R> {
    const search = new PickSearch<R>(undefined, [], undefined, max);
    for (const row of rows) if (search.rows.push(row) >= max) break;
    search.over = true;
    return search;
  }

  constructor(
    private readonly index: PickIndex<R> | undefined,
    private readonly words: readonly string[],
    private readonly id: number | undefined,
    private readonly max: number,
    private readonly among?: readonly number[],
  ) {}

  /** True once the search has examined everything and found at most `max` rows: a longer text can look among them. */
  get complete(): boolean {
    return this.over && this.index !== undefined && this.found.length <= this.max;
  }

  /** The positions of the rows found (while `complete`, every row the text has). */
  get positions(): readonly number[] {
    return this.found;
  }

  /** Looks further, within PICK_STEP; the rows found so far. */
  step(): PickStep<R> {
    const examined = { indexed: 0, scanned: 0, names: 0 };
    const index = this.index;
    if (!this.over && index) {
      const names = { left: PICK_STEP.names };
      const end = this.among ? this.among.length : index.size;
      while (this.cursor < end && this.found.length <= this.max && examined.scanned < PICK_STEP.scanned) {
        const p = this.among ? this.among[this.cursor] : this.cursor;
        if (p >= index.indexed) {
          const room = PICK_STEP.indexed - examined.indexed;
          if (room <= 0) break;
          examined.indexed += index.grow(Math.min(room, 1_024));
        }
        // A name compared costs its text: the step ends before one it has no room for.
        if (!this.wouldAnswer(p) && names.left < 2) break;
        if (this.hit(p, names)) this.found.push(p);
        this.cursor++;
        examined.scanned++;
      }
      examined.names = PICK_STEP.names - names.left;
      if (this.cursor >= end || this.found.length > this.max) this.over = true;
      for (let i = this.rows.length; i < Math.min(this.found.length, this.max); i++) {
        this.rows.push(index.row(this.found[i]));
      }
    }
    return { rows: this.rows, done: this.over, examined };
  }

  /** Whether position `p` is answered without comparing a name (no words, or its names answered already). */
  private wouldAnswer(p: number): boolean {
    const chunk = this.index!.chunks[p >>> CHUNK_BITS];
    const i = p & CHUNK_MASK;
    const a = chunk.names[i];
    if (this.words.length === 0 || a < 0) return true;
    const b = chunk.others[i];
    return (a === 0 || this.holds[a] !== 0) && (b === 0 || this.holds[b] !== 0);
  }

  private hit(p: number, names: { left: number }): boolean {
    const chunk = this.index!.chunks[p >>> CHUNK_BITS];
    const i = p & CHUNK_MASK;
    const a = chunk.names[i];
    if (a < 0) return false; // not a row
    if (this.words.length === 0) return true;
    if (this.id !== undefined && (chunk.ids[i] === this.id || chunk.otherIds[i] === this.id)) return true;
    return this.nameHolds(a, names) || this.nameHolds(chunk.others[i], names);
  }

  private nameHolds(n: number, names: { left: number }): boolean {
    if (n === 0) return false;
    if (n >= this.holds.length) {
      const grown = new Uint8Array(Math.max(n + 1, this.holds.length * 2));
      grown.set(this.holds);
      this.holds = grown;
    }
    if (this.holds[n] === 0) {
      const folded = this.index!.folded[n];
      this.holds[n] = this.words.every((w) => folded.includes(w)) ? 1 : 2;
      names.left--;
    }
    return this.holds[n] === 1;
  }
}

/** Positions a chunk of the index holds: 2^15 (768 KB of arrays), so a step makes at most one. */
const CHUNK_BITS = 15;
const CHUNK_MASK = (1 << CHUNK_BITS) - 1;

/**
 * A chunk of the index: each position's two ids (NaN: none) and the numbers of its two folded names (0: none; -1 in
 * `names`: not a row).
 */
interface Chunk {
  readonly ids: Float64Array;
  readonly otherIds: Float64Array;
  readonly names: Int32Array;
  readonly others: Int32Array;
}

function newChunk(): Chunk {
  const size = 1 << CHUNK_BITS;
  return {
    ids: new Float64Array(size),
    otherIds: new Float64Array(size),
    names: new Int32Array(size),
    others: new Int32Array(size),
  };
}

/** A run of the index: the items of one segment, from `start`. */
interface Run<R> {
  readonly start: number;
  readonly segment: PickSegment<unknown, R>;
}

/**
 * Every item of the segments, in order, as arrays of numbers (chunks) filled as far as the searches have looked
 * (`indexed`): its two ids and the numbers of its two folded names.
 */
class PickIndex<R> {
  readonly size: number;
  indexed = 0;
  /** The arrays of each CHUNK positions, made as the index reaches them (never copied, never more than it holds). */
  readonly chunks: Chunk[] = [];
  /** The names, folded (each once while NAMES_KEPT remembers it); 0 is no name. */
  readonly folded: string[] = [''];
  private readonly numbers = new Map<string, number>();
  private readonly runs: Run<R>[] = [];
  /** The keys of each `among` seen so far (PickSegment.distinct). */
  private readonly keys = new Map<string, Set<number>>();
  private run = 0;

  constructor(segments: readonly PickSegment<unknown, R>[]) {
    let size = 0;
    for (const segment of segments) {
      if (segment.items.length === 0) continue;
      this.runs.push({ start: size, segment });
      size += segment.items.length;
    }
    this.size = size;
  }

  /** Reads up to `count` more items into the index; how many it read. */
  grow(count: number): number {
    const end = Math.min(this.size, this.indexed + count);
    const from = this.indexed;
    while (this.chunks.length << CHUNK_BITS < end) this.chunks.push(newChunk());
    while (this.indexed < end) {
      while (this.run + 1 < this.runs.length && this.runs[this.run + 1].start <= this.indexed) this.run++;
      const { start, segment } = this.runs[this.run];
      const stop = Math.min(end, start + segment.items.length);
      const keys = segment.distinct && this.keysOf(segment.distinct.among);
      for (let p = this.indexed; p < stop; p++) {
        const item = segment.items[p - start];
        const chunk = this.chunks[p >>> CHUNK_BITS];
        const i = p & CHUNK_MASK;
        if (segment.skip?.(item) || (keys && seen(keys, segment.distinct!.key(item)))) {
          chunk.names[i] = -1;
          continue;
        }
        chunk.ids[i] = number(segment.id?.(item));
        chunk.otherIds[i] = number(segment.otherId?.(item));
        chunk.names[i] = this.numberOf(segment.name?.(item));
        chunk.others[i] = this.numberOf(segment.otherName?.(item));
      }
      this.indexed = stop;
    }
    return this.indexed - from;
  }

  /** The row of the item at `p`. */
  row(p: number): R {
    let lo = 0;
    let hi = this.runs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.runs[mid].start <= p) lo = mid;
      else hi = mid - 1;
    }
    const { start, segment } = this.runs[lo];
    return segment.row(segment.items[p - start]);
  }

  private keysOf(among: string): Set<number> {
    let keys = this.keys.get(among);
    if (!keys) this.keys.set(among, (keys = new Set()));
    return keys;
  }

  private numberOf(name: string | undefined): number {
    if (typeof name !== 'string' || name.length === 0) return 0;
    let n = this.numbers.get(name);
    if (n === undefined) {
      n = this.folded.push(foldForSearch(name)) - 1;
      // A Map grown past NAMES_KEPT is started anew: growing one copies every entry at once (a step's cost unbounded).
      if (this.numbers.size >= NAMES_KEPT) this.numbers.clear();
      this.numbers.set(name, n);
    }
    return n;
  }
}

/** True when `key` was seen before; marks it seen. */
function seen(keys: Set<number>, key: number): boolean {
  if (keys.has(key)) return true;
  keys.add(key);
  return false;
}

/** A number to find an item by, or NaN (equal to nothing). */
function number(value: number | undefined): number {
  return typeof value === 'number' ? value : NaN;
}

/** True when every word of the last text is in a word of the new one (typing on): what the new one finds, it found. */
function extends_(words: readonly string[], before: readonly string[]): boolean {
  return before.every((b) => words.some((w) => w.includes(b)));
}
