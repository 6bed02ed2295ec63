import * as assert from 'node:assert/strict';
import {
  ANSWER_BOUNDS,
  MAX_COMMAS,
  MAX_CONTAINERS,
  TOO_LARGE,
  boundedJsonText,
  overBounds,
} from '../../../src/api/jsonBounds';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('jsonBounds: one set of bounds for answers and stored files', () => {
  it('a file within the bounds gives its text (without a byte-order mark)', () => {
    assert.deepEqual(boundedJsonText(bytes('\ufeff{"a":[1,2]}')), { text: '{"a":[1,2]}' });
    assert.equal(overBounds(bytes('[]')), undefined);
  });

  it('refuses one the reader found too large, or longer than the byte bound', () => {
    assert.deepEqual(boundedJsonText(TOO_LARGE), { over: 'bytes' });
    assert.deepEqual(boundedJsonText(bytes('[1,2,3]'), { ...ANSWER_BOUNDS, maxBytes: 6 }), { over: 'bytes' });
  });

  it('refuses a deep document, or one of too many objects and arrays, before it is parsed', () => {
    const deep = '['.repeat(MAX_CONTAINERS + 1) + ']'.repeat(MAX_CONTAINERS + 1);
    assert.ok(deep.length < ANSWER_BOUNDS.maxBytes);
    assert.deepEqual(boundedJsonText(bytes(deep)), { over: 'containers' });
    assert.deepEqual(boundedJsonText(bytes(`{"a":[${'{},'.repeat(MAX_CONTAINERS)}{}]}`)), { over: 'containers' });
  });

  it('refuses one of too many values', () => {
    assert.deepEqual(boundedJsonText(bytes(`[${'0,'.repeat(MAX_COMMAS + 1)}0]`)), { over: 'commas' });
  });
});
