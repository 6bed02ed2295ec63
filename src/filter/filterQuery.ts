import { inert } from '../base/inert';
import { t } from '../base/l10n';
import { foldForSearch } from './foldText';

/**
 * The filter language of Filter Processing/Connections/History..., the language model tools' `filter` input and
 * links' `?filter=`: one parser, so a filter means the same wherever it is typed. Pure.
 *
 *   receipts "sales eu"     words and quoted phrases: each must appear in some field the row shows
 *   status:pending flow:12  a field holds the text (an id field: is that number)
 *   has:errors is:stuck     a flag of the row
 *   age>10m ran<2h          a duration (s, m, h, d)
 *   -word -has:errors       a leading - negates any word or term
 */
export type FilterView = 'processing' | 'connections' | 'history';

/** The fields a `name:value` term can look in. */
const FIELD_TERMS = ['status', 'flow', 'team', 'type', 'service', 'id'] as const;
export type FieldTerm = (typeof FIELD_TERMS)[number];
const HAS_VALUES = ['errors', 'webhook'] as const;
const IS_VALUES = ['stuck', 'watched', 'longer'] as const;
export type FlagName = (typeof HAS_VALUES)[number] | (typeof IS_VALUES)[number];
export type DurationField = 'age' | 'ran';

export type FilterTerm =
  | { readonly kind: 'text'; readonly text: string; readonly negated: boolean }
  | { readonly kind: 'field'; readonly field: FieldTerm; readonly text: string; readonly negated: boolean }
  | { readonly kind: 'flag'; readonly flag: FlagName; readonly negated: boolean }
  | {
      readonly kind: 'duration';
      readonly field: DurationField;
      readonly op: '<' | '>';
      readonly seconds: number;
      readonly negated: boolean;
    };

/**
 * A parsed filter: the view it was read for (a term is checked against what that view's rows have), the text as typed
 * (trimmed) and its terms, all of which must match. Made by parseFilter only: whoever holds one holds a filter that
 * reads, so it is parsed once and handed on as it is.
 */
export interface Filter<V extends FilterView = FilterView> {
  readonly view: V;
  readonly source: string;
  readonly terms: readonly FilterTerm[];
}

export type ParsedFilter<V extends FilterView = FilterView> =
  | { readonly filter: Filter<V>; readonly problem?: undefined }
  | { readonly filter?: undefined; readonly problem: string };

/** Longest filter accepted (characters), and most terms. */
export const MAX_FILTER_LENGTH = 200;
export const MAX_FILTER_TERMS = 20;
/** The longest duration a term may name: a year (History keeps at most 90 days). */
const MAX_DURATION_SECONDS = 366 * 24 * 3600;

/** What each view's rows have: a term about something else is explained, not silently matched against nothing. */
const APPLIES: Record<
  FilterView,
  { fields: readonly FieldTerm[]; flags: readonly FlagName[]; duration?: DurationField }
> = {
  processing: {
    fields: ['status', 'flow', 'service', 'id'],
    flags: ['errors', 'webhook', 'stuck', 'watched', 'longer'],
    duration: 'age',
  },
  connections: { fields: ['team', 'type', 'service', 'id'], flags: [] },
  history: { fields: ['status', 'flow', 'service', 'id'], flags: ['errors', 'webhook', 'watched'], duration: 'ran' },
};

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * Parses `input` for `view`. An empty input is the empty filter (it matches everything: Enter on it clears the
 * filter). A malformed input gives a problem sentence (for the input box, a tool's answer, a link's message) and no
 * filter: nothing is applied.
 */
export function parseFilter<V extends FilterView>(input: string, view: V): ParsedFilter<V> {
  if (input.length > MAX_FILTER_LENGTH) {
    return { problem: t('A filter has at most {0} characters.', MAX_FILTER_LENGTH) };
  }
  const source = input.trim();
  const tokens = tokenize(source);
  if (typeof tokens === 'string') return { problem: tokens };
  if (tokens.length > MAX_FILTER_TERMS) {
    return { problem: t('A filter has at most {0} words and terms.', MAX_FILTER_TERMS) };
  }
  const terms: FilterTerm[] = [];
  for (const token of tokens) {
    const term = parseToken(token, view);
    if (typeof term === 'string') return { problem: term };
    if (term) terms.push(term);
  }
  return { filter: { view, source, terms } };
}

/** True when the filter matches every row (no terms). */
export function isEmptyFilter(filter: Filter | undefined): boolean {
  return !filter || filter.terms.length === 0;
}

interface Token {
  readonly negated: boolean;
  /** `name:` or `age>`-style head before the value, when the token has one outside quotes. */
  readonly raw: string;
  /** The token's text with quotes removed. */
  readonly text: string;
  /** True when the whole token (after `-`) was one quoted phrase. */
  readonly quoted: boolean;
}

