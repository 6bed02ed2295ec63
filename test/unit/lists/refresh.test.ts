import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import type { ListResult } from '../../../src/api/types';
import { BACKOFF_MAX_MS, ListRefresher, backoffDelay, retryDelay } from '../../../src/lists/refresh';
import { FakeClock, flushPromises } from '../helpers/fakeClock';

type Answer = ListResult<number> | ApiError;

/** A loader whose answers a test scripts; it records each call and can be held open. */
class ScriptedLoader {
  calls = 0;
  aborted = 0;
  inFlight = 0;
  maxInFlight = 0;
  answers: Answer[] = [];
  hold = false;
  private release: Array<() => void> = [];

  readonly load = (signal: AbortSignal): Promise<ListResult<number>> => {
    this.calls++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    signal.addEventListener('abort', () => this.aborted++);
    const answer = this.answers.length > 1 ? this.answers.shift()! : (this.answers[0] ?? ok([1]));
    return new Promise<void>((resolve) => (this.hold ? this.release.push(resolve) : resolve())).then(() => {
      this.inFlight--;
      if (answer instanceof ApiError) throw answer;
      return answer;
    });
  };

  releaseAll(): void {
    const pending = this.release;
    this.release = [];
    this.hold = false;
    for (const r of pending) r();
  }
}

function ok(values: number[], fingerprint = values.join(',')): ListResult<number> {
  return { items: values.map((v) => ({ value: v, raw: { v } })), dropped: 0, fingerprint };
}

const FOCUSED_MS = 30_000;
const poll30s = (focused: boolean) => (focused ? FOCUSED_MS : FOCUSED_MS * 4);
const noPoll = () => undefined;
const half = () => 0.5;

