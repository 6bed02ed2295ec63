import * as assert from 'node:assert/strict';
import type { FlowSync } from '../../../src/api/types';
import { arrangedTree } from '../../../src/lists/arrange';
import { PinnedRows } from '../../../src/lists/pinnedRows';
import { processingList } from '../../../src/lists/processing';
import { TreeModel, type GroupNode } from '../../../src/lists/treeModel';
import { sync } from '../helpers/items';

describe('PinnedRows: pinned flows first, idle ones kept (grouped by flow)', () => {
  const model = (raws: Array<[number, number, string]>) => {
    const tree = new TreeModel('processing', arrangedTree<FlowSync>(processingList));
    tree.update(raws.map(([id, flowId, name]) => sync(id, flowId, name)));
    return tree.roots() as GroupNode<FlowSync>[];
  };
  const labels = (nodes: GroupNode<FlowSync>[]) => nodes.map((n) => `${n.group.label}${n.idle ? ' (idle)' : ''}`);

  it('puts the pinned flows first in the order pinned, then the idle pinned flows, then the others as before', () => {
    const rows = new PinnedRows<FlowSync>('processing');
    const roots = model([
      [1, 1, 'Alpha'],
      [2, 2, 'Beta'],
      [3, 3, 'Gamma'],
    ]);
    assert.deepEqual(labels(rows.arrange(roots, undefined)), ['Alpha', 'Beta', 'Gamma']);
    const pins = { keys: [3, 9, 2], idle: [{ key: 9, label: 'Nightly export' }] };
    const arranged = rows.arrange(roots, pins);
    assert.deepEqual(labels(arranged), ['Gamma', 'Beta', 'Nightly export (idle)', 'Alpha']);
    const idle = arranged[2];
    assert.deepEqual([idle.list, idle.group.items.length], ['processing', 0], 'an idle row has no items');
    assert.equal(rows.arrange(roots, pins)[2], idle, 'the same node while it stays idle');
    assert.deepEqual(labels(rows.arrange(roots, { keys: [], idle: [] })), ['Alpha', 'Beta', 'Gamma']);
  });

  it('a pinned flow whose syncs came back is its group again, never an idle row too', () => {
    const rows = new PinnedRows<FlowSync>('processing');
    const roots = model([[1, 1, 'Alpha']]);
    assert.deepEqual(labels(rows.arrange(roots, { keys: [1], idle: [{ key: 1, label: 'Alpha' }] })), ['Alpha']);
  });
});
