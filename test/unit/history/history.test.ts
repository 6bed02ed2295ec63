import * as assert from 'node:assert/strict';
import type { FlowSync, Item } from '../../../src/api/types';
import {
  MAX_CREATED_AT,
  MAX_FLOW_NAME,
  MAX_RAW_CHARS,
  ProcessingObserver,
  durationOf,
  entryFlowLabel,
  finishedNotification,
  processingAnswer,
  processingNow,
  withoutRaw,
  type HistoryEntry,
  type ProcessingAnswer,
} from '../../../src/history/index';
import { serializeSegment } from '../../../src/history/store';
import { FakeClock } from '../helpers/fakeClock';
import { syncAt as item } from '../helpers/items';
import { LONG_KEY, keyPiece } from '../helpers/keyPieces';

const POLL = 15_000;
const MIN = 60_000;
const CONTEXT = 'https://flowsync.example.com|team:';

const complete = (...items: Item<FlowSync>[]): ProcessingAnswer => ({ items, complete: true });
const partial = (...items: Item<FlowSync>[]): ProcessingAnswer => ({ items, complete: false });

describe('ProcessingObserver', () => {
  let clock: FakeClock;
  let observer: ProcessingObserver;
  /** Moves the fake clock one poll on and observes `answer` then. */
  const poll = async (answer: ProcessingAnswer, context = CONTEXT, ms = POLL) => {
    await clock.advance(ms);
    return observer.observe(context, clock.now(), answer);
  };

  beforeEach(() => {
    clock = new FakeClock();
    observer = new ProcessingObserver();
  });

  it('tracks first and last seen, and a sync missing from a later complete answer left at that answer', async () => {
    const t0 = clock.now();
    const a = item(1003, 7, t0, 10 * MIN, { flow: { id: 7, name: 'Invoices' } });
    const b = item(1004, 7, t0, MIN);
    assert.deepEqual(observer.observe(CONTEXT, t0, complete(a, b)), { left: [], returned: [] });
    assert.deepEqual((await poll(complete(a, b))).left, []);
    const tracked = observer.tracked.get(1003)!;
    assert.deepEqual([tracked.firstSeen, tracked.lastSeen], [t0, t0 + POLL]);

    const { left, returned } = await poll(complete(b));
    assert.deepEqual(returned, []);
    assert.equal(left.length, 1);
    const e = left[0];
    assert.deepEqual(
      [e.id, e.flowId, e.flowName, e.createdAt, e.firstSeen, e.lastSeen, e.leftAt],
      [1003, 7, 'Invoices', a.value.created_at, t0, t0 + POLL, t0 + 2 * POLL],
    );
    assert.deepEqual(e.raw, a.raw, 'the last item seen, for Open as JSON');
    // From created_at (10 min before t0) to the midpoint of [lastSeen, leftAt], ± half the gap.
    assert.deepEqual(e.duration, {
      ms: 10 * MIN + POLL + POLL / 2,
      uncertaintyMs: POLL / 2,
      from: 'created',
      startMs: t0 - 10 * MIN,
    });
    assert.equal(observer.tracked.has(1003), false);
    assert.deepEqual([...observer.tracked.keys()], [1004]);
  });

  it('a failed answer between two good ones writes nothing; the gap widens the uncertainty', async () => {
    const t0 = clock.now();
    const a = item(1, 1, t0, MIN);
    observer.observe(CONTEXT, t0, complete(a));
    // A failed poll is either not observed at all or observed as an empty, incomplete answer: both write nothing.
    assert.deepEqual(await poll({ items: [], complete: false }), { left: [], returned: [] });
    await clock.advance(POLL); // another failure, not observed
    assert.deepEqual((await poll(complete(a))).left, [], 'still processing after the failures');
    const { left } = await poll(complete(), CONTEXT, 3 * POLL);
    assert.equal(left.length, 1);
    assert.equal(left[0].lastSeen, t0 + 3 * POLL);
    assert.equal(left[0].leftAt, t0 + 6 * POLL);
    assert.equal(left[0].duration.uncertaintyMs, 1.5 * POLL);
  });

  it('a partial answer (items dropped) writes nothing, but its items count as seen', async () => {
    const t0 = clock.now();
    const a = item(1, 1, t0, MIN);
    const b = item(2, 1, t0, MIN);
    observer.observe(CONTEXT, t0, complete(a, b));
    assert.deepEqual((await poll(partial(b))).left, [], 'a missing from a partial answer has not left');
    assert.equal(observer.tracked.get(2)!.lastSeen, t0 + POLL);
    assert.equal(observer.tracked.get(1)!.lastSeen, t0);
    assert.deepEqual((await poll(complete(a, b))).left, []);
    assert.deepEqual(processingAnswer({ items: [a], dropped: 1 }), { items: [a], complete: false });
    assert.deepEqual(processingAnswer({ items: [a], dropped: 0 }), { items: [a], complete: true });
  });

  it('a changed context (URL, team filter) or restart() (key) restarts observation and writes nothing', async () => {
    const t0 = clock.now();
    const a = item(1, 1, t0, MIN);
    const b = item(2, 1, t0, MIN);
    observer.observe(CONTEXT, t0, complete(a));
    assert.deepEqual(
      await poll(complete(b), `${CONTEXT}3`),
      { left: [], returned: [] },
      'team filter changed: a is not "left"',
    );
    assert.equal(observer.context, `${CONTEXT}3`);
    assert.deepEqual([...observer.tracked.keys()], [2]);
    assert.equal(observer.tracked.get(2)!.firstSeen, t0 + POLL, 'observation started again');
    observer.restart(`${CONTEXT}3`);
    assert.equal(observer.tracked.size, 0);
    assert.deepEqual(await poll(complete(a), `${CONTEXT}3`), { left: [], returned: [] });
    assert.deepEqual(
      (await poll(complete(), `${CONTEXT}3`)).left.map((e) => e.id),
      [1],
      'observing again afterwards',
    );
  });

  it('a clock that went backwards restarts observation instead of writing a negative span', async () => {
    const t0 = clock.now();
    observer.observe(CONTEXT, t0, complete(item(1, 1, t0, MIN)));
    assert.deepEqual(observer.observe(CONTEXT, t0 - MIN, complete()), { left: [], returned: [] });
    assert.equal(observer.tracked.size, 0);
  });

  it('a sync that shows up again is processing again; leaving again is a second entry', async () => {
    const t0 = clock.now();
    const a = item(5, 2, t0, MIN);
    observer.observe(CONTEXT, t0, complete(a));
    const first = (await poll(complete())).left;
    assert.equal(first.length, 1);
    const back = await poll(complete(a));
    assert.deepEqual(back, { left: [], returned: [5] });
    assert.equal(observer.tracked.get(5)!.firstSeen, t0 + 2 * POLL);
    await poll(complete(a));
    const second = (await poll(complete())).left;
    assert.equal(second.length, 1);
    assert.deepEqual(
      [second[0].firstSeen, second[0].lastSeen, second[0].leftAt],
      [t0 + 2 * POLL, t0 + 3 * POLL, t0 + 4 * POLL],
    );
    assert.equal(second[0].createdAt, first[0].createdAt, 'the same sync, a second run');
    assert.deepEqual((await poll(complete(a))).returned, [5]);
  });

  it('several leaving in one answer come newest id first; values are updated from the latest answer', async () => {
    const t0 = clock.now();
    observer.observe(CONTEXT, t0, complete(item(1, 1, t0, MIN), item(3, 1, t0, MIN), item(2, 1, t0, MIN)));
    await poll(
      complete(item(1, 1, t0, MIN, { flow: { id: 1, name: 'Renamed' } }), item(3, 1, t0, MIN), item(2, 1, t0, MIN)),
    );
    const { left } = await poll(complete());
    assert.deepEqual(
      left.map((e) => e.id),
      [3, 2, 1],
    );
    assert.equal(left[2].flowName, 'Renamed');
  });

  it('bounds what it keeps: inert, bounded flow names; created_at as given but bounded; no raw over 16 KB', async () => {
    const t0 = clock.now();
    const hostile = item(1, 1, t0, MIN, { flow: { id: 1, name: `[x](command:evil) \u202e${'n'.repeat(1000)}` } });
    const big = item(2, 1, t0, MIN, { created_at: 'x'.repeat(500) });
    big.raw.padding = 'p'.repeat(MAX_RAW_CHARS);
    const unnamed = item(3, 9, t0, MIN, { flow: undefined });
    observer.observe(CONTEXT, t0, complete(hostile, big, unnamed));
    const [u, b, h] = (await poll(complete())).left;
    assert.ok(h.flowName.length <= MAX_FLOW_NAME);
    assert.doesNotMatch(h.flowName, /\]\(|\u202e/);
    assert.equal(b.createdAt.length, 64);
    assert.equal(b.raw, undefined);
    assert.equal(b.duration.from, 'firstSeen', 'an invalid created_at: measured from first seen');
    assert.equal(u.flowName, '');
    assert.equal(entryFlowLabel(u), 'Flow 9');
  });

  it('durations never go negative (created_at a little after the sync was seen: clocks disagree)', () => {
    const t0 = clock.now();
    const d = durationOf({
      createdAt: new Date(t0 + 4 * MIN).toISOString(),
      firstSeen: t0,
      lastSeen: t0 + MIN,
      leftAt: t0 + 2 * MIN,
    });
    assert.deepEqual(d, { ms: 0, uncertaintyMs: MIN / 2, from: 'created', startMs: t0 + 4 * MIN });
    const ahead = durationOf({
      createdAt: new Date(t0 + 10 * MIN).toISOString(),
      firstSeen: t0,
      lastSeen: t0 + MIN,
      leftAt: t0 + 2 * MIN,
    });
    assert.deepEqual(
      ahead,
      { ms: 1.5 * MIN, uncertaintyMs: MIN / 2, from: 'firstSeen', startMs: t0 },
      'further ahead than clock skew: from first seen',
    );
  });
});

