import * as assert from 'node:assert/strict';
import { failedToLoad, onFirstUse } from '../../../src/base/onFirstUse';
import { deferred } from '../helpers/deferred';

describe('onFirstUse (what is loaded late)', () => {
  it('loads nothing until first used; then once, however often and however early it is asked', async () => {
    const code = deferred<{ answer: number }>();
    let loads = 0;
    const late = onFirstUse(() => (loads++, code.promise));
    await Promise.resolve();
    assert.equal(loads, 0, 'nothing loaded before the first use');
    assert.equal(late.made, undefined);
    const first = late.get();
    const second = late.get();
    assert.equal(first, second, 'every caller waits for the one load');
    code.resolve({ answer: 42 });
    assert.deepEqual(await first, { answer: 42 });
    assert.equal(await late.get(), await first);
    assert.equal(loads, 1);
    assert.deepEqual(late.made, { answer: 42 }, 'what was made, for code that must answer at once');
  });

  it('a load that fails is reported once, its callers get the error, and the next use loads again', async () => {
    const errors: unknown[] = [];
    let loads = 0;
    const late = onFirstUse(
      async () => {
        loads++;
        if (loads === 1) throw new Error('chunk missing');
        return 'loaded';
      },
      { onError: (error) => errors.push(error) },
    );
    const [a, b] = await Promise.allSettled([late.get(), late.get()]);
    assert.equal(a.status, 'rejected');
    assert.equal(b.status, 'rejected');
    assert.equal(loads, 1, 'both callers waited for the one load');
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      ['chunk missing'],
      'one report for one failed load',
    );
    assert.equal(late.made, undefined);
    assert.equal(await late.get(), 'loaded', 'tried again on the next use');
    assert.equal(loads, 2);
    assert.equal(errors.length, 1);
  });

  it('a load that throws at once fails the same way (a rejected promise, not a throw)', async () => {
    const late = onFirstUse<string>(() => {
      throw new Error('at once');
    });
    const got = late.get();
    await assert.rejects(got, /at once/);
  });

  it('dispose disposes what was made; a load still in flight is disposed when it ends; no load after', async () => {
    const disposed: string[] = [];
    const made = onFirstUse(async () => 'made', { dispose: (value) => disposed.push(value) });
    await made.get();
    made.dispose();
    made.dispose();
    assert.deepEqual(disposed, ['made'], 'disposed once');
    await assert.rejects(made.get(), /disposed/);

    const code = deferred<string>();
    const inFlight = onFirstUse(() => code.promise, { dispose: (value) => disposed.push(value) });
    const waiting = inFlight.get();
    inFlight.dispose();
    code.resolve('late');
    await assert.rejects(waiting, /disposed/);
    assert.deepEqual(disposed, ['made', 'late'], 'made after dispose: disposed at once, never handed out');
    assert.equal(inFlight.made, undefined);

    let loads = 0;
    const never = onFirstUse(async () => (loads++, 'x'));
    never.dispose();
    await assert.rejects(never.get(), /disposed/);
    assert.equal(loads, 0, 'nothing is loaded once disposed');
  });

  it('a load in flight that fails after dispose is not reported: there is nobody left to tell', async () => {
    const reported: unknown[] = [];
    const code = deferred<string>();
    const inFlight = onFirstUse(() => code.promise, { onError: (error) => reported.push(error) });
    const waiting = inFlight.get();
    inFlight.dispose();
    code.reject(new Error('the chunk went with the extension'));
    await assert.rejects(waiting, /the chunk went/);
    assert.deepEqual(reported, [], 'a failure said after the extension was turned off or its window closed');
  });
});

describe('failedToLoad (what the log says of a chunk that could not be loaded)', () => {
  it('names what failed and the error, made inert and bounded, once per failed load', async () => {
    const lines: string[] = [];
    const loadFailed = failedToLoad({ error: (message) => lines.push(message) });
    const chunk = onFirstUse(() => Promise.reject(new Error(`gone\n<b>${'x'.repeat(1000)}</b>`)), {
      onError: loadFailed('The JSON documents'),
    });
    await assert.rejects(chunk.get());
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^The JSON documents could not be loaded: Error: gone/);
    assert.ok(!lines[0].includes('\n'), 'one line');
    assert.ok(lines[0].length < 400, `bounded: ${lines[0].length} characters`);
  });
});