describe('ListRefresher', () => {
  let clock: FakeClock;
  let loader: ScriptedLoader;

  beforeEach(() => {
    clock = new FakeClock();
    loader = new ScriptedLoader();
  });

  it('loads, keeps items and schedules the next poll', async () => {
    const r = new ListRefresher(loader.load, clock, poll30s, half);
    await r.refresh();
    assert.deepEqual(r.state.items?.map((i) => i.value), [1]);
    assert.equal(r.state.loadedAt, clock.now());
    assert.equal(r.state.nextAttemptAt, clock.now() + FOCUSED_MS);
    await clock.advance(FOCUSED_MS);
    assert.equal(loader.calls, 2);
  });

  it('reset(): tells nothing when the list holds nothing and does nothing; tells when it dropped data', async () => {
    const r = new ListRefresher(loader.load, clock, poll30s, half);
    const changes: boolean[] = [];
    r.onDidChange((c) => changes.push(c.itemsChanged));
    r.reset(false);
    assert.deepEqual(changes, []);
    await r.refresh();
    changes.length = 0;
    r.reset(false);
    assert.deepEqual(changes, [true], 'the items are gone');
    assert.equal(r.state.items, undefined);
    assert.equal(clock.pendingTimers, 0, 'and the poll with them');
  });

  it('adopt(): takes another window\'s answer without a request, plans the next poll from its time', async () => {
    const r = new ListRefresher(loader.load, clock, poll30s, half);
    await r.refresh();
    const changes: boolean[] = [];
    r.onDidChange((c) => changes.push(c.itemsChanged));
    const at = clock.now() + 10_000;
    await clock.advance(12_000);
    r.adopt(ok([2, 3]), at);
    assert.deepEqual(r.state.items?.map((i) => i.value), [2, 3]);
    assert.equal(r.state.loadedAt, at);
    assert.equal(r.state.nextAttemptAt, at + FOCUSED_MS);
    assert.deepEqual(changes, [true]);
    r.adopt(ok([2, 3]), at - 1);
    r.adopt(ok([4]), at);
    assert.deepEqual(changes, [true], 'an older or equally old answer is ignored');
    r.adopt(ok([2, 3]), at + 1);
    assert.deepEqual(changes, [true, false], 'the same answer again: no items change');
    assert.equal(loader.calls, 1, 'no request');
    await clock.advance(at + 1 + FOCUSED_MS - 1 - clock.now());
    assert.equal(loader.calls, 1);
    await clock.advance(1);
    assert.equal(loader.calls, 2, 'polled an interval after the adopted answer');
  });

  it('adopt(): ignored while a load is in flight; clears a failure and its backoff', async () => {
    const r = new ListRefresher(loader.load, clock, noPoll, half);
    loader.answers = [new ApiError('network', 'down')];
    await r.refresh();
    assert.equal(r.state.failures, 1);
    r.adopt(ok([5]), clock.now());
    assert.equal(r.state.failures, 0);
    assert.equal(r.state.error, undefined);
    assert.equal(clock.pendingTimers, 0, 'no retry pending, no poll (on demand)');
    loader.answers = [ok([6])];
    loader.hold = true;
    const p = r.refresh();
    r.adopt(ok([7]), clock.now() + 1);
    loader.releaseAll();
    await p;
    assert.deepEqual(r.state.items?.map((i) => i.value), [6]);
  });

  it('joins a refresh asked for while one is in flight (single flight)', async () => {
    const r = new ListRefresher(loader.load, clock, noPoll, half);
    loader.hold = true;
    const promises = Array.from({ length: 100 }, () => r.refresh());
    assert.equal(loader.calls, 1);
    loader.releaseAll();
    await Promise.all(promises);
    assert.equal(loader.maxInFlight, 1);
    assert.equal(r.state.loading, false);
  });

  it('fires itemsChanged only when the answer differs', async () => {
    const r = new ListRefresher(loader.load, clock, noPoll, half);
    const changes: boolean[] = [];
    r.onDidChange((c) => changes.push(c.itemsChanged));
    loader.answers = [ok([1, 2]), ok([1, 2]), ok([1, 3])];
    await r.refresh();
    const firstItems = r.state.items;
    await r.refresh();
    assert.equal(r.state.items, firstItems, 'same answer keeps the same item objects');
    await r.refresh();
    assert.deepEqual(r.state.items?.map((i) => i.value), [1, 3]);
    assert.equal(changes.filter(Boolean).length, 2, 'first load and the changed answer only');
  });

  it('keeps the last good data on failure and backs off exponentially to 5 minutes', async () => {
    const r = new ListRefresher(loader.load, clock, noPoll, half);
    loader.answers = [ok([7]), new ApiError('http', 'boom', { status: 500 })];
    await r.refresh();
    await r.refresh();
    assert.deepEqual(r.state.items?.map((i) => i.value), [7]);
    assert.equal(r.state.error?.kind, 'http');
    const delays: number[] = [];
    for (let i = 0; i < 9; i++) {
      const due = r.state.nextAttemptAt!;
      delays.push(due - clock.now());
      await clock.advance(due - clock.now());
    }
    assert.deepEqual(delays, [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
    assert.deepEqual(r.state.items?.map((i) => i.value), [7], 'stale data stays');
  });

  it('recovers by itself when the service answers again', async () => {
    const r = new ListRefresher(loader.load, clock, poll30s, half);
    loader.answers = [new ApiError('network', 'refused'), ok([9])];
    await r.refresh();
    assert.equal(r.state.failures, 1);
    await clock.advance(r.state.nextAttemptAt! - clock.now());
    assert.equal(r.state.error, undefined);
    assert.equal(r.state.failures, 0);
    assert.deepEqual(r.state.items?.map((i) => i.value), [9]);
    assert.equal(r.state.nextAttemptAt, clock.now() + FOCUSED_MS, 'back to the normal schedule');
  });

  it('waits for Retry-After when rate limited', async () => {
    const r = new ListRefresher(loader.load, clock, poll30s, half);
    loader.answers = [new ApiError('rateLimited', 'slow down', { status: 429, retryAfterMs: 42_000 }), ok([1])];
    await r.refresh();
    assert.equal(r.state.nextAttemptAt, clock.now() + 42_000);
    await clock.advance(41_999);
    assert.equal(loader.calls, 1);
    await clock.advance(1);
    assert.equal(loader.calls, 2);
  });

  it('stops retrying after unauthorized until reset', async () => {
    const r = new ListRefresher(loader.load, clock, poll30s, half);
    loader.answers = [new ApiError('unauthorized', 'bad key', { status: 401 })];
    await r.refresh();
    assert.equal(r.state.nextAttemptAt, undefined);
    await clock.advance(24 * 3600_000);
    assert.equal(loader.calls, 1);
    assert.equal(clock.pendingTimers, 0);
  });

  it('polls slower while unfocused and at once when focus returns to stale data', async () => {
    const r = new ListRefresher(loader.load, clock, poll30s, half);
    await r.refresh();
    r.setFocused(false);
    assert.equal(r.state.nextAttemptAt, clock.now() + FOCUSED_MS * 4);
    await clock.advance(FOCUSED_MS * 2);
    assert.equal(loader.calls, 1, 'no poll at the focused cadence while unfocused');
    r.setFocused(true);
    await flushPromises();
    assert.equal(loader.calls, 2, 'stale on focus: immediate refresh');
  });

  it('focus returning to fresh data does not load early', async () => {
    const r = new ListRefresher(loader.load, clock, poll30s, half);
    await r.refresh();
    r.setFocused(false);
    await clock.advance(10_000);
    r.setFocused(true);
    await flushPromises();
    assert.equal(loader.calls, 1);
    assert.equal(r.state.nextAttemptAt, clock.now() + 20_000);
  });

  it('reset aborts the request in flight and ignores its answer', async () => {
    const r = new ListRefresher(loader.load, clock, noPoll, half);
    loader.answers = [ok([1]), ok([2])];
    loader.hold = true;
    const first = r.refresh();
    r.reset(false);
    assert.equal(loader.aborted, 1);
    loader.releaseAll();
    await first;
    assert.equal(r.state.items, undefined, 'the aborted answer is not shown');
    await r.refresh();
    assert.deepEqual(values(r), [2]);
  });

  it('dispose leaves no timer, nothing in flight and no listener', async () => {
    const r = new ListRefresher(loader.load, clock, poll30s, half);
    r.onDidChange(() => undefined);
    await r.refresh();
    loader.hold = true;
    void r.refresh();
    r.dispose();
    assert.equal(clock.pendingTimers, 0);
    assert.equal(r.isLoading, false);
    assert.equal(r.listenerCount, 0);
    assert.equal(loader.aborted, 1);
  });

  it('soak: 24 simulated hours of polling, focus changes and errors', async () => {
    const r = new ListRefresher(loader.load, clock, poll30s, half);
    let changes = 0;
    r.onDidChange(() => changes++);
    const start = clock.now();
    await r.refresh();
    let heapBefore = 0;
    let expected = 1;
    for (let hour = 0; hour < 24; hour++) {
      const focused = hour % 3 !== 2; // one unfocused hour in three
      const callsBefore = loader.calls;
      r.setFocused(focused);
      const pollMs = focused ? FOCUSED_MS : FOCUSED_MS * 4;
      if (hour % 6 === 5) {
        // One error per six hours, then recovery after the first backoff step.
        loader.answers = [new ApiError('http', 'blip', { status: 502 }), ok([1])];
      }
      await clock.advance(3600_000);
      const calls = loader.calls - callsBefore;
      // The schedule: one request per poll interval, plus at most the focus-return refresh and one error retry.
      const scheduled = 3600_000 / pollMs;
      assert.ok(calls >= scheduled - 1 && calls <= scheduled + 2, `hour ${hour} (${focused ? 'focused' : 'unfocused'}): ${calls} requests, schedule ${scheduled}`);
      expected += calls;
      if (hour === 0) heapBefore = heapAfterGc(); // measured after a warm-up hour
    }
    assert.equal(loader.calls, expected);
    assert.equal(loader.maxInFlight, 1, 'requests never overlap');
    assert.equal(clock.pendingTimers, 1, 'exactly one timer pending');
    assert.equal(r.listenerCount, 1);
    assert.ok(clock.now() - start >= 24 * 3600_000);
    const growth = heapAfterGc() - heapBefore;
    assert.ok(growth < 1024 * 1024, `heap grew by ${growth} bytes over 23 simulated hours`);
    r.dispose();
    assert.equal(clock.pendingTimers, 0);
    assert.ok(changes > 0);
  });
});

describe('backoff', () => {
  it('doubles from 5 s and caps at 5 min with ±20 % jitter', () => {
    assert.equal(backoffDelay(1, () => 0.5), 5_000);
    assert.equal(backoffDelay(2, () => 0.5), 10_000);
    assert.equal(backoffDelay(1, () => 0), 4_000);
    assert.equal(backoffDelay(1, () => 1), 6_000);
    assert.equal(backoffDelay(30, () => 1), BACKOFF_MAX_MS);
  });

  it('maps error kinds to retry delays', () => {
    assert.equal(retryDelay('unauthorized', undefined, 1, () => 0.5), undefined);
    assert.equal(retryDelay('rateLimited', 12_000, 1, () => 0.5), 12_000);
    assert.equal(retryDelay('rateLimited', 10 * 24 * 3600_000, 1, () => 0.5), 3600_000, 'absurd Retry-After is bounded');
    assert.equal(retryDelay('rateLimited', undefined, 2, () => 0.5), 10_000);
    assert.equal(retryDelay('timeout', undefined, 3, () => 0.5), 20_000);
  });
});

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  assert.ok(gc, 'run mocha with --expose-gc (.mocharc.json)');
  gc();
  return process.memoryUsage().heapUsed;
}

function values(r: ListRefresher<number>): number[] | undefined {
  return r.state.items?.map((i) => i.value);
}

describe('ListRefresher with a listener that throws', () => {
  it('isolates listeners: the others still hear every change, the error is reported, refresh() resolves', async () => {
    const clock = new FakeClock();
    const loader = new ScriptedLoader();
    const reported: unknown[] = [];
    const r = new ListRefresher(loader.load, clock, noPoll, half, (e) => reported.push(e));
    r.onDidChange(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    const heard: Array<{ loading: boolean; items?: number }> = [];
    r.onDidChange(() => heard.push({ loading: r.state.loading, items: r.state.items?.length }));
    await r.refresh(); // rejected before: the exception escaped emit()
    assert.deepEqual(heard, [{ loading: true, items: undefined }, { loading: false, items: 1 }], 'the later listener heard the end of the load');
    assert.equal(reported.length, 2);
    assert.ok(reported[0] instanceof RangeError);
    assert.equal(r.state.loading, false);
  });
});

describe('ListRefresher.refreshIfDue (what a link may ask for)', () => {
  let clock: FakeClock;
  let loader: ScriptedLoader;
  const asks = (r: ListRefresher<number>, n: number) => Promise.all(Array.from({ length: n }, () => r.refreshIfDue(FOCUSED_MS)));

  beforeEach(() => {
    clock = new FakeClock();
    loader = new ScriptedLoader();
  });

  it('a list never loaded: fifty asks at once send one request and all hear it', async () => {
    const r = new ListRefresher(loader.load, clock, noPoll, half);
    loader.hold = true;
    const all = asks(r, 50);
    await flushPromises();
    loader.releaseAll();
    assert.deepEqual(new Set(await all), new Set([undefined]), 'each ask joined the one load');
    assert.equal(loader.calls, 1);
  });

  it('at most once per interval, however many asks arrive; due again one interval after the last attempt', async () => {
    const r = new ListRefresher(loader.load, clock, noPoll, half);
    await r.refresh();
    assert.deepEqual(new Set(await asks(r, 50)), new Set(['recent']));
    await clock.advance(FOCUSED_MS - 1);
    assert.equal(await r.refreshIfDue(FOCUSED_MS), 'recent');
    assert.equal(loader.calls, 1);
    await clock.advance(1);
    assert.equal(await r.refreshIfDue(FOCUSED_MS), undefined);
    assert.equal(await r.refreshIfDue(FOCUSED_MS), 'recent');
    assert.equal(loader.calls, 2);
  });

  it('a failed attempt counts as the last attempt too (a failure with no retry plan is not asked again at once)', async () => {
    const r = new ListRefresher(loader.load, clock, noPoll, half);
    loader.answers = [new ApiError('cancelled', 'cancelled')];
    await r.refresh();
    assert.equal(await r.refreshIfDue(FOCUSED_MS), 'recent');
    assert.equal(loader.calls, 1);
  });

  it('after unauthorized: nothing, for as long as automatic refresh waits for a new key; a reset (new key) ends that', async () => {
    const r = new ListRefresher(loader.load, clock, poll30s, half);
    loader.answers = [new ApiError('unauthorized', 'bad key', { status: 401 }), ok([1])];
    await r.refresh();
    await clock.advance(24 * 3600_000);
    assert.deepEqual(new Set(await asks(r, 50)), new Set(['keyRefused']));
    assert.equal(loader.calls, 1, 'the key the service refused was not sent again');
    r.reset(false);
    assert.equal(await r.refreshIfDue(FOCUSED_MS), undefined);
    assert.equal(loader.calls, 2);
  });

  it('while Retry-After or the backoff runs: nothing until the planned attempt', async () => {
    const r = new ListRefresher(loader.load, clock, poll30s, half);
    loader.answers = [new ApiError('rateLimited', 'slow down', { status: 429, retryAfterMs: 3600_000 }), ok([1])];
    await r.refresh();
    await clock.advance(3600_000 - 1);
    assert.deepEqual(new Set(await asks(r, 50)), new Set(['waiting']));
    assert.equal(loader.calls, 1);
    await clock.advance(1);
    assert.equal(loader.calls, 2, 'the planned attempt ran');
    assert.equal(await r.refreshIfDue(FOCUSED_MS), 'recent');
  });

  it('another window\'s failure with its next attempt holds asks back here too', async () => {
    const r = new ListRefresher(loader.load, clock, noPoll, half);
    r.adoptFailure(new ApiError('rateLimited', 'slow down', { status: 429 }), clock.now(), clock.now() + 60_000);
    assert.equal(await r.refreshIfDue(FOCUSED_MS), 'waiting');
    r.adoptFailure(new ApiError('unauthorized', 'bad key', { status: 401 }), clock.now() + 1, undefined);
    assert.equal(await r.refreshIfDue(FOCUSED_MS), 'keyRefused');
    assert.equal(loader.calls, 0);
  });

  it('an answer adopted from another window counts as a recent answer', async () => {
    const r = new ListRefresher(loader.load, clock, noPoll, half);
    r.adopt(ok([3]), clock.now() - 1_000);
    assert.equal(await r.refreshIfDue(FOCUSED_MS), 'recent');
    assert.equal(loader.calls, 0);
  });
});
