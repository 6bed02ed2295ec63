import type { DurationField, FieldTerm, Filter, FilterTerm, FlagName } from './filterQuery';
import { foldForSearch, foldsToItself } from './foldText';

/**
 * The texts a filter looks at in one row, as its list describes it (lists/, history/ each say what their rows show):
 * they do not change while the row object lives, so the matcher folds them once (see `FilterSubjects`).
 */
export interface FilterSubject {
  /** Text fields by term: `flow` holds the flow's name, `status` the status, ... (one text, or several). */
  readonly fields: Partial<Record<FieldTerm, string | readonly string[]>>;
  /**
   * Ids by term: `id` the row's own id, `flow` the flow's id, `team` the team's id (one, or several). An id term
   * compares numbers.
   */
  readonly ids?: Partial<Record<FieldTerm, number | readonly number[]>>;
  /** Every other text the row shows (error text, user, ...): words look in it and in every field. */
  readonly more?: readonly string[];
}

/** What changes with time for one row (stuck, watched, its age): read anew for each match that asks. */
export interface FilterLive {
  readonly flags?: Partial<Record<FlagName, boolean>>;
  readonly seconds?: Partial<Record<DurationField, number | undefined>>;
}

/** A field term's field as a small number: what a row's folded text and a list's index store. */
const FIELD_CODES: Readonly<Record<FieldTerm, number>> = Object.freeze({
  status: 0,
  flow: 1,
  team: 2,
  type: 3,
  service: 4,
  id: 5,
});
const FIELD_COUNT = 6;

/** The code of a field a subject names (undefined for a name no field term has: its texts are for words only). */
function codeOf(name: string): number | undefined {
  return Object.hasOwn(FIELD_CODES, name) ? FIELD_CODES[name as FieldTerm] : undefined;
}

/**
 * One row's texts folded, made once per row object and kept with its list (see FilterSubjects). Only what matching
 * reads is kept, in two strings (small, and near each other in memory): the row's text, and where its fields' texts
 * and ids are in it.
 */
interface Folded {
  /** Every field, id and `more`, folded, joined by SEPARATOR: what words look in. */
  readonly all: string;
  /**
   * Each field text's and id's place in `all`, PLACE characters each: its kind (a field code; ID_KIND + a field code
   * for an id), then its start and its end (exclusive) as two 16-bit halves each.
   */
  readonly places: string;
}

const SEPARATOR = '\u0000';
const PLACE = 5;
const ID_KIND = 8;

type TextTerm = Extract<FilterTerm, { kind: 'text' | 'field' }>;
type LiveTerm = Extract<FilterTerm, { kind: 'flag' | 'duration' }>;

/** The name RowFolder keeps a subject's `more` texts under (no field is named so). */
const MORE = ' more';

/** Folded texts kept per generation of FoldedTexts: a list at the per-answer cap (100,000 rows) fits in one. */
const TEXTS_KEPT = 131_072;
/** How many texts FoldedTexts looks up before it decides whether its texts repeat. */
const SAMPLE = 1_024;
/** How many texts it then folds without looking them up, when most of the sample was new. */
const UNCACHED = 15 * SAMPLE;

/**
 * One field's texts folded, by the text, across rows and answers: a new answer's rows are new objects, but most of
 * their texts are what a row of the answer before said (a flow's name, an error, the service), and a row whose status
 * changed folds its status alone, not its every text. A text that folds to itself (plain lower-case ASCII) is neither
 * folded nor looked up. Bounded: two generations of at most TEXTS_KEPT each; a text used again moves to the current
 * one, a text not used for a whole generation is dropped. A field whose texts are mostly new (a status with a count in
 * it, new every answer) is folded without the look-up for a while (UNCACHED texts, then a SAMPLE is looked up again):
 * keeping a text never asked for again costs more than folding it (measured: bench/bounds.mjs, fold rows).
 */
class FoldedTexts {
  private current = new Map<string, string>();
  private previous = new Map<string, string>();
  private looked = 0;
  private missed = 0;
  private uncached = 0;