/** Splits on whitespace outside quotes; `-` before a token negates it. A string is a problem sentence. */
function tokenize(source: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    while (i < source.length && /\s/.test(source[i])) i++;
    if (i >= source.length) break;
    let negated = false;
    if (source[i] === '-') {
      negated = true;
      i++;
    }
    let raw = '';
    let text = '';
    let quotes = 0;
    let inQuote = false;
    while (i < source.length && (inQuote || !/\s/.test(source[i]))) {
      const c = source[i++];
      raw += c;
      if (c === '"') {
        inQuote = !inQuote;
        quotes++;
      } else text += c;
    }
    if (inQuote) return t('A quote is not closed: add the closing ".');
    if (!text && !quotes) return t('Nothing follows "-": write a word or term after it, e.g. -has:errors.');
    if (!text) return t('An empty pair of quotes matches nothing: put words between them.');
    tokens.push({ negated, raw, text, quoted: quotes > 0 && raw.startsWith('"') && raw.endsWith('"') });
  }
  return tokens;
}

/** One token as a term, or a problem sentence. */
function parseToken(token: Token, view: FilterView): FilterTerm | string {
  const { negated } = token;
  if (!token.quoted) {
    const duration = /^(age|ran)\s*([<>])(.*)$/i.exec(token.text);
    if (duration) {
      return durationTerm(
        duration[1].toLowerCase() as DurationField,
        duration[2] as '<' | '>',
        duration[3],
        negated,
        view,
      );
    }
    const head = /^([a-z]+):(.*)$/i.exec(token.raw);
    if (head) {
      const name = head[1].toLowerCase();
      const value = token.text.slice(head[1].length + 1);
      return namedTerm(name, value, negated, view);
    }
  }
  const text = foldForSearch(token.text);
  if (!text) return t('Invisible characters alone match nothing: write a word to look for.');
  return { kind: 'text', text, negated };
}

function namedTerm(name: string, value: string, negated: boolean, view: FilterView): FilterTerm | string {
  const applies = APPLIES[view];
  if (name === 'has' || name === 'is') {
    const values: readonly string[] = name === 'has' ? HAS_VALUES : IS_VALUES;
    const flag = value.toLowerCase();
    if (!values.includes(flag)) return t('{0} takes {1}.', `${name}:`, values.map((v) => `${name}:${v}`).join(', '));
    if (!applies.flags.includes(flag as FlagName)) {
      return t('{0} does not apply to {1}.', `${name}:${flag}`, viewName(view));
    }
    return { kind: 'flag', flag: flag as FlagName, negated };
  }
  if (!(FIELD_TERMS as readonly string[]).includes(name)) {
    return t(
      'Unknown term "{0}:". Terms: {1}. To look for text with a colon, put it in quotes.',
      shown(name),
      [...FIELD_TERMS.map((f) => `${f}:`), 'has:', 'is:', 'age>', 'ran>'].join(' '),
    );
  }
  const field = name as FieldTerm;
  if (!applies.fields.includes(field)) return t('{0} does not apply to {1}.', `${field}:`, viewName(view));
  const text = foldForSearch(value);
  if (!text) return t('{0} needs a value, e.g. {1}.', `${field}:`, example(field));
  if (field === 'id' && !/^\d{1,16}$/.test(text)) return t('id: takes a number, e.g. id:1003.');
  return { kind: 'field', field, text, negated };
}

function durationTerm(
  field: DurationField,
  op: '<' | '>',
  value: string,
  negated: boolean,
  view: FilterView,
): FilterTerm | string {
  if (APPLIES[view].duration !== field) return t('{0} does not apply to {1}.', `${field}${op}`, viewName(view));
  const m = /^(\d{1,6}(?:\.\d{1,3})?)\s*([smhd])$/i.exec(value.trim());
  if (!m) return t('{0} takes a number and a unit (s, m, h, d), e.g. {0}10m.', `${field}${op}`);
  const seconds = Number(m[1]) * UNITS[m[2].toLowerCase()];
  if (!(seconds <= MAX_DURATION_SECONDS)) return t('{0} takes at most {1} days.', `${field}${op}`, 366);
  return { kind: 'duration', field, op, seconds, negated };
}

function example(field: FieldTerm): string {
  return {
    status: 'status:pending',
    flow: 'flow:invoices',
    team: 'team:sales',
    type: 'type:pdf',
    service: 'service:production',
    id: 'id:1003',
  }[field];
}

function viewName(view: FilterView): string {
  return view === 'processing' ? t('Processing') : view === 'connections' ? t('Connections') : t('History');
}

/** A piece of the typed text inside a problem sentence: inert (a link's filter is anybody's text), short, one line. */
function shown(text: string): string {
  return inert(text, 40);
}