describe('the API key echoed in a flow sync: masked before every cut, so no piece of it is kept', () => {
  const at = Date.UTC(2026, 10, 22, 12);
  /** The entry made when a sync holding `extra` leaves processing, seen by an observer that knows the key. */
  function leftEntry(extra: Partial<FlowSync>): HistoryEntry {
    const observer = new ProcessingObserver(() => LONG_KEY);
    observer.observe(CONTEXT, at, complete(item(1003, 7, at, 5 * MIN, extra)));
    const [entry] = observer.observe(CONTEXT, at + POLL, complete()).left;
    return entry;
  }
  const flow = (name: string): Partial<FlowSync> => ({ flow: { id: 7, name } });

  it(`a flow name with the key across the ${MAX_FLOW_NAME}-character cut: the History entry and its segment hold none of it`, () => {
    const entry = leftEntry(flow(`${'x'.repeat(MAX_FLOW_NAME - 12)}${LONG_KEY} tail`));
    assert.equal(keyPiece(entry.flowName, LONG_KEY), undefined, `flow name: ${entry.flowName}`);
    const segment = serializeSegment([withoutRaw(entry)], 'https://flowsync.example.com');
    assert.equal(keyPiece(segment, LONG_KEY), undefined, 'the segment written to disk');
  });

  it('a flow name holding the whole key (any letter case) shows it masked', () => {
    const entry = leftEntry(flow(`Invoices ${LONG_KEY.toUpperCase()}`));
    assert.equal(entry.flowName, 'Invoices •••');
  });

  it(`a created_at with the key across the ${MAX_CREATED_AT}-character cut keeps none of it`, () => {
    const entry = leftEntry({ created_at: `${'2'.repeat(MAX_CREATED_AT - 10)}${LONG_KEY}` });
    assert.equal(keyPiece(entry.createdAt, LONG_KEY), undefined, `created_at: ${entry.createdAt}`);
    assert.ok(entry.createdAt.length <= MAX_CREATED_AT);
  });

  it('the notification (flow name cut at 80) holds none of it', () => {
    const entry = leftEntry(flow(`${'x'.repeat(70)}${LONG_KEY}`));
    const text = finishedNotification([entry], { syncs: new Set(), flows: new Set() }, 'all').text ?? '';
    assert.match(text, /^Sync #1003 \(x+/);
    assert.equal(keyPiece(text, LONG_KEY), undefined, `notification: ${text}`);
  });

  it("the activity chart's syncs processing now show the flow name masked", () => {
    const observer = new ProcessingObserver(() => LONG_KEY);
    observer.observe(
      CONTEXT,
      at,
      complete(item(1003, 7, at, 5 * MIN, flow(`${'x'.repeat(MAX_FLOW_NAME - 12)}${LONG_KEY}`))),
    );
    const [now] = processingNow(observer.tracked, LONG_KEY);
    assert.equal(keyPiece(now.flowName, LONG_KEY), undefined, `flow name: ${now.flowName}`);
  });
});
