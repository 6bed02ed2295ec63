/**
 * A tree view registered at start whose rows come later (src/base/vscode/lateTree.ts), in plain Node with a stand-in
 * for the `vscode` module: what VS Code asks before the rows' provider is there waits for it, and is answered by it.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Emitter } from '../../../../src/base/events';
import type * as LateTree from '../../../../src/base/vscode/lateTree';

// Compiled to out/test/unit/base/vscode/: the repository root is five levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { fakeVscode, useVscode } = require(
  path.join(root, 'test', 'unit', 'helpers', 'vscodeStandIn.js'),
) as typeof import('../../helpers/vscodeStandIn');

/** The tree views the code registered: their ids, options, and whether they were disposed. */
const registered: Array<{ id: string; options: Record<string, unknown>; disposed: boolean }> = [];

/** A provider of rows named by strings: a row's children are `${row}/1` and `${row}/2`. */
function rowsProvider() {
  const changed = new Emitter<string | undefined>();
  return {
    changed,
    onDidChangeTreeData: changed.event,
    getChildren: (row?: string) => (row ? [`${row}/1`, `${row}/2`] : ['a', 'b']),
    getTreeItem: (row: string) => ({ label: row }),
    getParent: (row: string) => (row.includes('/') ? row.slice(0, row.lastIndexOf('/')) : undefined),
    resolveTreeItem: (item: { label: string }, row: string) => ({ ...item, tooltip: `about ${row}` }),
  };
}

