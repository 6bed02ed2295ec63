import type { Hasher } from '../env/types';
import { countIn, type Counts } from './jsonBounds';

/**
 * The bytes of an answer as read (one contiguous array), with what was counted in them and their fingerprint: kept
 * by the client as `previous` for the next request, so that an answer that differs from it in a few places is
 * counted and hashed only where it differs (see sharedEnds).
 */
export interface AnswerBytes {
  readonly data: Uint8Array;
  readonly bytes: number;
  readonly containers: number;
  readonly commas: number;
  /** Where each block of the fingerprint ends (blockEnd), and each block's digest. */
  readonly blockEnds: readonly number[];
  readonly digests: readonly string[];
  readonly fingerprint: string;
}

/** Compares two equal-length byte ranges natively (Platform.sameBytes). */
export type SameBytes = (a: Uint8Array, b: Uint8Array) => boolean;

/** The chunks read, as one array (the chunk itself when there is one). */
export function joinChunks(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const all = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/**
 * How `data` differs from `previous`: the length of the bytes they begin with (`prefix`) and end with (`suffix`),
 * never overlapping (prefix + suffix ≤ the shorter length), found by native comparison. `data` is `previous` with
 * `previous[prefix, previous.length - suffix)` replaced by `data[prefix, data.length - suffix)`.
 */
export function sharedEnds(
  previous: Uint8Array,
  data: Uint8Array,
  same: SameBytes,
): { prefix: number; suffix: number } {
  const shorter = Math.min(previous.length, data.length);
  const prefix = matchingLength(shorter, (from, to) => same(previous.subarray(from, to), data.subarray(from, to)));
  const a = previous.length;
  const b = data.length;
  const suffix = matchingLength(shorter - prefix, (from, to) =>
    same(previous.subarray(a - to, a - from), data.subarray(b - to, b - from)),
  );
  return { prefix, suffix };
}

const COMPARE_STEP = 64 * 1024;

/**
 * The largest n ≤ limit such that `equal(0, n)`, where equal(from, to) compares the ranges [from, to) of both sides:
 * steps of COMPARE_STEP, then a binary search within the step that differs.
 */
function matchingLength(limit: number, equal: (from: number, to: number) => boolean): number {
  for (let at = 0; at < limit;) {
    const end = Math.min(at + COMPARE_STEP, limit);
    if (equal(at, end)) {
      at = end;
      continue;
    }
    // [at, low) equal; a difference within [low, high)
    let low = at;
    let high = end;
    while (high - low > 1) {
      const mid = (low + high) >>> 1;
      if (equal(low, mid)) low = mid;
      else high = mid;
    }
    return low;
  }
  return Math.max(limit, 0);
}

/**
 * The counts of `data` from those of `previous` and the bytes that differ (sharedEnds): exact, as counting all of
 * `data` would give, at the cost of the differing bytes only.
 */
export function countsAfterEdit(previous: AnswerBytes, data: Uint8Array, prefix: number, suffix: number): Counts {
  const gone = countIn(previous.data.subarray(prefix, previous.bytes - suffix));
  const added = countIn(data.subarray(prefix, data.length - suffix));
  return {
    containers: previous.containers - gone.containers + added.containers,
    commas: previous.commas - gone.commas + added.commas,
  };
}

/** Sizes of the fingerprint's blocks (bytes); parameters so that tests can use small blocks. */
export interface BlockSizes {
  min: number;
  max: number;
}

export const BLOCK_SIZES: BlockSizes = { min: 64 * 1024, max: 256 * 1024 };

/**
 * Where the block that starts at `start` ends: at the first `{` at least `min` bytes after its start, else `max`
 * bytes after it, and never past the end. The cut depends on the bytes, not on their offsets: after an edit that
 * changes an answer's length, the blocks after the edit soon end at the same bytes as before, and keep their digests.
 */
export function blockEnd(data: Uint8Array, start: number, sizes: BlockSizes): number {
  const limit = Math.min(start + sizes.max, data.length);
  if (start + sizes.min >= limit) return limit;
  const at = data.subarray(start + sizes.min, limit).indexOf(0x7b /* { */);
  return at === -1 ? limit : start + sizes.min + at;
}

/**
 * The fingerprint of `data`: the digest of its one block, or the digest of its blocks' digests. A function of the
 * bytes alone (equal bytes, equal fingerprints, however they were read). With `edit` (`data` is `edit.previous`
 * with the bytes between `prefix` and `suffix` replaced, see sharedEnds), the blocks that lie in the bytes both share,
 * at the same place in the blocking, keep their digests: only the blocks around the edit are hashed.
 */
export function fingerprintBlocks(
  data: Uint8Array,
  createHasher: () => Hasher,
  edit?: { previous: AnswerBytes; prefix: number; suffix: number },
  sizes: BlockSizes = BLOCK_SIZES,
): { blockEnds: number[]; digests: string[]; fingerprint: string } {
  const blockEnds: number[] = [];
  const digests: string[] = [];
  let start = 0;
  let resume: (() => boolean) | undefined;
  if (edit) {
    const { previous, prefix, suffix } = edit;
    // Blocks that end before the first difference (their cut byte included) are the same blocks.
    for (let i = 0; i < previous.blockEnds.length && previous.blockEnds[i] < prefix; i++) {
      blockEnds.push(previous.blockEnds[i]);
      digests.push(previous.digests[i]);
      start = previous.blockEnds[i];
    }
    // A block that starts inside the shared end, where one of the previous blocks started, begins the same blocks.
    const shift = previous.bytes - data.length;
    let next = 0;
    resume = () => {
      if (start < data.length - suffix) return false;
      const before = start + shift;
      while (next < previous.blockEnds.length && previous.blockEnds[next] < before) next++;
      if (previous.blockEnds[next] !== before) return false;
      for (let i = next + 1; i < previous.blockEnds.length; i++) {
        blockEnds.push(previous.blockEnds[i] - shift);
        digests.push(previous.digests[i]);
      }
      return true;
    };
  }
  while (start < data.length && !resume?.()) {
    const end = blockEnd(data, start, sizes);
    const hash = createHasher();
    hash.update(data.subarray(start, end));
    blockEnds.push(end);
    digests.push(hash.digest());
    start = end;
  }
  return { blockEnds, digests, fingerprint: combine(digests, createHasher) };
}

function combine(digests: readonly string[], createHasher: () => Hasher): string {
  if (digests.length === 1) return digests[0];
  const hash = createHasher();
  hash.update(new TextEncoder().encode(digests.join('\n')));
  return hash.digest();
}
