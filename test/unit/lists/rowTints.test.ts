import * as assert from 'node:assert/strict';
import { RowTints, rowTint } from '../../../src/lists/rowTints';

describe('rowTints: which rows stand out, and how', () => {
  it('each state its theme colour, letter and words; the most severe colour; at most two letters', () => {
    assert.equal(rowTint({}), undefined);
    assert.equal(rowTint({ errors: false, stuck: false, longer: false }), undefined);
    assert.deepEqual(rowTint({ errors: true }), { color: 'list.errorForeground', badge: 'E', words: 'errors' });
    assert.deepEqual(rowTint({ stuck: true }), { color: 'list.warningForeground', badge: 'S', words: 'stuck' });
    assert.deepEqual(rowTint({ longer: true }), {
      color: 'list.warningForeground',
      badge: 'L',
      words: 'longer than usual',
    });
    assert.deepEqual(rowTint({ stuck: true, errors: true }), {
      color: 'list.errorForeground',
      badge: 'ES',
      words: 'errors, stuck',
    });
    assert.equal(rowTint({ errors: true, stuck: true, longer: true })?.badge, 'ES');
  });

  it('only theme colour ids (every theme draws them in its own colours, high contrast too), never a fixed colour', () => {
    for (const states of [{ errors: true }, { stuck: true }, { longer: true }]) {
      assert.match(rowTint(states)!.color, /^[a-zA-Z]+\.[a-zA-Z]+$/);
    }
  });
});

describe('RowTints: the change events say only the rows whose tint changed, once per turn', () => {
  /** Tints whose gathered changes run when the test says (the turn's end), with every event fired. */
  function tints() {
    const queued: Array<() => void> = [];
    const store = new RowTints((run) => queued.push(run));
    const events: string[][] = [];
    store.onDidChange((keys) => events.push([...keys]));
    const endTurn = () => queued.splice(0).forEach((run) => run());
    return { store, events, endTurn, queued };
  }

  it('a row drawn tinted is told; drawn again the same, nothing; its tint changed or gone, told again', () => {
    const { store, events, endTurn } = tints();
    store.set('row:1', { stuck: true });
    store.set('row:2', {});
    endTurn();
    assert.deepEqual(events, [['row:1']], 'a row never tinted is not told');
    store.set('row:1', { stuck: true });
    store.set('row:2', { errors: false });
    endTurn();
    assert.deepEqual(events.length, 1, 'drawn again the same: nothing');
    store.set('row:1', { stuck: true, errors: true });
    endTurn();
    store.set('row:1', {});
    endTurn();
    assert.deepEqual(events.slice(1), [['row:1'], ['row:1']]);
    assert.equal(store.get('row:1'), undefined);
    assert.equal(store.size, 0, 'an untinted row is forgotten');
  });

  it('a poll that redraws a hundred rows, three of which changed: one event, with those three', () => {
    const { store, events, endTurn, queued } = tints();
    for (let i = 0; i < 100; i++) store.set(`row:${i}`, { stuck: i < 10 });
    endTurn();
    const states = (i: number) => ({ stuck: i < 10, errors: i === 5 || i === 50, longer: i === 70 });
    for (let i = 0; i < 100; i++) store.set(`row:${i}`, states(i));
    assert.equal(queued.length, 1, 'one flush asked for');
    endTurn();
    assert.deepEqual(events.at(-1), ['row:5', 'row:50', 'row:70']);
    assert.equal(store.get('row:50')?.badge, 'E');
  });

  it('a row tinted twice in one turn (and back) is told once', () => {
    const { store, events, endTurn } = tints();
    store.set('row:1', { errors: true });
    store.set('row:1', { stuck: true });
    endTurn();
    assert.deepEqual(events, [['row:1']]);
    assert.equal(store.get('row:1')?.badge, 'S');
  });
});

describe('RowTints in a browser (the web worker extension host)', () => {
  it("its default turn-end runs queueMicrotask as a function, never as its own method (a browser's 'Illegal invocation')", async () => {
    const original = globalThis.queueMicrotask;
    // A browser's queueMicrotask throws when called on another object (WebIDL's `this` check); Node's does not.
    globalThis.queueMicrotask = function (this: unknown, run: () => void) {
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
      original(run);
    };
    try {
      const tints = new RowTints();
      const told: (readonly string[])[] = [];
      tints.onDidChange((keys) => told.push(keys));
      tints.set('a', { errors: true });
      await Promise.resolve();
      assert.deepEqual(told, [['a']]);
      tints.dispose();
    } finally {
      globalThis.queueMicrotask = original;
    }
  });
});
