import * as assert from 'node:assert/strict';
import {
  filterDescription,
  matchCountText,
  noMatchText,
  parseViewLink,
  viewLink,
} from '../../../src/filter/filterTexts';

describe('filterTexts: what a filtered view and its link say', () => {
  it('the description, the count and the message', () => {
    assert.equal(filterDescription('receipts', 3, 7), 'filter: receipts · 3 of 7');
    assert.equal(matchCountText(12, 250), '12 of 250 match');
    assert.equal(noMatchText('x'), 'Nothing matches the filter "x".');
  });

  it('a filter from a link is shown inert and short: no icon, link or line break forms', () => {
    const shown = filterDescription('$(alert) [x](command:evil)\n' + 'y'.repeat(200), 0, 1);
    assert.ok(!shown.includes('$('), shown);
    assert.ok(!shown.includes('](command:'), shown);
    assert.ok(!shown.includes('\n'));
    assert.ok(shown.length < 80, shown);
  });

  it('a view link carries the view and its filter, and reads back the same', () => {
    const link = viewLink('flowsync-tools.flowsync-explorer', 'processing', 'is:stuck "sales eu"');
    assert.equal(link, 'vscode://flowsync-tools.flowsync-explorer/processing?filter=is%3Astuck%20%22sales%20eu%22');
    const url = new URL(link);
    assert.deepEqual(parseViewLink(url.pathname, url.search.slice(1)), {
      view: 'processing',
      filter: 'is:stuck "sales eu"',
    });
    assert.equal(viewLink('x.y', 'history', undefined), 'vscode://x.y/history');
    assert.deepEqual(parseViewLink('/History/', ''), { view: 'history' });
    assert.deepEqual(parseViewLink('/connections', 'filter=&id=3'), { view: 'connections', filter: '' });
    assert.equal(parseViewLink('/sync', 'id=3'), undefined, 'another kind of link');
  });
});
