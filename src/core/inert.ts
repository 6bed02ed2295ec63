/**
 * Text that came from outside (the service's answers and headers, a workspace, another extension) is data, never
 * markup. `inert` is the one helper every such text passes through before a person sees it or it reaches the log:
 * - control characters (C0, C1) become spaces; bidi overrides and invisible format characters are removed, so text
 *   cannot reorder or hide what is around it;
 * - link syntax `[label](target)` cannot form (VS Code turns it into a clickable command in notifications), nor a
 *   theme icon `$(name)` (status bar, quick picks, tree descriptions render those), nor HTML or autolinks (`<…>`);
 * - whitespace collapses to one line, and the length is bounded.
 * - `hide` (the API key, where a service might echo it back) is replaced by "•••", in any letter case: in the raw
 *   text before anything else, again after the clean-up (which may join a key split by invisible characters), and a
 *   piece of it left at the end by a length bound is cut too, so not even a prefix survives.
 * It is idempotent: inert(inert(x)) === inert(x).
 */
export function inert(text: unknown, max = MAX_INERT_LENGTH, hide?: string): string {
  let s = typeof text === 'string' ? text : String(text);
  const hidden = hide ? new RegExp(escapeRegExp(hide), 'gi') : undefined;
  if (hidden) s = s.replace(hidden, MASK);
  if (s.length > max * 4) s = s.slice(0, max * 4); // bound the work of the passes below
  s = clean(s);
  if (hidden && hide) {
    s = s.replace(hidden, MASK);
    const cleanHide = clean(hide);
    if (cleanHide !== hide) s = s.replace(new RegExp(escapeRegExp(cleanHide), 'gi'), MASK);
  }
  if (s.length > max) s = `${s.slice(0, max - 1).trimEnd()}…`;
  if (hide) s = cutTrailingPiece(s, [hide, clean(hide)]);
  return s;
}

/** Longest text `inert` returns by default: a sentence or two, never a page. */
export const MAX_INERT_LENGTH = 300;
const MASK = '•••';
/** Shortest piece of a hidden text that is cut from the end: shorter ones say nothing about it. */
const MIN_PIECE = 4;

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
