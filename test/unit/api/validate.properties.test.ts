/**
 * Property-based tests (fast-check) of validateList: any JSON value or array of anything gives items or an
 * ApiError('invalidResponse'), every entry accounted for, ids unique, the input untouched.
 *
 * fast-check picks a new seed on every run and prints seed, path and the shrunk counterexample on failure; replay one
 * with `fc.assert(property, { seed, path })`.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../src/api/errors';
import type { Connection, FlowSync } from '../../../src/api/types';
import { validateConnection, validateFlowSync } from '../../../src/api/validate';
import { validateList } from '../../../src/api/validateList';
import { connectionLike, flowSyncLike, mixedList } from '../helpers/hostile';

type Kind = 'flowSync' | 'connection';
const kindArb = fc.constantFrom<Kind>('flowSync', 'connection');

function validate(body: unknown, kind: Kind) {
  return kind === 'flowSync'
    ? validateList<FlowSync>(body, validateFlowSync, 'flow syncs')
    : validateList<Connection>(body, validateConnection, 'connections');
}

/** Every entry and, for objects, every own key and value: enough to see that validation did not touch its input. */
function shallowSnapshot(body: unknown): unknown[] {
  if (!Array.isArray(body)) return [body];
  return Array.from(body, (entry) =>
    typeof entry === 'object' && entry !== null
      ? [entry, ...Reflect.ownKeys(entry).flatMap((k) => [k, Reflect.get(entry, k)])]
      : [entry],
  );
}

/**
 * The contract of validateList for any input: a non-array throws ApiError('invalidResponse'); an array (small, as
 * generated here: far below any item cap) gives items + dropped === length, each item's value.id a safe integer
 * equal to raw.id, each raw the very input object, in input order, and the input left as it was.
 */
function checkList(body: unknown, kind: Kind): { ids: number[] } {
  const before = shallowSnapshot(body);
  let result: ReturnType<typeof validate>;
  try {
    result = validate(body, kind);
  } catch (e) {
    assert.ok(e instanceof ApiError, `threw ${String(e)} instead of an ApiError`);
    assert.equal(e.kind, 'invalidResponse');
    assert.ok(e.message.trim().length > 0, 'empty message');
    if (Array.isArray(body)) assert.fail(`a ${body.length}-entry array was refused as a whole: ${e.message}`);
    return { ids: [] };
  }
  assert.ok(Array.isArray(body), 'a body that is not an array must throw');
  assert.equal(result.items.length + result.dropped, body.length, 'items + dropped must account for every entry');
  assert.equal(
    result.dropped > 0,
    typeof result.firstDropReason === 'string' && result.firstDropReason.length > 0,
    'a reason exactly when something was dropped',
  );
  let cursor = 0;
  for (const item of result.items) {
    assert.ok(Number.isSafeInteger(item.value.id), `id ${String(item.value.id)} is not a safe integer`);
    assert.equal(item.value.id, item.raw.id, 'value.id comes from raw.id');
    const at = body.indexOf(item.raw, cursor);
    assert.ok(at >= 0, 'raw is not one of the input objects (or out of input order)');
    cursor = at + 1;
  }
  assert.deepEqual(shallowSnapshot(body), before, 'validation changed its input');
  return { ids: result.items.map((i) => i.value.id) };
}

const VALIDATION_RUNS = 200;

describe('properties: validateList', () => {
  it('any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), kindArb, (body, kind) => void checkList(body, kind)),
      { numRuns: VALIDATION_RUNS },
    );
  });

  it('any JSON text, as JSON.parse gives it (own "__proto__" keys included)', () => {
    const text = fc.oneof(
      fc.json(),
      fc.jsonValue().map((v) => JSON.stringify([v, { __proto__x: 1 }]).replace(/__proto__x/g, '__proto__')),
    );
    fc.assert(
      fc.property(text, kindArb, (json, kind) => void checkList(JSON.parse(json), kind)),
      { numRuns: VALIDATION_RUNS },
    );
  });

  it('arrays of arbitrary objects and values, null prototypes, boxed values and holes included', () => {
    const anything = fc.anything({
      withNullPrototype: true,
      withBoxedValues: true,
      withSparseArray: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withDate: true,
    });
    const body = fc.oneof(
      fc.array(fc.object()),
      fc.array(anything, { maxLength: 20 }),
      fc.sparseArray(anything, { maxLength: 20 }),
      anything,
    );
    fc.assert(
      fc.property(body, kindArb, (b, kind) => void checkList(b, kind)),
      { numRuns: VALIDATION_RUNS },
    );
  });

  it('arrays mixing valid-looking items with wrong, missing and extra fields', () => {
    fc.assert(
      fc.property(mixedList, kindArb, (body, kind) => void checkList(body, kind)),
      { numRuns: VALIDATION_RUNS },
    );
  });

  it('the generators reach both paths: valid-looking items are often kept, often dropped', () => {
    let total = 0;
    let kept = 0;
    const listOfKind = kindArb.chain((kind) =>
      fc.tuple(
        fc.constant(kind),
        fc.array(kind === 'flowSync' ? flowSyncLike : connectionLike, { minLength: 1, maxLength: 10 }),
      ),
    );
    fc.assert(
      fc.property(listOfKind, ([kind, body]) => {
        total += body.length;
        kept += checkList(body, kind).ids.length;
      }),
      // A fixed seed: this checks the generators, not the code, and a share of a few hundred random items wanders
      // around its bounds from one seed to the next (it failed at random: 240 of 966, 250 of 1004).
      { numRuns: VALIDATION_RUNS, seed: 20261123 },
    );
    assert.ok(kept > total / 4 && kept < total * 0.9, `${kept} of ${total} items kept`);
  });

  // Needs the duplicate-id dropping in validateList: fails on d21e1f3 (counterexample: two connections with id 0).
  it('ids are unique within a result, whatever repeats in the input [needs duplicate dropping]', () => {
    fc.assert(
      fc.property(mixedList, kindArb, (body, kind) => {
        const { ids } = checkList(body, kind);
        assert.equal(new Set(ids).size, ids.length, `duplicate ids kept: ${JSON.stringify(ids)}`);
      }),
      { numRuns: VALIDATION_RUNS },
    );
  });
});