  of(text: string): string {
    if (foldsToItself(text)) return text;
    if (this.uncached > 0) {
      this.uncached--;
      return foldForSearch(text);
    }
    let folded = this.current.get(text);
    this.looked++;
    if (folded !== undefined) return this.sampled(folded);
    folded = this.previous.get(text);
    if (folded === undefined) {
      this.missed++;
      folded = foldForSearch(text);
    }
    if (this.current.size >= TEXTS_KEPT) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(text, folded);
    return this.sampled(folded);
  }

  /** Counts a look-up of the sample; at its end, folds the next UNCACHED texts without keeping them if most were new. */
  private sampled(folded: string): string {
    if (this.looked >= SAMPLE) {
      if (this.missed * 2 > this.looked) this.uncached = UNCACHED;
      this.looked = this.missed = 0;
    }
    return folded;
  }
}

/**
 * Folds rows: each text through its field's FoldedTexts (and the `more` texts through their own), each field's texts
 * repeating, or not, in their own way. Its two lists are reused from row to row, written by index (emptying a list
 * would free its storage, and each row's first push make it anew): a fold makes its two strings and little else.
 */
class RowFolder {
  private readonly fields = new Map<string, { code: number | undefined; folds: FoldedTexts }>();
  private readonly parts: string[] = [];
  private readonly places: number[] = [];
  private count = 0;
  private placed = 0;
  private at = 0;

  fold(subject: FilterSubject): Folded {
    this.count = this.placed = this.at = 0;
    for (const name in subject.fields) {
      const { code, folds } = this.field(name);
      const values = subject.fields[name as FieldTerm]!;
      if (typeof values === 'string') this.add(folds.of(values), code);
      else for (const value of values) this.add(folds.of(value), code);
    }
    for (const name in subject.ids) {
      const code = codeOf(name);
      const kind = code === undefined ? undefined : ID_KIND + code;
      const ids = subject.ids[name as FieldTerm];
      if (typeof ids === 'number') this.add(String(ids), kind);
      else for (const id of ids ?? []) this.add(String(id), kind);
    }
    if (subject.more?.length) {
      const { folds } = this.field(MORE);
      for (const text of subject.more) this.add(folds.of(text), undefined);
    }
    const { parts, places } = this;
    if (parts.length !== this.count) parts.length = this.count;
    if (places.length !== this.placed) places.length = this.placed;
    return { all: parts.join(SEPARATOR), places: charsOf(places) };
  }

  private add(text: string, kind: number | undefined): void {
    if (this.count > 0) this.at += SEPARATOR.length;
    const at = this.at;
    const end = at + text.length;
    if (kind !== undefined) {
      const { places } = this;
      places[this.placed++] = kind;
      places[this.placed++] = at & 0xffff;
      places[this.placed++] = at >>> 16;
      places[this.placed++] = end & 0xffff;
      places[this.placed++] = end >>> 16;
    }
    this.parts[this.count++] = text;
    this.at = end;
  }

  private field(name: string): { code: number | undefined; folds: FoldedTexts } {
    let field = this.fields.get(name);
    if (!field) this.fields.set(name, (field = { code: codeOf(name), folds: new FoldedTexts() }));
    return field;
  }
}

/** Numbers below 65,536 as the characters of those codes. */
function charsOf(codes: readonly number[]): string {
  if (codes.length <= 4096) return String.fromCharCode.apply(null, codes as number[]);
  let text = '';
  for (let i = 0; i < codes.length; i += 4096) text += String.fromCharCode(...codes.slice(i, i + 4096));
  return text;
}

/** The offset stored at `i` of `places` (a place's start at 1, its end at 3): two 16-bit halves, low first. */
function placeAt(places: string, i: number): number {
  return places.charCodeAt(i) + places.charCodeAt(i + 1) * 0x10000;
}

/** The number an id's place in `all` holds (what String(id) gave): its digits read without a copy when they can be. */
function idAt(all: string, start: number, end: number): number {
  if (end - start > 15) return Number(all.slice(start, end));
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = all.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number(all.slice(start, end));
    value = value * 10 + digit;
  }
  return value;
}

