import * as assert from 'node:assert/strict';
import { parseFilter } from '../../../src/filter/filterQuery';
import { ViewFilters, type FilterMemory } from '../../../src/filter/viewFilters';

function memory(initial?: unknown): FilterMemory & { saved: Array<Record<string, string>> } {
  const saved: Array<Record<string, string>> = [];
  return {
    saved,
    get: () => (saved.length ? saved[saved.length - 1] : initial),
    update: (value) => void saved.push(value),
  };
}

describe('ViewFilters: each view its own filter, kept per workspace', () => {
  it('sets a view only, says which view changed, and keeps the text as typed', () => {
    const kept = memory();
    const filters = new ViewFilters(kept);
    const changed: string[] = [];
    filters.onDidChange((view) => changed.push(view));
    assert.deepEqual(filters.set('processing', '  Receipts has:errors '), {});
    assert.equal(filters.get('processing')?.source, 'Receipts has:errors');
    assert.equal(filters.get('connections'), undefined);
    assert.equal(filters.get('history'), undefined);
    assert.deepEqual(changed, ['processing']);
    assert.deepEqual(kept.saved.at(-1), { processing: 'Receipts has:errors' });
    assert.deepEqual(filters.active(), ['processing']);
  });

  it('an empty input clears; a malformed one changes nothing and says why', () => {
    const kept = memory();
    const filters = new ViewFilters(kept);
    filters.set('history', 'ran>1h');
    const { problem } = filters.set('history', 'ran>soon');
    assert.ok(problem && /ran>/.test(problem), problem);
    assert.equal(filters.get('history')?.source, 'ran>1h');
    assert.deepEqual(filters.set('history', '   '), {});
    assert.equal(filters.get('history'), undefined);
    assert.deepEqual(kept.saved.at(-1), {});
    assert.deepEqual(
      filters.set('connections', 'is:stuck').problem !== undefined,
      true,
      'a term of another view is explained',
    );
  });

  it('a filter read once (the input box) is set on the view it was read for as it is: not read again', () => {
    const kept = memory();
    const filters = new ViewFilters(kept);
    const { filter } = parseFilter(' ran>1h  has:errors', 'history');
    assert.ok(filter);
    assert.equal(filter.view, 'history');
    filters.use(filter);
    assert.equal(filters.get('history'), filter, 'the same object: parsed once');
    assert.deepEqual(filters.active(), ['history']);
    assert.deepEqual(kept.saved.at(-1), { history: 'ran>1h  has:errors' });
    filters.use(parseFilter('  ', 'history').filter!);
    assert.equal(filters.get('history'), undefined, 'an empty filter clears');
  });

  it('the same filter again fires nothing and writes nothing', () => {
    const kept = memory();
    const filters = new ViewFilters(kept);
    let fired = 0;
    filters.onDidChange(() => fired++);
    filters.set('processing', 'a');
    filters.set('processing', 'a ');
    filters.clear('connections');
    assert.equal(fired, 1);
    assert.equal(kept.saved.length, 1);
  });

  it('restores what the workspace kept (a reload); drops what no longer reads and anything not a string', () => {
    const filters = new ViewFilters(
      memory({ processing: 'is:stuck', connections: 'is:stuck', history: 42, other: 'x' }),
    );
    assert.equal(filters.get('processing')?.source, 'is:stuck');
    assert.equal(filters.get('connections'), undefined, 'is: does not apply to Connections');
    assert.equal(filters.get('history'), undefined);
    assert.doesNotThrow(() => new ViewFilters(memory('garbage')));
    assert.doesNotThrow(() => new ViewFilters(memory(null)));
  });
});