/** Whether a promise has settled after the microtasks now queued ran. */
async function settled(promise: unknown): Promise<boolean> {
  let done = false;
  void Promise.resolve(promise).then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

describe('a tree view registered at start, its rows made later (plain Node, a vscode stand-in)', () => {
  let restore: () => void;
  let late: typeof LateTree;
  before(() => {
    const vscode = fakeVscode();
    // what the code uses of VS Code here: a real event, and the views it registers
    (vscode as Record<string, unknown>).EventEmitter = Emitter;
    (vscode.window as Record<string, unknown>).createTreeView = (id: string, options: Record<string, unknown>) => {
      const view = { id, options, disposed: false };
      registered.push(view);
      return { dispose: () => (view.disposed = true) };
    };
    restore = useVscode(vscode, 'vscode-stand-in-late-tree');
    // a module keeps the stand-in it was loaded with: loaded anew with this one (and let go after)
    delete require.cache[require.resolve('../../../../src/base/vscode/lateTree')];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the 'vscode' stand-in is in place
    late = require('../../../../src/base/vscode/lateTree') as typeof LateTree;
  });
  after(() => {
    restore();
    delete require.cache[require.resolve('../../../../src/base/vscode/lateTree')];
  });

  it('a question asked before the provider is there waits for it, then is answered by it', async () => {
    const data = new late.LateTreeData<string>();
    const top = Promise.resolve(data.getChildren());
    const below = Promise.resolve(data.getChildren('a'));
    assert.equal(await settled(top), false, 'answered before the rows exist: the view would say it is empty');
    data.use(rowsProvider());
    assert.deepEqual(await top, ['a', 'b']);
    assert.deepEqual(await below, ['a/1', 'a/2']);
    data.dispose();
  });

  it('says when it handed a level of rows (a promise’s once it resolved): the moments its view’s selection is read at', async () => {
    const data = new late.LateTreeData<string>();
    let answered = 0;
    data.onDidAnswer(() => answered++);
    const waiting = Promise.resolve(data.getChildren());
    assert.equal(answered, 0, 'nothing handed yet');
    const first = data.use(rowsProvider());
    await waiting;
    assert.equal(answered, 1, 'the level that waited for the provider');
    data.getChildren('a');
    assert.equal(answered, 2, 'a level answered at once');
    first.dispose();
    const slow = rowsProvider();
    data.use({ ...slow, getChildren: () => Promise.resolve(['c']) });
    const later = data.getChildren();
    assert.equal(answered, 2, 'a promise: not before it resolves');
    assert.deepEqual(await later, ['c']);
    assert.equal(answered, 3);
    const moments = data.selectionMoments();
    const seen: string[] = [];
    moments.rowsChanged(() => seen.push('changed'));
    moments.rowsAnswered(() => seen.push('answered'));
    slow.changed.fire(undefined);
    await data.getChildren();
    assert.deepEqual(seen, ['changed', 'answered']);
    data.dispose();
  });

  it('once there, every question goes to the provider at once, and its changes are the view’s', () => {
    const data = new late.LateTreeData<string>();
    const provider = rowsProvider();
    const fired: Array<string | undefined> = [];
    data.onDidChangeTreeData((row) => fired.push(row as string | undefined));
    data.use(provider);
    assert.deepEqual(data.getChildren(), ['a', 'b']);
    assert.deepEqual(data.getTreeItem('a/1'), { label: 'a/1' });
    assert.equal(data.getParent('a/1'), 'a');
    const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
    assert.deepEqual(data.resolveTreeItem({ label: 'b' }, 'b', token), { label: 'b', tooltip: 'about b' });
    assert.deepEqual(fired, [], 'nothing asked before it: nothing to ask again');
    provider.changed.fire('a');
    provider.changed.fire(undefined);
    assert.deepEqual(fired, ['a', undefined]);
    data.dispose();
    provider.changed.fire('b');
    assert.deepEqual(fired, ['a', undefined], 'disposed: no longer forwarded');
  });

  it('a provider without resolveTreeItem or getParent: the item as it is, no parent', () => {
    const data = new late.LateTreeData<string>();
    data.use({ getChildren: () => ['x'], getTreeItem: (row: string) => ({ label: row }) });
    const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
    const item = { label: 'x' };
    assert.equal(data.resolveTreeItem(item, 'x', token), item);
    assert.equal(data.getParent('x'), undefined);
    data.dispose();
  });

  it('fail(): what waits, and what is asked until a provider comes, gets no rows; a later provider is shown, and asked again', async () => {
    const data = new late.LateTreeData<string>();
    const fired: unknown[] = [];
    data.onDidChangeTreeData((row) => fired.push(row));
    const first = Promise.resolve(data.getChildren());
    data.fail();
    assert.deepEqual(await first, [], 'its code could not be made: the view is not left loading for ever');
    assert.deepEqual(data.getChildren(), [], 'a view first shown after the failure: no rows at once, not loading');
    data.use(rowsProvider());
    assert.deepEqual(fired, [undefined], 'the view asks again for what it was answered empty');
    assert.deepEqual(data.getChildren(), ['a', 'b']);
    data.fail(); // a provider is there: nothing changes
    assert.deepEqual(data.getChildren(), ['a', 'b']);
    data.dispose();
  });

  it('a provider let go (its product disposed, or made in part): its rows are gone, and the next one is waited for', async () => {
    const data = new late.LateTreeData<string>();
    const fired: unknown[] = [];
    data.onDidChangeTreeData((row) => fired.push(row));
    const first = rowsProvider();
    const using = data.use(first);
    using.dispose();
    assert.deepEqual(fired, [undefined], 'its rows are gone: the view asks again');
    first.changed.fire('a');
    assert.deepEqual(fired, [undefined], 'no longer forwarded');
    using.dispose(); // once
    assert.deepEqual(fired, [undefined]);
    const asked = Promise.resolve(data.getChildren());
    assert.equal(await settled(asked), false, 'waits for the next provider');
    assert.equal(data.getParent('a/1'), undefined, 'no provider: no parent');
    const next = data.use({ getChildren: () => ['x'], getTreeItem: (row: string) => ({ label: row }) });
    assert.deepEqual(await asked, ['x']);
    next.dispose();
    data.fail();
    assert.deepEqual(data.getChildren(), [], 'let go, then failed: no rows');
    data.dispose();
  });

  it('a row before the provider, or a second provider, is a mistake said in words', () => {
    const data = new late.LateTreeData<string>();
    assert.throws(() => data.getTreeItem('a'), /not made yet/);
    data.use(rowsProvider());
    assert.throws(() => data.use(rowsProvider()), /one provider of its rows at a time/);
    data.dispose();
  });

  it('disposed before the provider came: what waits is answered with no rows', async () => {
    const data = new late.LateTreeData<string>();
    const waiting = Promise.resolve(data.getChildren());
    data.dispose();
    assert.deepEqual(await waiting, []);
  });

  it('lateTreeView registers the view over its provider to come (several rows selectable, Collapse All); dispose ends both', () => {
    registered.length = 0;
    const shown = late.lateTreeView<string>('flowsync.history');
    assert.equal(registered.length, 1);
    const [view] = registered;
    assert.equal(view.id, 'flowsync.history');
    assert.equal(view.options.treeDataProvider, shown.data);
    assert.equal(view.options.canSelectMany, true);
    assert.equal(view.options.showCollapseAll, true);
    shown.dispose();
    assert.equal(view.disposed, true);
  });
});
