import * as assert from 'node:assert/strict';
import { Outbox, combineRuns } from '../../../src/teamHistory/outbox';
import type { TeamRun, WatchSpan } from '../../../src/teamHistory/teamRows';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const SEC = 1000;

function run(id: number, left: number | undefined, extra: Partial<TeamRun> = {}): TeamRun {
  return {
    observer: 'self-installation',
    service: 'svc',
    team: '',
    id,
    flowId: 7,
    flowName: 'Invoices',
    createdAt: 'c',
    firstSeen: T0 + id * SEC,
    lastSeen: T0 + id * SEC + 5 * SEC,
    leftAt: left === undefined ? undefined : T0 + id * SEC + left * SEC,
    hadErrors: false,
    ...extra,
  };
}
const span = (from: number, to: number): WatchSpan => ({
  observer: 'self-installation',
  service: 'svc',
  team: '',
  from,
  to,
});

describe('teamHistory outbox: what waits to be written', () => {
  it('keeps each row once, combined as the store combines it, until a write of it succeeds', () => {
    const outbox = new Outbox();
    outbox.addRun(run(1, undefined)); // still processing
    outbox.addRun(run(1, 10, { lastSeen: T0 + 8 * SEC })); // it left
    outbox.addRun(run(1, undefined, { hadErrors: true })); // an older version arrives late
    assert.equal(outbox.size, 1);
    const batch = outbox.take(10);
    assert.deepEqual(batch.runs, [run(1, 10, { lastSeen: T0 + 8 * SEC, hadErrors: true })]);
    outbox.sent(batch);
    assert.equal(outbox.size, 0);
  });

  it('a failed write leaves its rows waiting; a row replaced during a write stays', () => {
    const outbox = new Outbox();
    outbox.addRun(run(1, 10));
    outbox.addRun(run(2, 10));
    outbox.addSpan(span(T0, T0 + SEC));
    const failed = outbox.take(10);
    assert.equal(failed.runs.length + failed.spans.length, 3);
    assert.equal(outbox.size, 3, 'nothing removed by taking');
    const batch = outbox.take(10);
    outbox.addRun(run(2, 10, { flowName: 'Renamed' }));
    outbox.addSpan(span(T0, T0 + 2 * SEC));
    outbox.sent(batch);
    assert.deepEqual(outbox.take(10), { runs: [run(2, 10, { flowName: 'Renamed' })], spans: [span(T0, T0 + 2 * SEC)] });
  });

  it('takes the oldest first, at most a batch', () => {
    const outbox = new Outbox();
    for (let i = 1; i <= 5; i++) outbox.addRun(run(i, 1));
    outbox.addSpan(span(T0, T0 + SEC));
    assert.deepEqual(
      outbox.take(3).runs.map((r) => r.id),
      [1, 2, 3],
    );
    const all = outbox.take(10);
    assert.equal(all.runs.length, 5);
    assert.equal(all.spans.length, 1);
  });

  it('bounded: the oldest runs are dropped and replayed from the local History when there is room', () => {
    const outbox = new Outbox({ maxRuns: 3, maxSpans: 2 });
    const history = [1, 2, 3, 4, 5].map((id) => run(id, 10));
    for (const r of history) outbox.addRun(r);
    assert.equal(outbox.size, 3);
    assert.equal(outbox.replaySince, history[0].leftAt, 'from the oldest dropped');
    outbox.replay(history); // no room yet: nothing dropped for it
    assert.deepEqual(
      outbox.take(10).runs.map((r) => r.id),
      [3, 4, 5],
    );
    assert.equal(outbox.replaySince, history[0].leftAt);
    outbox.sent(outbox.take(10));
    outbox.replay(history);
    assert.equal(outbox.replaySince, history[3].leftAt, 'what did not fit waits for the next replay');
    const replayed = outbox.take(10);
    assert.deepEqual(
      replayed.runs.map((r) => r.id),
      [1, 2, 3],
      'offered again, oldest first (3 again: idempotent in the store)',
    );
    outbox.sent(replayed);
    outbox.replay(history);
    assert.equal(outbox.replaySince, undefined);
    assert.deepEqual(
      outbox.take(10).runs.map((r) => r.id),
      [4, 5],
    );
    for (let i = 0; i < 4; i++) outbox.addSpan(span(T0 + i, T0 + i + 1));
    assert.equal(outbox.spansDropped, 2);
  });

  it('combines two versions of a row as the store does', () => {
    assert.deepEqual(combineRuns(run(1, 20), run(1, 10)).leftAt, T0 + 11 * SEC);
    assert.deepEqual(combineRuns(run(1, 20), run(1, undefined)).leftAt, T0 + 21 * SEC);
    assert.deepEqual(combineRuns(run(1, undefined, { hadErrors: true }), run(1, 5)).hadErrors, true);
  });
});
