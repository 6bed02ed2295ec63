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

/** The moments SelectedRows reads the host at: the rows changed, a level answered, and the turns it waits for. */
function fakeMoments() {
  const changed = new Emitter<void>();
  const answered = new Emitter<void>();
  let turn: Array<() => void> = [];
  return {
    rowsChanged: changed.event,
    rowsAnswered: answered.event,
    later: (fn: () => void) => void turn.push(fn),
    change: () => changed.fire(),
    answer: () => answered.fire(),
    pending: () => turn.length,
    /** Runs what waits for the next turn. */
    nextTurn: () => {
      const due = turn;
      turn = [];
      due.forEach((fn) => fn());
    },
  };
}

describe('SelectedRows', () => {
  it('answers the rows the host holds while it holds every row the workbench said (its objects are the newest)', () => {
    const view = fakeView();
    const selected = new SelectedRows(view, fakeMoments());
    assert.deepEqual(selected.rows, []);
    view.selection = ['run 1 (read again)'];
    view.say(['run 1']);
    assert.deepEqual(selected.rows, ['run 1 (read again)']);
  });

  it('while a refresh is read again (the host let go of the rows), answers the rows the workbench last said', () => {
    const view = fakeView(['run 1', 'run 2']);
    const selected = new SelectedRows(view, fakeMoments());
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
    const selected = new SelectedRows(view, fakeMoments());
    view.say(['run 1', 'run 2']);
    view.selection = ['run 2'];
    view.say(['run 2']); // run 1 left the view: the workbench said so
    assert.deepEqual(selected.rows, ['run 2']);
    view.selection = [];
    view.say([]);
    assert.deepEqual(selected.rows, []);
  });

  it('a selection said while the host held none of its rows is taken from the host as the rows change', () => {
    // The workbench said run 1 was selected while the host had let go of it (a refresh being read): the host's event
    // then carries no rows, though run 1 is selected on the screen. The host reads run 1 back and says nothing (the
    // selection's handles did not change); the next refresh lets go of it again.
    const view = fakeView([]);
    const moments = fakeMoments();
    const selected = new SelectedRows(view, moments);
    view.say([]); // run 1's handle, not held: no row
    view.selection = ['run 1']; // read back
    moments.change(); // a change of the rows: the host lets go of them in a later turn
    view.selection = [];
    assert.deepEqual(selected.rows, ['run 1']);
  });

  it('…and in the turn after a level of rows was handed to the host, before a refresh the host put off lets go again', () => {
    // Seen in CI: a change while the rows were let go (read then: nothing more), the selection said then, the rows
    // read back (no change of ours), then the refresh the host had put off (up to 200 ms) lets go of them again.
    const view = fakeView(['run 1']);
    const moments = fakeMoments();
    const selected = new SelectedRows(view, moments);
    view.say(['run 1']);
    moments.change();
    view.selection = []; // let go
    moments.change(); // another change while let go (the host puts its refresh off)
    view.say([]); // unselected
    view.say([]); // selected again, said while let go
    moments.answer(); // the day's runs handed to the host...
    view.selection = ['run 1']; // ...which holds them once that turn is over
    assert.deepEqual(selected.rows, ['run 1']);
    moments.nextTurn();
    view.selection = []; // the refresh put off lets go of them: no change of ours
    assert.deepEqual(selected.rows, ['run 1']);
  });

  it('reads the host once per turn however many levels it was handed, and not once disposed', () => {
    const view = fakeView([]);
    const moments = fakeMoments();
    const selected = new SelectedRows(view, moments);
    moments.answer();
    moments.answer();
    assert.equal(moments.pending(), 1);
    moments.nextTurn();
    moments.answer();
    selected.dispose();
    view.selection = ['run 1'];
    moments.nextTurn();
    view.selection = [];
    assert.deepEqual(selected.rows, []);
  });

  it('a change of the rows while they are read again keeps the longer of what was said and what is held', () => {
    const view = fakeView(['run 1', 'run 2']);
    const moments = fakeMoments();
    const selected = new SelectedRows(view, moments);
    view.say(['run 1', 'run 2']);
    view.selection = ['run 1']; // one day read back, the other not yet
    moments.change();
    view.selection = [];
    assert.deepEqual(selected.rows, ['run 1', 'run 2']);
  });

  it('once disposed, follows the workbench no more', () => {
    const view = fakeView(['run 1']);
    const moments = fakeMoments();
    const selected = new SelectedRows(view, moments);
    selected.dispose();
    view.say(['run 1', 'run 2']);
    view.selection = ['run 1', 'run 2'];
    moments.change();
    moments.answer();
    moments.nextTurn();
    view.selection = [];
    assert.deepEqual(selected.rows, []);
  });
});
