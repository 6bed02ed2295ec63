/**
 * Text that came from outside (the service's answers and headers, a workspace, another extension) is data, never
 * markup. `inert` is the one helper every such text passes through before a person sees it or it reaches the log:
 * - control characters (C0, C1) become spaces; bidi overrides and invisible format characters are removed, so text
 *   cannot reorder or hide what is around it;
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
 * The secret every `inert` and `bounded` text masks when the caller names none: the API key of the service in use,
 * set once by activate(). So no row, description, tooltip, quick pick, notification or log line shows an echoed key
 * or a piece of it, whichever view made the text, without each call site having to pass it.
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
  if (!key) return false;
  const lower = text.toLowerCase();
  for (const { anchor, at, pieces } of keyPieces(key).anchors) {
    for (let hit = lower.indexOf(anchor); hit >= 0; hit = lower.indexOf(anchor, hit + 1)) {
      if (pieces.some(([piece, offset]) => hit >= at - offset && lower.startsWith(piece, hit - (at - offset)))) return true;
    }
  }
  return false;
}

/** Longest text `inert` returns by default: a sentence or two, never a page. */
export const MAX_INERT_LENGTH = 300;
/** The length of a piece of the key that is masked in text and refused on disk. */
const KEY_PIECE = 8;
const MASK = '•••';
/** Shortest beginning of the key that is masked at the end of a cut text: shorter ones say nothing about it. */
const MIN_PIECE = 4;

/** `hide` is one key, or the keys of several services (each masked the same way). */
function maskThenCut(s: string, max: number, hide: string | readonly string[] | undefined, tidy: (s: string) => string): string {
  const keys = (typeof hide === 'string' ? [hide] : (hide ?? [])).filter((key) => key.length > 0);
  for (const key of keys) s = maskKey(s, key);
  if (s.length > max * 4) s = s.slice(0, max * 4); // bound the work of the passes below
  const tidied = tidy(s);
  const changed = tidied !== s;
  s = tidied;
  if (changed) for (const key of keys) s = maskKey(s, key);
  if (s.length > max) s = tidy === clean ? `${s.slice(0, max - 1).trimEnd()}…` : s.slice(0, max);
  for (const key of keys) s = cutTrailingPiece(s, keyPieces(key).forms);
  return s;
}

/** The ways a key can appear: as it is, as JSON writes it, and as the clean-up of `inert` leaves it. */
function keyForms(key: string): string[] {
  return [...new Set([key, JSON.stringify(key).slice(1, -1), clean(key)])].filter((form) => form.length > 0);
}

interface KeyPieces {
  readonly key: string;
  readonly forms: string[];
  /**
   * Short runs of each form (lower case) every piece holds one of, with the pieces that hold each (and where they
   * start in the form): text is scanned for the few anchors, not for every piece (a 32-character key has 25).
   */
  readonly anchors: Array<{ anchor: string; at: number; pieces: Array<[string, number]> }>;
  /** Any of them, any letter case (Unicode case folding: the Kelvin sign is a k). */
  readonly pattern: RegExp;
}

/** The forms and pieces of a key, made once per key (the last key's are kept: a window uses one key at a time). */
function keyPieces(key: string): KeyPieces {
  if (last?.key !== key) {
    const forms = keyForms(key);
    const all = [...new Set(forms.flatMap(pieces))];
    last = { key, forms, anchors: forms.flatMap((form) => anchorsOf(form.toLowerCase())), pattern: new RegExp(all.map(escapeRegExp).join('|'), 'giu') };
  }
  return last;
}
let last: KeyPieces | undefined;

/** The pieces of a key that are looked for: every KEY_PIECE-character window, or the whole key when shorter. */
function pieces(key: string): string[] {
  if (key.length <= KEY_PIECE) return [key];
  const all = new Set<string>();
  for (let i = 0; i + KEY_PIECE <= key.length; i++) all.add(key.slice(i, i + KEY_PIECE));
  return [...all];
}

/**
 * Runs of ANCHOR characters every ANCHOR_STEP characters of a lower-case form: every KEY_PIECE-character window holds
 * one whole (ANCHOR_STEP + ANCHOR - 1 <= KEY_PIECE). A form shorter than KEY_PIECE is its own anchor.
 */
function anchorsOf(form: string): KeyPieces['anchors'] {
  if (form.length <= KEY_PIECE) return [{ anchor: form, at: 0, pieces: [[form, 0]] }];
  const anchors: KeyPieces['anchors'] = [];
  for (let at = 0; at + ANCHOR <= form.length; at += ANCHOR_STEP) {
    const holding: Array<[string, number]> = [];
    for (let offset = Math.max(0, at + ANCHOR - KEY_PIECE); offset <= at && offset + KEY_PIECE <= form.length; offset++) holding.push([form.slice(offset, offset + KEY_PIECE), offset]);
    anchors.push({ anchor: form.slice(at, at + ANCHOR), at, pieces: holding });
  }
  return anchors;
}
const ANCHOR = 5;
const ANCHOR_STEP = 4;

/** Replaces each run of text made of the key's pieces (any letter case) by one MASK. */
function maskKey(s: string, key: string): string {
  if (!hasKeyPiece(s, key)) return s;
  const { pattern } = keyPieces(key);
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
    .replace(INVISIBLE, '')
    .replace(LINK_JOIN, '] (')
    .replace(ICON_START, '$ (')
    .replace(/</g, '‹')
    .replace(/>/g, '›')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Removes a beginning of any of `hidden` (any letter case) that the text ends with, before a closing "…". */
function cutTrailingPiece(s: string, hidden: string[]): string {
  const ellipsis = s.endsWith('…') ? '…' : '';
  const body = ellipsis ? s.slice(0, -1) : s;
  const lower = body.toLowerCase();
  for (const h of hidden) {
    const lowerHidden = h.toLowerCase();
    for (let n = Math.min(h.length - 1, body.length); n >= MIN_PIECE; n--) {
      if (lower.endsWith(lowerHidden.slice(0, n))) return `${body.slice(0, -n)}${MASK}${ellipsis}`;
    }
  }
  return s;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/** Bidi embeddings, overrides and isolates, marks, zero-width characters and the BOM. */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
/** `](` with any whitespace between: the joint of a Markdown link. */
const LINK_JOIN = /\]\s*\(/g;
/** `$(` with any whitespace between: the start of a theme icon. */
const ICON_START = /\$\s*\(/g;