/** True when a text of the row's field holds `text` (its place in `all`: the first find from its start ends in it). */
function fieldHolds(row: Folded, code: number, text: string): boolean {
  const { places, all } = row;
  for (let i = 0; i < places.length; i += PLACE) {
    if (places.charCodeAt(i) !== code) continue;
    const found = all.indexOf(text, placeAt(places, i + 1));
    if (found !== -1 && found + text.length <= placeAt(places, i + 3)) return true;
  }
  return false;
}

/** True when the row has the id `id` in the field. */
function idHolds(row: Folded, code: number, id: number): boolean {
  const { places, all } = row;
  for (let i = 0; i < places.length; i += PLACE) {
    if (places.charCodeAt(i) === ID_KIND + code && idAt(all, placeAt(places, i + 1), placeAt(places, i + 3)) === id) {
      return true;
    }
  }
  return false;
}

/** The number an id term compares, when the term's text is one. */
function idOf(term: Extract<FilterTerm, { kind: 'field' }>): number | undefined {
  return /^\d+$/.test(term.text) ? Number(term.text) : undefined;
}

/** True when a word or field term (without its `-`) holds for the row: what each row's texts say. */
function textHolds(term: TextTerm, row: Folded, id: number | undefined): boolean {
  if (term.kind === 'text') return row.all.includes(term.text);
  const code = FIELD_CODES[term.field];
  if (id !== undefined && idHolds(row, code, id)) return true;
  return term.field !== 'id' && fieldHolds(row, code, term.text);
}

/** True when a flag or duration term (without its `-`) holds for what the row says now. */
function liveHolds(term: LiveTerm, live: FilterLive): boolean {
  if (term.kind === 'flag') return live.flags?.[term.flag] === true;
  const seconds = live.seconds?.[term.field];
  if (seconds === undefined || !Number.isFinite(seconds)) return false;
  return term.op === '>' ? seconds > term.seconds : seconds < term.seconds;
}

/**
 * A filter's terms in the order they are checked: ids first (a number compared), then words and fields, then what is
 * read live (only for the rows the others kept). All must hold, so the order changes no answer.
 */
interface Plan {
  readonly texts: ReadonlyArray<{ readonly term: TextTerm; readonly id: number | undefined }>;
  readonly live: readonly LiveTerm[];
}

function planOf(filter: Filter): Plan {
  const texts: Array<{ term: TextTerm; id: number | undefined }> = [];
  const live: LiveTerm[] = [];
  for (const term of filter.terms) {
    if (term.kind === 'flag' || term.kind === 'duration') live.push(term);
    else texts.push({ term, id: term.kind === 'field' ? idOf(term) : undefined });
  }
  const rank = (t: TextTerm) => (t.kind === 'field' && t.field === 'id' ? 0 : 1);
  texts.sort((a, b) => rank(a.term) - rank(b.term));
  return { texts, live };
}

/**
 * Marks `seen[row] = stamp` for each part of `text` that holds `word` (a find counts for the part it lies wholly in):
 * part k runs from `starts[k]` to `starts[k + 1] - 1` (the parts joined by SEPARATOR), and is of row `rows[k]` (of row
 * k without `rows`). One native indexOf walk through the text, instead of a look into each part.
 */
function markParts(
  text: string,
  starts: Int32Array,
  rows: Int32Array | undefined,
  word: string,
  seen: Int32Array,
  stamp: number,
): void {
  const length = word.length;
  let k = 0;
  let found = text.indexOf(word);
  while (found !== -1) {
    while (starts[k + 1] <= found) k++;
    const end = starts[k + 1] - SEPARATOR.length;
    if (found + length <= end) {
      seen[rows ? rows[k] : k] = stamp;
      found = text.indexOf(word, end + SEPARATOR.length);
    } else found = text.indexOf(word, found + 1);
  }
}

