import * as assert from 'node:assert/strict';
import { DisposableStore, Emitter } from '../../../src/base/events';

describe('Emitter', () => {
  it('delivers to every listener, in order, even when one throws; the error goes to the reporter', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<number>((e) => errors.push(e));
    const heard: string[] = [];
    emitter.event((n) => heard.push(`a${n}`));
    emitter.event(() => {
      throw new Error('boom');
    });
    const c = emitter.event((n) => heard.push(`c${n}`));
    emitter.fire(1);
    c.dispose();
    emitter.fire(2);
    assert.deepEqual(heard, ['a1', 'c1', 'a2']);
    assert.equal(errors.length, 2);
    assert.equal(emitter.listenerCount, 2);
    emitter.dispose();
    assert.equal(emitter.listenerCount, 0);
  });
});

describe('DisposableStore', () => {
  it('disposes what it holds, last added first, and at once what is added after', () => {
    const order: number[] = [];
    const store = new DisposableStore();
    store.add({ dispose: () => order.push(1) });
    store.add({ dispose: () => order.push(2) });
    store.dispose();
    store.add({ dispose: () => order.push(3) });
    assert.deepEqual(order, [2, 1, 3]);
  });
});
