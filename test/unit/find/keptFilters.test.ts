import * as assert from 'node:assert/strict';
import { ViewFilters } from '../../../src/filter/viewFilters';
import {
  FILTERS_STATE_KEY,
  dropLinkFilters,
  keptFilters,
  rememberLinkFilter,
  type FilterState,
} from '../../../src/find/keptFilters';

/** workspaceState in memory (VS Code's Memento: get sees an update at once). */
function memento(): FilterState & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    get: (key) => values.get(key),
    update: async (key, value) => void (value === undefined ? values.delete(key) : values.set(key, value)),
  };
}
const filtersOf = (state: FilterState) =>
  new ViewFilters({
    get: () => state.get(FILTERS_STATE_KEY),
    update: (value) => state.update(FILTERS_STATE_KEY, value),
  });

const HIDING = `${'age>0s '.repeat(7)}-is:stuck -has:errors`;

describe("a link's filter is not kept across restarts", () => {
  it('a filter a link set (one that hides stuck syncs past the 40 characters a header shows) is gone at the next start', async () => {
    const state = memento();
    const filters = filtersOf(state);
    assert.deepEqual(filters.set('processing', HIDING), {});
    await rememberLinkFilter(state, 'processing', filters.get('processing')?.source);
    assert.equal(keptFilters(state), true, 'kept for this session');
    // the next start
    await dropLinkFilters(state);
    assert.equal(keptFilters(state), false);
    assert.equal(filtersOf(state).get('processing'), undefined);
  });

  it("the person's own filters stay, and one they changed after the link", async () => {
    const state = memento();
    const filters = filtersOf(state);
    filters.set('history', 'flow:invoices');
    filters.set('processing', HIDING);
    await rememberLinkFilter(state, 'processing', filters.get('processing')?.source);
    filters.set('connections', 'type:pdf');
    await rememberLinkFilter(state, 'connections', filters.get('connections')?.source);
    filters.set('connections', 'type:pdf team:7'); // changed by the person: theirs now
    await dropLinkFilters(state);
    const next = filtersOf(state);
    assert.equal(next.get('processing'), undefined);
    assert.equal(next.get('history')?.source, 'flow:invoices');
    assert.equal(next.get('connections')?.source, 'type:pdf team:7');
    await dropLinkFilters(state); // once only: the record is gone
    assert.equal(filtersOf(state).get('connections')?.source, 'type:pdf team:7');
  });
});
