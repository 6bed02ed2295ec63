import * as assert from 'node:assert/strict';
import { TurnRedraws, type Redraw } from '../../../src/lists/redraws';
import { FakeClock } from '../helpers/fakeClock';

interface Node {
  readonly name: string;
}

/** A view's redraws, its turn ended by the fake clock (the view ends it with a microtask); what it said, in words. */
function redraws() {
  const clock = new FakeClock();
  const said: string[] = [];
  const words = (redraw: Redraw<Node>) =>
    redraw.kind === 'view'
      ? 'view'
      : redraw.kind === 'service'
        ? `${redraw.service}'s row`
        : `${redraw.service}: ${redraw.node.name}`;
  const view = new TurnRedraws<Node>(
    (redraw) => said.push(words(redraw)),
    (run) => clock.setTimeout(run, 0),
  );
  return { view, said, endTurn: () => clock.advance(0), clock };
}

describe('TurnRedraws', () => {
  const flowA = { name: 'flow A' };
  const flowB = { name: 'flow B' };

  it("one answer of a service with History's marks: the service's row once, however often it is asked for in the turn", async () => {
    const { view, said, endTurn } = redraws();
    view.service('staging'); // History's marks changed with the answer
    view.row('staging', flowA); // the answer's own change of a group beneath it
    view.service('staging'); // the row's count changed
    view.row('staging', flowB);
    assert.deepEqual(said, ["staging's row"]);
    await endTurn();
    assert.deepEqual(said, ["staging's row"], 'nothing more at the end of the turn');
  });

  it("says nothing of another service's rows", () => {
    const { view, said } = redraws();
    view.service('staging');
    view.row('production', flowA);
    view.service('production');
    assert.deepEqual(said, ["staging's row", 'production: flow A', "production's row"]);
  });

  it('the first change of a turn is said at once (a listener counting renders sees it synchronously)', () => {
    const { view, said } = redraws();
    view.row('only', flowA);
    assert.deepEqual(said, ['only: flow A']);
    view.row('only', flowA);
    view.row('only', flowB);
    assert.deepEqual(said, ['only: flow A', 'only: flow B'], 'each row once a turn');
  });

  it('the whole view covers every row of the turn; a row said before it does not keep it from being said', () => {
    const { view, said } = redraws();
    view.row('staging', flowA);
    view.view();
    view.view();
    view.service('staging');
    view.service('production');
    view.row('staging', flowB);
    assert.deepEqual(said, ['staging: flow A', 'view']);
  });

  it('covers: what was said this turn renders the row again', async () => {
    const { view, endTurn } = redraws();
    assert.equal(view.covers('staging'), false);
    view.row('staging', flowA);
    assert.equal(view.covers('staging', flowA), true);
    assert.equal(view.covers('staging', flowB), false);
    assert.equal(view.covers('staging'), false, "a row beneath it does not render the service's row");
    view.service('staging');
    assert.equal(view.covers('staging', flowB), true);
    assert.equal(view.covers('production'), false);
    await endTurn();
    assert.equal(view.covers('staging', flowA), false, 'nothing is covered in the next turn');
  });

  it('each turn says its changes again: the next answer renders the row again, once', async () => {
    const { view, said, endTurn, clock } = redraws();
    view.service('staging');
    view.service('staging');
    await endTurn();
    assert.equal(clock.pendingTimers, 0, 'one end of turn asked for, and it came');
    view.row('staging', flowA);
    view.service('staging');
    view.service('staging');
    await endTurn();
    view.view();
    view.view();
    assert.deepEqual(said, ["staging's row", 'staging: flow A', "staging's row", 'view']);
    assert.equal(clock.pendingTimers, 1, 'the end of this turn is asked for once');
  });
});
