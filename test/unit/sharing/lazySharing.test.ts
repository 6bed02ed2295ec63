import * as assert from 'node:assert/strict';
import type { ListResult } from '../../../src/api/types';
import type { ListDefinition } from '../../../src/lists/list';
import { lazySharing, type Coordinator } from '../../../src/sharing/lazySharing';
import { deferred } from '../helpers/deferred';

type Item = { id: number };
const list = { id: 'processing' } as unknown as ListDefinition<Item>;
const answer = (from: string): ListResult<Item> =>
  ({ items: [], dropped: 0, fingerprint: from, firstDropReason: undefined }) as unknown as ListResult<Item>;
const ownRequest = async () => answer('own request');

/** A coordinator that says whether it may poll and answers loads from "another window". */
function fakeCoordinator(mayPoll: boolean) {
  const calls: string[] = [];
  const coordinator: Coordinator & { disposedCount: number } = {
    disposedCount: 0,
    mayPoll: (id) => (calls.push(`mayPoll ${id}`), mayPoll),
    load: async <T extends { id: number }>() => answer('shared') as unknown as ListResult<T>,
    dispose: () => void coordinator.disposedCount++,
  };
  return { coordinator, calls };
}

/** A promise the test resolves or rejects by hand: when the coordinator's code has "loaded". */
describe('lazy sharing (the coordinator made, and its code loaded, on first use)', () => {
  it('makes nothing until asked; then answers as a coordinator just made would (may poll) until it is made, and delegates after', async () => {
    const { coordinator, calls } = fakeCoordinator(false);
    const code = deferred<typeof coordinator>();
    let made = 0;
    const lazy = lazySharing(() => (made++, code.promise));
    await Promise.resolve();
    assert.equal(made, 0, 'nothing made before the first question');
    assert.equal(lazy.sharing.mayPoll('processing'), true, 'not made yet: nothing is known of another lease');
    assert.equal(lazy.sharing.mayPoll('processing'), true);
    const load = lazy.sharing.load(list, false, ownRequest);
    code.resolve(coordinator);
    assert.equal((await load).fingerprint, 'shared', 'a load waits for the coordinator and goes through it');
    assert.equal(made, 1, 'made once, however often it was asked');
    assert.equal(lazy.loaded(), coordinator);
    assert.equal(lazy.sharing.mayPoll('processing'), false, 'made: its answer counts');
    assert.deepEqual(calls, ['mayPoll processing']);
    assert.equal(await lazy.current(), coordinator);
  });

  it('a coordinator that cannot be made (its code failed to load) is told once, and the window goes on without sharing', async () => {
    const errors: unknown[] = [];
    let made = 0;
    const lazy = lazySharing<Coordinator>(
      () => {
        made++;
        throw new Error('chunk missing');
      },
      (error) => errors.push(error),
    );
    assert.equal(lazy.sharing.mayPoll('processing'), true);
    assert.equal((await lazy.sharing.load(list, false, ownRequest)).fingerprint, 'own request');
    assert.equal((await lazy.sharing.load(list, true, ownRequest)).fingerprint, 'own request');
    assert.equal(lazy.sharing.mayPoll('processing'), true);
    await assert.rejects(lazy.current(), /could not be started/);
    assert.equal(made, 1, 'not tried again and again');
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /chunk missing/);
  });

  it("disposed while its code loads: the coordinator made after is disposed at once, and loads are the window's own", async () => {
    const { coordinator } = fakeCoordinator(false);
    const code = deferred<typeof coordinator>();
    const lazy = lazySharing(() => code.promise);
    assert.equal(lazy.sharing.mayPoll('processing'), true);
    const load = lazy.sharing.load(list, false, ownRequest);
    lazy.dispose();
    code.resolve(coordinator);
    assert.equal((await load).fingerprint, 'own request');
    assert.equal(coordinator.disposedCount, 1, 'no timer or file of a disposed service lives on');
    assert.equal(lazy.loaded(), undefined);
    assert.equal(lazy.disposed, true);
    assert.equal(lazy.sharing.mayPoll('processing'), true, 'as without sharing');
    await assert.rejects(lazy.current(), /disposed/);
  });

  it('disposed after it was made: the coordinator is disposed, and the window polls and loads on its own', async () => {
    const { coordinator } = fakeCoordinator(false);
    const lazy = lazySharing(() => coordinator);
    assert.equal(await lazy.current(), coordinator);
    lazy.dispose();
    assert.equal(coordinator.disposedCount, 1);
    assert.equal(lazy.sharing.mayPoll('processing'), true);
    assert.equal((await lazy.sharing.load(list, false, ownRequest)).fingerprint, 'own request');
  });
});
