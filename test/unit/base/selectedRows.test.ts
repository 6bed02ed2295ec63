import * as assert from 'node:assert/strict';
import { SelectedRows } from '../../../src/base/selectedRows';

describe('SelectedRows', () => {
  it('answers the rows the host holds while it holds every row the workbench said (its objects are the newest)', () => {
    let held: string[] = [];
    const selected = new SelectedRows(() => held);
    assert.deepEqual(selected.rows, []);
    held = ['run 1 (read again)'];
    selected.changed(['run 1']);
    assert.deepEqual(selected.rows, ['run 1 (read again)']);
  });

  it('while a refresh is read again (the host let go of the rows), answers the rows the workbench last said', () => {
    let held: string[] = ['run 1', 'run 2'];
    const selected = new SelectedRows(() => held);
    selected.changed(['run 1', 'run 2']);
    held = []; // the root read again: every row let go
    assert.deepEqual(selected.rows, ['run 1', 'run 2']);
    held = ['run 1']; // one expanded day read back, the other not yet
    assert.deepEqual(selected.rows, ['run 1', 'run 2']);
    held = ['run 1', 'run 2'];
    assert.deepEqual(selected.rows, ['run 1', 'run 2']);
  });

  it('a selection cleared or narrowed by the workbench is taken as said', () => {
    let held: string[] = ['run 1', 'run 2'];
    const selected = new SelectedRows(() => held);
    selected.changed(held);
    held = ['run 2'];
    selected.changed(['run 2']); // run 1 left the view: the workbench said so
    assert.deepEqual(selected.rows, ['run 2']);
    held = [];
    selected.changed([]);
    assert.deepEqual(selected.rows, []);
  });
});