/**
 * One list's rows as the filter reads them: the rows' folded texts joined into one text (`text`; row i from
 * `starts[i]` to `starts[i + 1] - 1`), each field's texts joined into one text of the field's own, each id field's
 * numbers. A word is then looked for once in the whole text (String indexOf, native) instead of once per row, a
 * field term once in its field's text.
 */
class ListIndex {
  readonly text: string;
  readonly starts: Int32Array;
  /** Per field code: its texts joined, where each begins (and the end, one more), and their rows. */
  readonly fieldTexts: string[] = [];
  readonly fieldStarts: Int32Array[] = [];
  readonly fieldRows: Int32Array[] = [];
  /** Per field code: its ids and their rows. */
  readonly idValues: Float64Array[] = [];
  readonly idRows: Int32Array[] = [];

  constructor(folded: readonly Folded[]) {
    const n = folded.length;
    const starts = new Int32Array(n + 1);
    const fieldCounts = new Int32Array(FIELD_COUNT);
    const idCounts = new Int32Array(FIELD_COUNT);
    const alls = new Array<string>(n);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const { all, places } = folded[i];
      starts[i] = at;
      alls[i] = all;
      at += all.length + SEPARATOR.length;
      for (let p = 0; p < places.length; p += PLACE) {
        const kind = places.charCodeAt(p);
        if (kind >= ID_KIND) idCounts[kind - ID_KIND]++;
        else fieldCounts[kind]++;
      }
    }
    starts[n] = at;
    this.text = alls.join(SEPARATOR);
    this.starts = starts;
    const fieldParts: string[][] = [];
    const fieldAt = new Int32Array(FIELD_COUNT);
    for (let code = 0; code < FIELD_COUNT; code++) {
      fieldParts.push(new Array<string>(fieldCounts[code]));
      this.fieldStarts.push(new Int32Array(fieldCounts[code] + 1));
      this.fieldRows.push(new Int32Array(fieldCounts[code]));
      this.idValues.push(new Float64Array(idCounts[code]));
      this.idRows.push(new Int32Array(idCounts[code]));
    }
    fieldCounts.fill(0);
    idCounts.fill(0);
    for (let i = 0; i < n; i++) {
      const { all, places } = folded[i];
      for (let p = 0; p < places.length; p += PLACE) {
        const kind = places.charCodeAt(p);
        const start = placeAt(places, p + 1);
        const end = placeAt(places, p + 3);
        if (kind >= ID_KIND) {
          const code = kind - ID_KIND;
          const k = idCounts[code]++;
          this.idValues[code][k] = idAt(all, start, end);
          this.idRows[code][k] = i;
        } else {
          const k = fieldCounts[kind]++;
          fieldParts[kind][k] = all.slice(start, end);
          this.fieldStarts[kind][k] = fieldAt[kind];
          this.fieldRows[kind][k] = i;
          fieldAt[kind] += end - start + SEPARATOR.length;
        }
      }
    }
    for (let code = 0; code < FIELD_COUNT; code++) {
      this.fieldStarts[code][fieldCounts[code]] = fieldAt[code];
      this.fieldTexts.push(fieldParts[code].join(SEPARATOR));
    }
  }

  /** Marks every row whose text holds `word`. */
  markWord(word: string, seen: Int32Array, stamp: number): void {
    markParts(this.text, this.starts, undefined, word, seen, stamp);
  }

  /** Marks every row that has a text of the field holding `word`. */
  markField(code: number, word: string, seen: Int32Array, stamp: number): void {
    markParts(this.fieldTexts[code], this.fieldStarts[code], this.fieldRows[code], word, seen, stamp);
  }

  /** Marks every row with the id `id` in the field. */
  markId(code: number, id: number, seen: Int32Array, stamp: number): void {
    const values = this.idValues[code];
    const rows = this.idRows[code];
    for (let k = 0; k < values.length; k++) if (values[k] === id) seen[rows[k]] = stamp;
  }
}

/** A list's rows as filtered: the rows (a copy, to see whether the array changed), each folded, and its index. */
interface Prepared {
  readonly rows: readonly object[];
  readonly folded: readonly Folded[];
  index?: ListIndex;
}

