import * as assert from 'node:assert/strict';
import { connectionsInput } from '../../../src/tools/connectionsResult';
import { historyInput } from '../../../src/tools/historyResult';
import { processingInput } from '../../../src/tools/processingResult';
import { DEFAULT_ROWS, MAX_ROWS, serviceInput } from '../../../src/tools/toolInput';

describe('language model tool input (from the model: untrusted)', () => {
  describe('input from the model', () => {
    it('limit: default 25, clamped to 1 – 100, numbers in strings accepted, junk ignored', () => {
      assert.equal(processingInput({}).limit, DEFAULT_ROWS);
      assert.equal(processingInput({ limit: 0 }).limit, 1);
      assert.equal(processingInput({ limit: -4 }).limit, 1);
      assert.equal(processingInput({ limit: 5000 }).limit, MAX_ROWS);
      assert.equal(processingInput({ limit: 7.9 }).limit, 7);
      assert.equal(processingInput({ limit: '12' }).limit, 12);
      assert.equal(processingInput({ limit: 'many' }).limit, DEFAULT_ROWS);
      assert.equal(processingInput({ limit: Infinity }).limit, DEFAULT_ROWS);
    });

    it('filters: trimmed, bounded, empty means none; a number becomes its text; anything but an object means no input', () => {
      assert.deepEqual(processingInput({ team: '  Ops ', flow: 12 }), { team: 'Ops', flow: '12', limit: DEFAULT_ROWS });
      assert.deepEqual(connectionsInput({ team: '', type: '   ', name: { x: 1 } }), {
        team: undefined,
        type: undefined,
        name: undefined,
        limit: DEFAULT_ROWS,
      });
      assert.equal(connectionsInput({ name: 'x'.repeat(5000) }).name!.length, 100);
      for (const raw of [undefined, null, 'flow', 3, ['a']]) {
        assert.deepEqual(processingInput(raw), { team: undefined, flow: undefined, limit: DEFAULT_ROWS });
      }
      assert.deepEqual(historyInput({ kind: 'stuck', limit: 3 }), { kind: 'stuck', limit: 3 });
      assert.equal(historyInput({ kind: '__proto__' }).kind, 'all');
    });
  });

  it('the input may name a service: trimmed and bounded; nothing else is one', () => {
    assert.equal(serviceInput({ service: ' Staging ' }), 'Staging');
    assert.equal(serviceInput({ service: '' }), undefined);
    assert.equal(serviceInput({}), undefined);
    assert.equal(serviceInput('Staging'), undefined);
    assert.ok((serviceInput({ service: 'x'.repeat(500) }) ?? '').length <= 100);
  });
});
