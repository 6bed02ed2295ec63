import * as assert from 'node:assert/strict';
import { Emitter } from '../../../src/base/events';
import { SelectedRows } from '../../../src/base/selectedRows';

/** A tree view as SelectedRows reads it: what the host holds now (`selection`), and what the workbench says (`say`). */
function fakeView(held: string[] = []) {
  const said = new Emitter<{ readonly selection: readonly string[] }>();
  const view = {
    selection: held,
    onDidChangeSelection: said.event,
    say: (selection: string[]) => said.fire({ selection }),
  };
  return view;
}

describe('SelectedRows', () => {
  it('answers the rows the host holds while it holds every row the workbench said (its objects are the newest)', () => {
    const view = fakeView();
    const selected = new SelectedRows(view);
    assert.deepEqual(selected.rows, []);
    view.selection = ['run 1 (read again)'];
    view.say(['run 1']);
    assert.deepEqual(selected.rows, ['run 1 (read again)']);
  });

  it('while a refresh is read again (the host let go of the rows), answers the rows the workbench last said', () => {
    const view = fakeView(['run 1', 'run 2']);
    const selected = new SelectedRows(view);
    view.say(['run 1', 'run 2']);
    view.selection = []; // the root read again: every row let go
    assert.deepEqual(selected.rows, ['run 1', 'run 2']);
    view.selection = ['run 1']; // one expanded day read back, the other not yet
    assert.deepEqual(selected.rows, ['run 1', 'run 2']);
    view.selection = ['run 1', 'run 2'];
    assert.deepEqual(selected.rows, ['run 1', 'run 2']);
  });

  it('a selection cleared or narrowed by the workbench is taken as said', () => {
    const view = fakeView(['run 1', 'run 2']);
    const selected = new SelectedRows(view);
    view.say(['run 1', 'run 2']);
    view.selection = ['run 2'];
    view.say(['run 2']); // run 1 left the view: the workbench said so
    assert.deepEqual(selected.rows, ['run 2']);
    view.selection = [];
    view.say([]);
    assert.deepEqual(selected.rows, []);
  });

  it('once disposed, follows the workbench no more', () => {
    const view = fakeView(['run 1']);
    const selected = new SelectedRows(view);
    selected.dispose();
    view.say(['run 1', 'run 2']);
    view.selection = [];
    assert.deepEqual(selected.rows, []);
  });
});
