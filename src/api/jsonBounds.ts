/**
 * The bounds on a JSON document the extension takes in, one mechanism for both ways one arrives: an answer from the
 * service (src/api/http.ts counts it with `JsonCounter` while it streams) and a file read from global storage (the
 * files other windows share, History's segments: `boundedJsonText`). The items of a list, and how deep each nests,
 * are bounded after parsing by validateList (src/api/validate.ts), which both go through too.
 *
 * Sized by measurement (bench "worst answer under the caps"): the costliest document they let through takes under
 * 1 s of extension-host time and 200 MB. 16 MB holds about 60,000 connections of the mock's size (50,000 are
 * 12.9 MB); a normal connection has 3 objects, so 500,000 objects and arrays leave room for meta.
 */
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
export const MAX_CONTAINERS = 500_000;
/** 50,000 connections of the mock's size hold about 580,000 commas; each value costs 8 to 100 bytes once parsed. */
export const MAX_COMMAS = 2_000_000;

export interface JsonBounds {
  /** Bytes the document may have. */
  readonly maxBytes: number;
  /** Objects and arrays it may hold (JSON.parse's cost grows with them). */
  readonly maxContainers: number;
  /** Commas it may hold (values in lists and objects: each costs memory once parsed). */
  readonly maxCommas: number;
}

/** The bounds of an answer from the service, and of every file read from global storage. */
export const ANSWER_BOUNDS: JsonBounds = {
  maxBytes: DEFAULT_MAX_BYTES,
  maxContainers: MAX_CONTAINERS,
  maxCommas: MAX_COMMAS,
};

/** What a stored file's reader found: its bytes, or that it holds more than it was asked for (and was not read). */
export const TOO_LARGE = 'tooLarge';
export type StoredBytes = Uint8Array | typeof TOO_LARGE;

/** The bound a document went over. */
export type JsonBound = 'bytes' | 'containers' | 'commas';

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const COMMA = 0x2c;
const BYTE_ORDER_MARK = 0xfeff;

/**
 * Counts the containers (every `{` and `[` byte) and values (every `,`) of a document chunk by chunk, inside strings
 * too: upper bounds found by a native search, so a hostile document is refused before JSON.parse spends seconds and
 * a gigabyte on it.
 */
export class JsonCounter {
  containers = 0;
  commas = 0;

  constructor(private readonly bounds: Pick<JsonBounds, 'maxContainers' | 'maxCommas'>) {}

  /** Counts one more chunk: the bound the document has now gone over, if any. */
  count(chunk: Uint8Array): Exclude<JsonBound, 'bytes'> | undefined {
    const found = countIn(chunk);
    this.containers += found.containers;
    this.commas += found.commas;
    return countsOver(this, this.bounds);
  }
}

/** The bound a stored file (or a document about to be stored) goes over, if any: checked on its bytes. */
export function overBounds(stored: StoredBytes, bounds: JsonBounds = ANSWER_BOUNDS): JsonBound | undefined {
  if (stored === TOO_LARGE || stored.length > bounds.maxBytes) return 'bytes';
  return new JsonCounter(bounds).count(stored);
}

/**
 * A stored file's text when it is within `bounds` (checked on the bytes, before they are decoded or parsed; a leading
 * byte-order mark is dropped), else the bound it goes over. The reader has already refused to read more than
 * `bounds.maxBytes` (TOO_LARGE).
 */
export function boundedJsonText(
  stored: StoredBytes,
  bounds: JsonBounds = ANSWER_BOUNDS,
): { text: string } | { over: JsonBound } {
  const over = overBounds(stored, bounds);
  if (over || stored === TOO_LARGE) return { over: over ?? 'bytes' };
  const text = new TextDecoder('utf-8').decode(stored);
  return { text: text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text };
}

export interface Counts {
  containers: number;
  commas: number;
}

/** The bound `counts` go over, if any: the containers first, as JsonCounter checks them. */
export function countsOver(
  counts: Counts,
  bounds: Pick<JsonBounds, 'maxContainers' | 'maxCommas'>,
): Exclude<JsonBound, 'bytes'> | undefined {
  return counts.containers > bounds.maxContainers
    ? 'containers'
    : counts.commas > bounds.maxCommas
      ? 'commas'
      : undefined;
}

/** The containers and commas JsonCounter would count in `bytes` (at once, with no bound). */
export function countIn(bytes: Uint8Array): Counts {
  return { containers: countByte(bytes, OPEN_BRACE) + countByte(bytes, OPEN_BRACKET), commas: countByte(bytes, COMMA) };
}

/** How often `byte` occurs in `buffer` (indexOf is native: far faster than a loop over bytes). */
function countByte(buffer: Uint8Array, byte: number): number {
  let count = 0;
  for (let at = buffer.indexOf(byte); at !== -1; at = buffer.indexOf(byte, at + 1)) count++;
  return count;
}
