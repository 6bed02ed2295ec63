import { lazyRegExp } from './lazyRegExp';

/**
 * Text that came from outside (the service's answers and headers, a workspace, another extension) is data, never
 * markup. `inert` is the one helper every such text passes through before a person sees it or it reaches the log:
 * - control characters (C0, C1) become spaces; bidi overrides and every invisible character (format characters,
 *   default-ignorable code points) are removed, so text cannot reorder or hide what is around it, nor carry unseen words;
 * - link syntax `[label](target)` cannot form (VS Code turns it into a clickable command in notifications), nor a
 *   theme icon `$(name)` (status bar, quick picks, tree descriptions render those), nor HTML or autolinks (`<…>`);
 * - whitespace collapses to one line, and the length is bounded.
 * - `hide` (the API key, where a service might echo it back) is masked before the text is cut (see `bounded`), and
 *   again after the clean-up (which may join a key split by invisible characters).
 * It is idempotent: inert(inert(x)) === inert(x).
 */
export function inert(text: unknown, max = MAX_INERT_LENGTH, hide?: string): string {
  return maskThenCut(typeof text === 'string' ? text : String(text), max, hide ?? secretToHide(), clean);
}

/**
 * The secret every `inert` and `bounded` text masks when the caller names none: the API key of every service, set
 * once by the service registry (src/services/vscode/serviceRegistry.ts, keysToHide). So no row, description, tooltip,
 * quick pick, notification or log line shows an echoed key or a piece of it, whichever view made the text, without
 * each call site having to pass it.
 */
export function hideEverywhere(secret: () => string | readonly string[] | undefined): void {
  secretToHide = secret;
}
let secretToHide: () => string | readonly string[] | undefined = () => undefined;

/**
 * Service text kept as it came (a created_at, a failure message shared with other windows), bounded to `max`
 * characters: "mask, then cut", like `inert` without the clean-up. Every cut of service text goes through one of the
 * two, so a key that straddles the cut cannot leave its first half behind: `hide` (the API key) is masked first, in
 * any letter case, whole or any 8-character piece of it (see `hasKeyPiece`); then the text is cut; then a beginning
 * of the key (4 characters or more) left at the very end is masked too.
 */
export function bounded(text: string, max: number, hide?: string): string {
  return maskThenCut(text, max, hide ?? secretToHide(), (s) => s);
}

/**
 * True when `text` holds `key` or any KEY_PIECE-character piece of it, in any letter case, as written or as JSON
 * writes it (the check before a file is written: a piece of the key says too much of it). A key shorter than
 * KEY_PIECE characters is looked for whole: a shorter piece would match ordinary words.
 */
export function hasKeyPiece(text: string, key: string | undefined): boolean {
  return !!key && holdsPiece(text.toLowerCase(), matcherFor([key]));
}

/** Longest text `inert` returns by default: a sentence or two, never a page. */
const MAX_INERT_LENGTH = 300;
/** The length of a piece of the key that is masked in text and refused on disk. */
const KEY_PIECE = 8;
const MASK = '•••';
/** Shortest beginning of the key that is masked at the end of a cut text: shorter ones say nothing about it. */
const MIN_PIECE = 4;

/** `hide` is one key, or the keys of several services (all masked at once, by one matcher: see `matcherFor`). */
function maskThenCut(
  s: string,
  max: number,
  hide: string | readonly string[] | undefined,
  tidy: (s: string) => string,
): string {
  const keys = typeof hide === 'string' ? (hide ? [hide] : []) : (hide ?? []).filter((key) => key.length > 0);
  const matcher = keys.length ? matcherFor(keys) : undefined;
  if (matcher) s = maskKeys(s, matcher);
  if (s.length > max * 4) s = s.slice(0, max * 4); // bound the work of the passes below
  const tidied = tidy(s);
  const changed = tidied !== s;
  s = tidied;
  if (changed && matcher) s = maskKeys(s, matcher);
  if (s.length > max) s = tidy === clean ? `${s.slice(0, max - 1).trimEnd()}…` : s.slice(0, max);
  return matcher ? cutTrailingPiece(s, matcher) : s;
}

/** The ways a key can appear: as it is, as JSON writes it, and as the clean-up of `inert` leaves it. */
function keyForms(key: string): string[] {
  return [...new Set([key, JSON.stringify(key).slice(1, -1), clean(key)])].filter((form) => form.length > 0);
}

/**
 * Every key of a set of keys, looked for at once: made once per set (see `matcherFor`), so a text is scanned once
 * whatever the number of services, and a call costs about what it costs with one key.
 */