/** True when both arrays hold the same objects in the same order. */
function sameRows(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Below this share of a list's rows still in the running, the next term is checked row by row (each row's own text)
 * rather than by looking through the whole list's text.
 */
const ROW_BY_ROW = 1 / 8;

/**
 * The rows of one list as the filter sees them: each row's subject is made and folded on first use by a word or field
 * term (has:, is:, age, ran read none) and kept with its list while that array lives (a row matched alone: while the
 * row object lives, a WeakMap on the row), so typing a filter folds nothing twice, a later list takes the rows it
 * shares with the last one, and a new answer's rows fold only the texts no row said before (each text's fold is kept
 * by field and text: FoldedTexts; a row whose status changed folds its status alone); the folded rows of a list are
 * joined into one index (ListIndex) kept while that array of rows lives, so a filter looks through one text per term
 * instead of one per row. `describe` says what a row shows (it must not change for a row object that lives on); `live`
 * what changes with time (read only for the rows the other terms keep, and only when a term asks: has:, is:, age,
 * ran).
 */
export class FilterSubjects<Row extends object> {
  private readonly folded = new WeakMap<Row, Folded>();
  /** Each text folded, by field and text: a new answer's row folds only the texts no row said before. */
  private readonly folder = new RowFolder();
  /** A whole list's folded rows and index (the same array again: no lookup per row), while that array lives. */
  private readonly lists = new WeakMap<readonly Row[], Prepared>();
  /** The list filtered last, while its array lives: the next list's rows are looked for in it first. */
  private last?: WeakRef<Prepared>;
  /** Each filter's terms in the order they are checked, while the filter lives. */
  private readonly plans = new WeakMap<Filter, Plan>();

  constructor(
    private readonly describe: (row: Row) => FilterSubject,
    private readonly live: (row: Row) => FilterLive = () => ({}),
  ) {}

  /**
   * The row folded: kept by the row object when `keep` (a row matched alone, as History's filter does); a list's rows
   * are kept by their list (Prepared) instead, which a later list takes them from (foldedOf): a WeakMap entry for each
   * row of every new answer cost about 15 % of filtering it (measured: bench/bounds.mjs, fold rows).
   */
  private of(row: Row, keep: boolean): Folded {
    let folded = this.folded.get(row);
    if (!folded) {
      folded = this.folder.fold(this.describe(row));
      if (keep) this.folded.set(row, folded);
    }
    return folded;
  }

  /**
   * The folded rows of `rows` (each row folded once, whatever array holds it), made once per array and made anew when
   * the array's rows changed. The array's index is made when it is filtered a second time: a list filtered once (a
   * new answer, a new History run) costs no index, a list filtered again (typing, another filter) looks through it.
   */
  private prepared(rows: readonly Row[]): Prepared {
    let prepared = this.lists.get(rows);
    if (prepared && sameRows(prepared.rows, rows)) {
      prepared.index ??= new ListIndex(prepared.folded);
    } else {
      prepared = { rows: rows.slice(), folded: this.foldedOf(rows, this.last?.deref()) };
      this.lists.set(rows, prepared);
    }
    this.last = new WeakRef(prepared);
    return prepared;
  }

