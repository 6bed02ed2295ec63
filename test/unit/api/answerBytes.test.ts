/**
 * The answer's bytes compared with the last answer's: counts and fingerprint from the bytes that differ must be
 * exactly those of a count and hash of every byte (property tests with fast-check, small blocks so that an answer
 * has many), and must actually skip the bytes both share.
 *
 * fast-check picks a new seed on every run and prints seed, path and the shrunk counterexample on failure; replay one
 * with `fc.assert(property, { seed, path })`.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  BLOCK_SIZES,
  blockEnd,
  countsAfterEdit,
  fingerprintBlocks,
  joinChunks,
  sharedEnds,
  type AnswerBytes,
  type BlockSizes,
} from '../../../src/api/answerBytes';
import { countIn } from '../../../src/api/jsonBounds';
import { nodePlatform } from '../../../src/env/node/platform';

const same = nodePlatform.sameBytes!;
const SMALL: BlockSizes = { min: 16, max: 64 };
/** Blocks of a few bytes: an edit often ends right at a cut. */
const TINY: BlockSizes = { min: 2, max: 5 };

/** Counts the bytes hashed. */
function hashing() {
  const seen = { bytes: 0 };
  const createHasher = () => {
    const hash = nodePlatform.createHasher();
    return {
      update: (chunk: Uint8Array) => ((seen.bytes += chunk.length), hash.update(chunk)),
      digest: () => hash.digest(),
    };
  };
  return { seen, createHasher };
}

function answerOf(data: Uint8Array, sizes: BlockSizes): AnswerBytes {
  return {
    data,
    bytes: data.length,
    ...countIn(data),
    ...fingerprintBlocks(data, nodePlatform.createHasher, undefined, sizes),
  };
}

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

/** JSON-like bytes, rich in the bytes that are counted and cut at. */
const jsonish = (maxLength: number) =>
  fc.array(fc.constantFrom(...'{{}[],,,"a1: '.split('')), { maxLength }).map((cs) => bytes(cs.join('')));

/** An answer and the next one: the first with some ranges replaced (renamed, added, removed bytes). */
const answerAndEdit = fc
  .tuple(jsonish(2000), fc.array(fc.tuple(fc.nat(), fc.nat(40), jsonish(40)), { minLength: 0, maxLength: 3 }))
  .map(([before, edits]) => {
    let after: Uint8Array = before;
    for (const [at, cut, put] of edits) {
      const start = after.length ? at % (after.length + 1) : 0;
      after = joinChunks(
        [after.subarray(0, start), put, after.subarray(Math.min(after.length, start + cut))],
        after.length - Math.min(cut, after.length - start) + put.length,
      );
    }
    return { before, after };
  });