interface KeyMatcher {
  /**
   * Short runs (ANCHOR characters, lower case) of every form longer than KEY_PIECE, each with where it sits in its form
   * and the pieces that hold it (with where they start in the form): every piece holds one anchor whole, so a text is
   * scanned for the anchors, not for every piece (a 32-character key has 25 pieces, 20 keys 500).
   */
  readonly anchors: Map<string, Array<{ at: number; pieces: Array<[string, number]> }>>;
  /** One flag per hash of an anchor's first two characters (see `pairHash`): most places in a text are passed over on it. */
  readonly starts: Uint8Array;
  /** The forms of KEY_PIECE characters or fewer (lower case): each is its own piece, looked for whole. */
  readonly short: string[];
  /** Every piece of every key, longest first (so a longer one wins where two start), any letter case (Unicode case folding: the Kelvin sign is a k). */
  readonly pattern: RegExp;
  /** Every form longer than MIN_PIECE (lower case), by its first MIN_PIECE characters: the beginnings a cut can leave. */
  readonly beginnings: Map<string, string[]>;
  /** Every run of MIN_PIECE characters of those forms: a text whose last ones are none of them ends with no beginning. */
  readonly ends: Set<string>;
  /** The length of the longest form. */
  readonly longest: number;
}

/**
 * The matcher of a set of keys, made once: the last set used is checked first (a window hands the same keys to every
 * call), then a few recent ones (`hasKeyPiece` checks one key at a time between them).
 */
function matcherFor(keys: readonly string[]): KeyMatcher {
  if (lastKeys && lastKeys.length === keys.length && lastKeys.every((key, i) => key === keys[i])) {
    return lastMatcher as KeyMatcher;
  }
  const id = keys.map((key) => `${key.length}:${key}`).join('');
  let matcher = recent.get(id);
  if (matcher) recent.delete(id);
  else matcher = makeMatcher(keys);
  recent.set(id, matcher); // the newest last: the first one is the one used longest ago
  if (recent.size > RECENT_MATCHERS) recent.delete(recent.keys().next().value as string);
  lastKeys = [...keys];
  lastMatcher = matcher;
  return matcher;
}
const RECENT_MATCHERS = 8;
const recent = new Map<string, KeyMatcher>();
let lastKeys: readonly string[] | undefined;
let lastMatcher: KeyMatcher | undefined;
let built = 0;

/** How many matchers of keys were made since the process started (for tests: none is made per call). */
export function matchersBuilt(): number {
  return built;
}

function makeMatcher(keys: readonly string[]): KeyMatcher {
  built++;
  const forms = [...new Set(keys.flatMap(keyForms))];
  const lowerForms = [...new Set(forms.map((form) => form.toLowerCase()))];
  const anchors: KeyMatcher['anchors'] = new Map();
  const starts = new Uint8Array(PAIR_HASHES);
  const short: string[] = [];
  const beginnings: KeyMatcher['beginnings'] = new Map();
  const ends = new Set<string>();
  for (const form of lowerForms) {
    if (form.length > MIN_PIECE) {
      const start = form.slice(0, MIN_PIECE);
      beginnings.set(start, [...(beginnings.get(start) ?? []), form]);
      for (let at = 0; at + MIN_PIECE < form.length; at++) ends.add(form.slice(at, at + MIN_PIECE));
    }
    if (form.length <= KEY_PIECE) {
      short.push(form);
      continue;
    }
    for (const { anchor, at, pieces } of anchorsOf(form)) {
      const list = anchors.get(anchor);
      if (list) list.push({ at, pieces });
      else anchors.set(anchor, [{ at, pieces }]);
      starts[pairHash(anchor.charCodeAt(0), anchor.charCodeAt(1))] = 1;
    }
  }
  const all = [...new Set(forms.flatMap(pieces))].sort((a, b) => b.length - a.length);
  return {
    anchors,
    starts,
    short,
    pattern: new RegExp(all.map(escapeRegExp).join('|'), 'giu'),
    beginnings,
    ends,
    longest: Math.max(...lowerForms.map((form) => form.length)),
  };
}

/** The pieces of a key that are looked for: every KEY_PIECE-character window, or the whole key when shorter. */
function pieces(key: string): string[] {
  if (key.length <= KEY_PIECE) return [key];
  const all = new Set<string>();
  for (let i = 0; i + KEY_PIECE <= key.length; i++) all.add(key.slice(i, i + KEY_PIECE));
  return [...all];
}

/**
 * Runs of ANCHOR characters every ANCHOR_STEP characters of a lower-case form longer than KEY_PIECE: every
 * KEY_PIECE-character window holds one whole (ANCHOR_STEP + ANCHOR - 1 <= KEY_PIECE).
 */