  /**
   * Each row of `rows` folded. The rows the last list also held, in the same order (History's runs a departure later:
   * one more at the top, the oldest gone), are taken from it without a lookup per row.
   */
  private foldedOf(rows: readonly Row[], last: Prepared | undefined): Folded[] {
    const folded = new Array<Folded>(rows.length);
    const before = last?.rows ?? [];
    let j = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      // A few rows of the last list left since: step over them.
      for (let skip = 0; skip < 4 && j + skip < before.length; skip++) {
        if (before[j + skip] === row) {
          j += skip;
          break;
        }
      }
      if (j < before.length && before[j] === row) folded[i] = last!.folded[j++];
      else folded[i] = this.of(row, false);
    }
    return folded;
  }

  private planOf(filter: Filter): Plan {
    let plan = this.plans.get(filter);
    if (!plan) {
      plan = planOf(filter);
      this.plans.set(filter, plan);
    }
    return plan;
  }

  /** True when every term of the filter holds for the row (an empty filter matches every row). */
  matches(filter: Filter, row: Row): boolean {
    if (filter.terms.length === 0) return true;
    const plan = this.planOf(filter);
    if (plan.texts.length > 0) {
      const folded = this.of(row, true); // only a word or field term reads the row's texts: has:, is:, ran< fold none
      for (const { term, id } of plan.texts) if (textHolds(term, folded, id) === term.negated) return false;
    }
    if (plan.live.length === 0) return true;
    const live = this.live(row);
    for (const term of plan.live) if (liveHolds(term, live) === term.negated) return false;
    return true;
  }

  /** The rows that match, in their order. */
  filter(filter: Filter, rows: readonly Row[]): Row[] {
    if (filter.terms.length === 0) return rows.slice();
    const [kept, count] = this.keep(filter, rows);
    const result = new Array<Row>(count);
    for (let i = 0; i < count; i++) result[i] = rows[kept[i]];
    return result;
  }

  /** How many rows match (the input box says it as you type). */
  count(filter: Filter, rows: readonly Row[]): number {
    if (filter.terms.length === 0) return rows.length;
    return this.keep(filter, rows)[1];
  }

  /**
   * The positions of the rows that match (the first `count` of the array, in order). Each word or field term either
   * marks the rows whose text holds it (one look through the list's text) or, once few rows are left, is checked on
   * those rows alone; the live facts are read once per row left, and only when a term asks. A filter of flags and
   * durations alone (has:errors, is:stuck, ran>10m) reads no text: its rows are neither described nor folded.
   */
  private keep(filter: Filter, rows: readonly Row[]): [Int32Array, number] {
    const plan = this.planOf(filter);
    const n = rows.length;
    const kept = new Int32Array(n);
    for (let i = 0; i < n; i++) kept[i] = i;
    const count = plan.texts.length > 0 ? this.keepTexts(plan, rows, kept) : n;
    return [kept, plan.live.length > 0 ? this.keepLive(plan, rows, kept, count) : count];
  }

  /** Keeps, of the positions in `kept` (all rows), those whose texts hold every word and field term; how many. */
  private keepTexts(plan: Plan, rows: readonly Row[], kept: Int32Array): number {
    const { folded, index } = this.prepared(rows);
    const n = rows.length;
    let count = n;
    let seen: Int32Array | undefined;
    let stamp = 0;
    for (const { term, id } of plan.texts) {
      if (count === 0) break;
      const { negated } = term;
      let left = 0;
      // An empty text (no parsed filter has one) is in every text: row by row, as a look through the list would loop.
      if (!index || count < n * ROW_BY_ROW || term.text.length === 0) {
        for (let i = 0; i < count; i++) {
          const r = kept[i];
          if (textHolds(term, folded[r], id) !== negated) kept[left++] = r;
        }
      } else {
        seen ??= new Int32Array(n);
        stamp++;
        if (term.kind === 'text') index.markWord(term.text, seen, stamp);
        else {
          const code = FIELD_CODES[term.field];
          if (id !== undefined) index.markId(code, id, seen, stamp);
          if (term.field !== 'id') index.markField(code, term.text, seen, stamp);
        }
        for (let i = 0; i < count; i++) {
          const r = kept[i];
          if ((seen[r] === stamp) !== negated) kept[left++] = r;
        }
      }
      count = left;
    }
    return count;
  }

  /** Keeps, of the first `count` positions in `kept`, those whose live facts hold every flag and duration term. */
  private keepLive(plan: Plan, rows: readonly Row[], kept: Int32Array, count: number): number {
    let left = 0;
    for (let i = 0; i < count; i++) {
      const r = kept[i];
      const live = this.live(rows[r]);
      let all = true;
      for (const term of plan.live) {
        if (liveHolds(term, live) === term.negated) {
          all = false;
          break;
        }
      }
      if (all) kept[left++] = r;
    }
    return left;
  }
}
