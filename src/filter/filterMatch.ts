import type { DurationField, FieldTerm, Filter, FilterTerm, FlagName } from './filterQuery';
import { foldForSearch } from './foldText';

/**
 * The texts a filter looks at in one row, as its list describes it (lists/, history/ each say what their rows show):
 * they do not change while the row object lives, so the matcher folds them once (see `FilterSubjects`).
 */
export interface FilterSubject {
  /** Text fields by term: `flow` holds the flow's name, `status` the status, ... */
  readonly fields: Partial<Record<FieldTerm, readonly string[]>>;
  /** Ids by term: `id` the row's own id, `flow` the flow's id, `team` the team's id. An id term compares numbers. */
  readonly ids?: Partial<Record<FieldTerm, readonly number[]>>;
  /** Every other text the row shows (error text, user, ...): words look in it and in every field. */
  readonly more?: readonly string[];
}

/** What changes with time for one row (stuck, watched, its age): read anew for each match that asks. */
export interface FilterLive {
  readonly flags?: Partial<Record<FlagName, boolean>>;
  readonly seconds?: Partial<Record<DurationField, number | undefined>>;
}

/** A subject with its texts folded, made once per row and kept while the row is (see FilterSubjects). */
interface Folded {
  readonly subject: FilterSubject;
  readonly fields: Partial<Record<FieldTerm, string[]>>;
  /** Every field and `more`, folded, joined by a separator no folded text holds: what words look in. */
  readonly all: string;
}

const SEPARATOR = '\u0000';

function fold(subject: FilterSubject): Folded {
  const fields: Partial<Record<FieldTerm, string[]>> = {};
  const parts: string[] = [];
  for (const [name, texts] of Object.entries(subject.fields) as Array<[FieldTerm, readonly string[]]>) {
    const folded = texts.map(foldForSearch);
    fields[name] = folded;
    parts.push(...folded);
  }
  for (const ids of Object.values(subject.ids ?? {})) for (const id of ids ?? []) parts.push(String(id));
  for (const text of subject.more ?? []) parts.push(foldForSearch(text));
  return { subject, fields, all: parts.join(SEPARATOR) };
}

function matchesTerm(term: FilterTerm, row: Folded, live: () => FilterLive): boolean {
  switch (term.kind) {
    case 'text':
      return row.all.includes(term.text);
    case 'field': {
      const ids = row.subject.ids?.[term.field];
      if (ids && /^\d+$/.test(term.text) && ids.includes(Number(term.text))) return true;
      if (term.field === 'id') return false;
      return (row.fields[term.field] ?? []).some((text) => text.includes(term.text));
    }
    case 'flag':
      return live().flags?.[term.flag] === true;
    case 'duration': {
      const seconds = live().seconds?.[term.field];
      if (seconds === undefined || !Number.isFinite(seconds)) return false;
      return term.op === '>' ? seconds > term.seconds : seconds < term.seconds;
    }
  }
}

/** True when `term` (with its `-`) holds for the row. A term and its negation split the rows in two. */
function holds(term: FilterTerm, row: Folded, live: () => FilterLive): boolean {
  return matchesTerm(term, row, live) !== term.negated;
}

type Check = (row: Folded, live: () => FilterLive) => boolean;

/**
 * A term as a check of one row, made once per application of a filter (not once per row): what a term needs of
 * itself (its number, its field) is worked out here. Holds exactly when `holds` does.
 */
function compile(term: FilterTerm): Check {
  const { negated } = term;
  switch (term.kind) {
    case 'text': {
      const text = term.text;
      return (row) => row.all.includes(text) !== negated;
    }
    case 'field': {
      const { field, text } = term;
      const id = /^\d+$/.test(text) ? Number(text) : undefined;
      return (row) => {
        const ids = id === undefined ? undefined : row.subject.ids?.[field];
        let hit = ids !== undefined && ids.includes(id!);
        if (!hit && field !== 'id') {
          const texts = row.fields[field];
          if (texts) for (let i = 0; i < texts.length && !hit; i++) hit = texts[i].includes(text);
        }
        return hit !== negated;
      };
    }
    default:
      return (row, live) => holds(term, row, live);
  }
}

/**
 * The rows of one list as the filter sees them: each row's subject is made and folded on first use and kept while the
 * row object is alive (a WeakMap on the row), so typing a filter folds nothing twice, and a new answer folds only
 * its new rows. `describe` says what a row shows (it must not change for a row object that lives on); `live` what
 * changes with time (read only for the terms that ask: has:, is:, age, ran).
 */
export class FilterSubjects<Row extends object> {
  private readonly folded = new WeakMap<Row, Folded>();
  /** The folded rows of a whole list (the same array again: no lookup per row), while that array lives. */
  private readonly lists = new WeakMap<readonly Row[], Folded[]>();

  constructor(
    private readonly describe: (row: Row) => FilterSubject,
    private readonly live: (row: Row) => FilterLive = () => ({}),
  ) {}

  private of(row: Row): Folded {
    let folded = this.folded.get(row);
    if (!folded) {
      folded = fold(this.describe(row));
      this.folded.set(row, folded);
    }
    return folded;
  }

  /** Each row of `rows` folded, in order: made once per array (each row still folded once, whatever array holds it). */
  private allOf(rows: readonly Row[]): Folded[] {
    let all = this.lists.get(rows);
    if (!all) {
      all = rows.map((row) => this.of(row));
      this.lists.set(rows, all);
    }
    return all;
  }

  /** True when every term of the filter holds for the row (an empty filter matches every row). */
  matches(filter: Filter, row: Row): boolean {
    if (filter.terms.length === 0) return true;
    return this.holdsAll(filter.terms.map(compile), this.of(row), row);
  }

  /** The rows that match, in their order. */
  filter(filter: Filter, rows: readonly Row[]): Row[] {
    if (filter.terms.length === 0) return rows.slice();
    const all = this.allOf(rows);
    const checks = filter.terms.map(compile);
    const kept: Row[] = [];
    for (let i = 0; i < rows.length; i++) if (this.holdsAll(checks, all[i], rows[i])) kept.push(rows[i]);
    return kept;
  }

  /** How many rows match (the input box says it as you type). */
  count(filter: Filter, rows: readonly Row[]): number {
    if (filter.terms.length === 0) return rows.length;
    const all = this.allOf(rows);
    const checks = filter.terms.map(compile);
    let n = 0;
    for (let i = 0; i < rows.length; i++) if (this.holdsAll(checks, all[i], rows[i])) n++;
    return n;
  }

  /** Every check holds; the live flags and durations are read at most once, and only when a check asks. */
  private holdsAll(checks: readonly Check[], folded: Folded, row: Row): boolean {
    // One reader of the live facts for every row (no closure made per row: 50,000 rows are 50,000 allocations).
    this.liveRow = row;
    this.liveKnown = undefined;
    for (let i = 0; i < checks.length; i++) if (!checks[i](folded, this.readLive)) return false;
    return true;
  }

  private liveRow?: Row;
  private liveKnown?: FilterLive;
  private readonly readLive = (): FilterLive => (this.liveKnown ??= this.live(this.liveRow!));
}
