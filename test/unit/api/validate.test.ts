import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { validateConnection, validateFlowSync, MAX_ITEM_DEPTH } from '../../../src/api/validate';
import { validateList } from '../../../src/api/validateList';
import { rawSync } from '../helpers/items';

const sync = rawSync(1);
const connection = {
  id: 5,
  name: 'Invoices PDF',
  type: 'pdf',
  team_id: 2,
  team: { id: 2, name: 'Billing' },
  user_id: 9,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-02-01T00:00:00.000Z',
  meta: {},
};

describe('validation', () => {
  it('accepts documented items, keeps unknown fields in raw and other statuses as valid', () => {
    const result = validateList([{ ...sync, status: 'running', extra: 'kept' }], validateFlowSync, 'x');
    assert.equal(result.dropped, 0);
    assert.equal(result.items[0].value.status, 'running');
    assert.equal(result.items[0].raw.extra, 'kept');
  });

  it('drops and counts bad items without sinking the list, naming the first reason', () => {
    const body = [sync, { ...sync, id: 'x' }, null, { ...sync, id: 3, webhook: 'yes' }, { ...sync, id: 4 }];
    const result = validateList(body, validateFlowSync, 'x');
    assert.deepEqual(
      result.items.map((i) => i.value.id),
      [1, 4],
    );
    assert.equal(result.dropped, 3);
    assert.equal(result.firstDropReason, 'item 1: id is not an integer');
  });

  it('tolerates a missing flow summary, errors and webhook', () => {
    const { flow: _flow, errors: _errors, webhook: _webhook, ...bare } = sync;
    const [item] = validateList([bare], validateFlowSync, 'x').items;
    assert.equal(item.value.flow, undefined);
    assert.equal(item.value.errors, null);
    assert.equal(item.value.webhook, false);
  });

  it('validates connections, treating a missing meta as empty and a non-object meta as invalid', () => {
    const { meta: _meta, ...noMeta } = connection;
    const result = validateList(
      [connection, { ...noMeta, id: 6 }, { ...connection, id: 7, meta: [1] }, { ...connection, id: 8, team_id: '2' }],
      validateConnection,
      'x',
    );
    assert.equal(result.items.length, 2);
    assert.deepEqual(result.items[1].value.meta, {});
    assert.equal(result.dropped, 2);
    assert.equal(result.firstDropReason, 'item 2: meta is not an object');
  });

  it('rejects a body that is not an array', () => {
    for (const body of [{ errors: [] }, null, 'text', 42]) {
      assert.throws(
        () => validateList(body, validateConnection, 'connections'),
        (e: unknown) =>
          e instanceof ApiError && e.kind === 'invalidResponse' && /where a list was expected/.test(e.message),
      );
    }
  });
});

describe('validation of a hostile answer', () => {
  it('drops and counts repeated ids: the first one stays', () => {
    const result = validateList(
      [rawSync(1), rawSync(2), rawSync(1, { status: 'again' }), rawSync(2)],
      validateFlowSync,
      'x',
    );
    assert.deepEqual(
      result.items.map((i) => i.value.id),
      [1, 2],
    );
    assert.equal(result.items[0].value.status, 'pending');
    assert.equal(result.dropped, 2);
    assert.match(result.firstDropReason ?? '', /item 2: id 1 is listed more than once/);
  });

  it('drops and counts an item nested deeper than the bound (JSON.stringify of it would throw)', () => {
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const connection = {
      id: 5,
      name: 'n',
      type: 'pdf',
      team_id: 2,
      user_id: 9,
      created_at: 'c',
      updated_at: 'u',
      meta: {},
    };
    const result = validateList([rawSync(1, { extra: deep }), rawSync(2)], validateFlowSync, 'x');
    assert.deepEqual(
      result.items.map((i) => i.value.id),
      [2],
    );
    assert.equal(result.dropped, 1);
    assert.match(result.firstDropReason ?? '', new RegExp(`nested deeper than ${MAX_ITEM_DEPTH} levels`));
    const inMeta = validateList([{ ...connection, meta: { a: deep } }], validateConnection, 'x');
    assert.equal(inMeta.dropped, 1);
    let ok: unknown = 1;
    for (let i = 0; i < MAX_ITEM_DEPTH - 2; i++) ok = [ok];
    assert.equal(
      validateList([rawSync(3, { extra: ok })], validateFlowSync, 'x').dropped,
      0,
      'moderate nesting is fine',
    );
  });
});
