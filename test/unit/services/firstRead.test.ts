import * as assert from 'node:assert/strict';
import { untilFirstRead } from '../../../src/services/firstRead';
import { FakeClock, flushPromises } from '../helpers/fakeClock';
import { deferred } from '../helpers/deferred';

describe('untilFirstRead (a link or tool call at start waits for its service to have read its key once)', () => {
  for (const delayMs of [0, 20, 150]) {
    it(`the keyring answers in ${delayMs} ms: 'read', as soon as it has`, async () => {
      const clock = new FakeClock();
      const read = deferred();
      clock.setTimeout(read.resolve, delayMs);
      let result: string | undefined;
      void untilFirstRead(read.promise, clock, 10_000).then((r) => (result = r));
      await flushPromises();
      assert.equal(result, undefined, 'not before the read');
      await clock.advance(delayMs);
      assert.equal(result, 'read');
      assert.equal(clock.pendingTimers, 0, 'its timer is cleared');
    });
  }

  it("the keyring does not answer: 'timeout' after the keyring's timeout, never before", async () => {
    const clock = new FakeClock();
    let result: string | undefined;
    void untilFirstRead(new Promise<void>(() => undefined), clock, 10_000).then((r) => (result = r));
    await clock.advance(9_999);
    assert.equal(result, undefined);
    await clock.advance(1);
    assert.equal(result, 'timeout');
  });

  it("a read that failed counts as read (the service says why: 'secretsUnavailable')", async () => {
    const clock = new FakeClock();
    assert.equal(await untilFirstRead(Promise.reject(new Error('no keyring')), clock, 10_000), 'read');
  });

  it('already read: answers at once, with no timer', async () => {
    const clock = new FakeClock();
    assert.equal(await untilFirstRead(Promise.resolve(), clock, 10_000), 'read');
    assert.equal(clock.pendingTimers, 0);
  });
});