describe('answer bytes: compared with the last answer', () => {
  it('sharedEnds finds the longest shared beginning, then the longest shared end in what is left', () => {
    fc.assert(
      fc.property(answerAndEdit, ({ before, after }) => {
        const { prefix, suffix } = sharedEnds(before, after, same);
        const shorter = Math.min(before.length, after.length);
        assert.ok(prefix + suffix <= shorter);
        assert.deepEqual(after.subarray(0, prefix), before.subarray(0, prefix));
        assert.ok(prefix === shorter || before[prefix] !== after[prefix], 'the beginning is the longest');
        assert.deepEqual(after.subarray(after.length - suffix), before.subarray(before.length - suffix));
        assert.ok(
          prefix + suffix === shorter || before[before.length - suffix - 1] !== after[after.length - suffix - 1],
          'the end is the longest',
        );
      }),
      { numRuns: 300 },
    );
  });

  it('counts from the bytes that differ equal a count of every byte', () => {
    fc.assert(
      fc.property(answerAndEdit, ({ before, after }) => {
        const { prefix, suffix } = sharedEnds(before, after, same);
        assert.deepEqual(countsAfterEdit(answerOf(before, SMALL), after, prefix, suffix), countIn(after));
      }),
      { numRuns: 300 },
    );
  });

  it('the fingerprint from the blocks that differ equals the fingerprint of every byte, block for block', () => {
    fc.assert(
      fc.property(answerAndEdit, fc.constantFrom(SMALL, TINY), ({ before, after }, sizes) => {
        const { prefix, suffix } = sharedEnds(before, after, same);
        const edited = fingerprintBlocks(
          after,
          nodePlatform.createHasher,
          { previous: answerOf(before, sizes), prefix, suffix },
          sizes,
        );
        assert.deepEqual(edited, fingerprintBlocks(after, nodePlatform.createHasher, undefined, sizes));
      }),
      { numRuns: 1000 },
    );
  });

  it('the blocks cover every byte in order, and each digest is the hash of its bytes', () => {
    fc.assert(
      fc.property(answerAndEdit, fc.constantFrom(SMALL, TINY), ({ before, after }, sizes) => {
        const { prefix, suffix } = sharedEnds(before, after, same);
        const { blockEnds, digests, fingerprint } = fingerprintBlocks(
          after,
          nodePlatform.createHasher,
          { previous: answerOf(before, sizes), prefix, suffix },
          sizes,
        );
        assert.equal(blockEnds.length, digests.length);
        let start = 0;
        blockEnds.forEach((end, i) => {
          assert.ok(end > start && end === blockEnd(after, start, sizes), `block ${i} ends at ${end}`);
          const hash = nodePlatform.createHasher();
          hash.update(after.subarray(start, end));
          assert.equal(digests[i], hash.digest(), `digest of block ${i}`);
          start = end;
        });
        assert.equal(start, after.length, 'every byte is in a block');
        if (digests.length === 1) assert.equal(fingerprint, digests[0]);
      }),
      { numRuns: 500 },
    );
  });

  it('different bytes have different fingerprints; equal bytes the same, however they are blocked', () => {
    fc.assert(
      fc.property(answerAndEdit, ({ before, after }) => {
        const a = fingerprintBlocks(before, nodePlatform.createHasher, undefined, SMALL).fingerprint;
        const b = fingerprintBlocks(after, nodePlatform.createHasher, undefined, SMALL).fingerprint;
        assert.equal(a === b, Buffer.from(before).equals(after));
      }),
      { numRuns: 300 },
    );
  });

  it('blocks end at a `{` at least `min` bytes in, else `max` bytes in, never past the end', () => {
    const data = bytes(`${'a'.repeat(20)}{${'b'.repeat(100)}`);
    assert.equal(blockEnd(data, 0, SMALL), 20);
    assert.equal(blockEnd(data, 20, SMALL), 84, 'no `{` after min: cut at max');
    assert.equal(blockEnd(data, 84, SMALL), data.length);
    assert.equal(blockEnd(bytes('{{{{'), 0, SMALL), 4);
  });

  it('an answer that renames one item of 2 MB hashes about two blocks, not the answer, and counts only the rename', () => {
    const item = (i: number, name: string) =>
      `{"id":${i},"name":"${name}","type":"http","team":{"id":${i % 50},"name":"Team"},"meta":{}}`;
    const list = (renamed: string) =>
      `[${Array.from({ length: 20_000 }, (_v, i) => item(i, i === 9_000 ? renamed : `Connection ${i}`)).join(',')}]`;
    const before = answerOf(bytes(list('Connection 9000')), BLOCK_SIZES);
    const after = bytes(list('Connection 9000 (renamed)'));
    assert.ok(before.blockEnds.length > 10, `many blocks: ${before.blockEnds.length}`);
    const { prefix, suffix } = sharedEnds(before.data, after, same);
    assert.equal(after.length - prefix - suffix, ' (renamed)'.length);
    const { seen, createHasher } = hashing();
    const edited = fingerprintBlocks(after, createHasher, { previous: before, prefix, suffix });
    assert.ok(
      seen.bytes <= 2 * BLOCK_SIZES.max + 64 * edited.digests.length,
      `hashed ${seen.bytes} of ${after.length} bytes`,
    );
    assert.equal(edited.fingerprint, fingerprintBlocks(after, nodePlatform.createHasher).fingerprint);
    assert.notEqual(edited.fingerprint, before.fingerprint);
  });
});
