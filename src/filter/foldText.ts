import { lazyRegExp } from '../base/lazyRegExp';

/**
 * Text as the filter compares it: letter case, accents and compatibility forms folded (NFKD, combining marks removed,
 * lower case), invisible and format characters removed, whitespace collapsed. "Café" and "CAFE" fold alike, so do
 * "ﬁle" and "file". Pure. ASCII text (most of what a service sends) takes the quick path, and so does text of the Latin
 * letters, their accents and marks (below U+0370): each such character is folded by a table made on first use from
 * the same steps (`foldSlowly` of the character alone), which gives what the steps give for the whole text: NFKD
 * decomposes character by character, the marks it moves are removed anyway, and no character below U+0370 folds
 * differently by its neighbours (the one that lowers by context, Σ, is Greek, above).
 */
export function foldForSearch(text: string): string {
  let upper = false;
  /** Whitespace to collapse or trim. */
  let spaces = false;
  const last = text.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) continue;
    if (c >= 0x41 && c <= 0x5a) upper = true;
    else if (c === 0x20) {
      if (i === 0 || i === last || text.charCodeAt(i - 1) === 0x20) spaces = true;
    } else if (c < 0x20 || c > 0x7e) return text.length <= LATIN_MAX_LENGTH ? foldLatin(text) : foldSlowly(text);
  }
  const lower = upper ? text.toLowerCase() : text;
  return spaces ? lower.replace(SPACES, ' ').trim() : lower;
}

/**
 * foldForSearch of a text with a character outside printable ASCII: each character by the table, when every one is
 * below LATIN_END, the whitespace collapsed on the way; the steps themselves for any other text.
 */
function foldLatin(text: string): string {
  const { codes, starts } = latinFolds();
  const out = LATIN_OUT;
  let n = 0;
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= LATIN_END) return foldSlowly(text);
    for (let k = starts[c]; k < starts[c + 1]; k++) {
      const code = codes[k];
      if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) {
        space = n > 0;
        continue;
      }
      if (space) {
        out[n++] = 0x20;
        space = false;
      }
      out[n++] = code;
    }
  }
  out.length = n;
  return String.fromCharCode.apply(null, out);
}

/**
 * True when the text folds to itself: printable ASCII without capitals, its spaces single and inside (most statuses,
 * ids, many names). Cheaper than a look-up of its fold.
 */
export function foldsToItself(text: string): boolean {
  const last = text.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) continue;
    if (c === 0x20) {
      if (i === 0 || i === last || text.charCodeAt(i - 1) === 0x20) return false;
    } else if (c < 0x20 || c > 0x7e || (c >= 0x41 && c <= 0x5a)) return false;
  }
  return true;
}

/** The steps themselves, for any text. */
function foldSlowly(text: string): string {
  return text.normalize('NFKD').replace(MARKS_AND_INVISIBLES(), '').toLowerCase().replace(SPACES, ' ').trim();
}

const MARKS_AND_INVISIBLES = lazyRegExp('[\\p{M}\\p{Cf}\\p{Default_Ignorable_Code_Point}]', 'gu');
const SPACES = /\s+/g;
/** The characters the table folds: below the Greek and Coptic block (U+0370). */
const LATIN_END = 0x370;
/** Longer texts take the steps (the table's result is made in one call, with a code per argument). */
const LATIN_MAX_LENGTH = 4_096;
/** The codes of the table's result, reused from text to text. */
const LATIN_OUT: number[] = [];

/**
 * Each character below LATIN_END folded alone, as codes: character c's are codes[starts[c]] to codes[starts[c + 1] - 1]
 * (its whitespace left for foldLatin to collapse; the only whitespace these give is what \s matches below U+0080).
 * A constant made on first use, as lazyRegExp makes one (a chunk with its own copy of this module makes its own).
 */
const latinFolds = (() => {
  let made: { codes: Uint16Array; starts: Uint32Array } | undefined;
  return () => (made ??= latinTable());
})();

function latinTable(): { codes: Uint16Array; starts: Uint32Array } {
  const all: number[] = [];
  const starts = new Uint32Array(LATIN_END + 1);
  for (let c = 0; c < LATIN_END; c++) {
    starts[c] = all.length;
    const folded = String.fromCharCode(c).normalize('NFKD').replace(MARKS_AND_INVISIBLES(), '').toLowerCase();
    for (let i = 0; i < folded.length; i++) all.push(folded.charCodeAt(i));
  }
  starts[LATIN_END] = all.length;
  return { codes: Uint16Array.from(all), starts };
}