function anchorsOf(form: string): Array<{ anchor: string; at: number; pieces: Array<[string, number]> }> {
  const anchors = [];
  for (let at = 0; at + ANCHOR <= form.length; at += ANCHOR_STEP) {
    const holding: Array<[string, number]> = [];
    for (
      let offset = Math.max(0, at + ANCHOR - KEY_PIECE);
      offset <= at && offset + KEY_PIECE <= form.length;
      offset++
    ) {
      holding.push([form.slice(offset, offset + KEY_PIECE), offset]);
    }
    anchors.push({ anchor: form.slice(at, at + ANCHOR), at, pieces: holding });
  }
  return anchors;
}
const ANCHOR = 5;
const ANCHOR_STEP = 4;
const PAIR_HASHES = 1 << 16;
const pairHash = (a: number, b: number) => ((a << 7) ^ b) & (PAIR_HASHES - 1);

/** True when the lower-case `lower` holds a piece of any of the matcher's keys: one pass over the text. */
function holdsPiece(lower: string, matcher: KeyMatcher): boolean {
  for (const form of matcher.short) if (lower.includes(form)) return true;
  if (!matcher.anchors.size) return false;
  const { anchors, starts } = matcher;
  for (let hit = 0, end = lower.length - ANCHOR; hit <= end; hit++) {
    if (!starts[pairHash(lower.charCodeAt(hit), lower.charCodeAt(hit + 1))]) continue;
    const found = anchors.get(lower.slice(hit, hit + ANCHOR));
    if (!found) continue;
    for (const { at, pieces } of found) {
      if (pieces.some(([piece, offset]) => hit >= at - offset && lower.startsWith(piece, hit - (at - offset)))) {
        return true;
      }
    }
  }
  return false;
}

/** Replaces each run of text made of the keys' pieces (any letter case, of one key or several) by one MASK. */
function maskKeys(s: string, matcher: KeyMatcher): string {
  if (!holdsPiece(s.toLowerCase(), matcher)) return s;
  const { pattern } = matcher;
  pattern.lastIndex = 0;
  const spans: Array<[number, number]> = [];
  for (let m = pattern.exec(s); m; m = pattern.exec(s)) {
    const end = m.index + m[0].length;
    const previous = spans[spans.length - 1];
    if (previous && m.index <= previous[1]) previous[1] = Math.max(previous[1], end);
    else spans.push([m.index, end]);
    pattern.lastIndex = m.index + 1; // pieces overlap: look again one character on
  }
  if (!spans.length) return s;
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += `${s.slice(at, start)}${MASK}`;
    at = end;
  }
  return out + s.slice(at);
}

function clean(s: string): string {
  return s
    .replace(CONTROLS, ' ')
    .replace(INVISIBLE(), '')
    .replace(LINK_JOIN, '] (')
    .replace(ICON_START, '$ (')
    .replace(/</g, '‹')
    .replace(/>/g, '›')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Removes the longest beginning (MIN_PIECE characters or more, any letter case) of any of the keys' forms that the text
 * ends with, before a closing "…". Only the last characters are looked at, each end found by its first characters.
 */
function cutTrailingPiece(s: string, matcher: KeyMatcher): string {
  if (!matcher.beginnings.size) return s;
  const ellipsis = s.endsWith('…') ? '…' : '';
  const body = ellipsis ? s.slice(0, -1) : s;
  const lower = body.slice(-(matcher.longest - 1)).toLowerCase();
  if (!matcher.ends.has(lower.slice(-MIN_PIECE))) return s;
  for (let n = lower.length; n >= MIN_PIECE; n--) {
    const from = lower.length - n;
    const forms = matcher.beginnings.get(lower.slice(from, from + MIN_PIECE));
    if (forms?.some((form) => form.length > n && lower.startsWith(form.slice(0, n), from))) {
      return `${body.slice(0, -n)}${MASK}${ellipsis}`;
    }
  }
  return s;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/**
 * Every format character (Cf: bidi embeddings, overrides, isolates and marks, zero-width characters, the BOM, the soft
 * hyphen, the tag block U+E0000–E007F that can spell a message nobody sees) and every default-ignorable code point
 * (variation selectors, U+034F, U+180E, Hangul fillers), and the blank braille pattern U+2800: none shows, so none is
 * kept where it could hide text or tell two look-alike names apart.
 */
const INVISIBLE = lazyRegExp('[\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2800]', 'gu');
/** `](` with any whitespace between: the joint of a Markdown link. */
const LINK_JOIN = /\]\s*\(/g;
/** `$(` with any whitespace between: the start of a theme icon. */
const ICON_START = /\$\s*\(/g;
