import * as assert from 'node:assert/strict';
import { flowInsights } from '../../../src/history/insights';
import { NO_OLDER_DAYS } from '../../../src/history/summary';
import { FLOWS_KEPT_MS, FlowsByService, INSIGHTS_POST_GAP_MS, Throttle } from '../../../src/insights/insightsUpdates';
import { FakeClock } from '../helpers/fakeClock';
import { leftRun } from '../helpers/historyRuns';
import { NOW } from '../helpers/items';

describe('Flow Insights updates (#38 item 10): one service computed again, a page at most every few seconds', () => {
  it('FlowsByService computes again only the service whose History changed (a new array of runs), else reuses', () => {
    const computed: number[] = [];
    const cache = new FlowsByService<{ id: number }>((entries, older, now) => {
      computed.push([...entries].length);
      return flowInsights(entries, older, now);
    });
    const services = Array.from({ length: 20 }, (_, id) => ({ id }));
    const histories = services.map((s) => ({ entries: [leftRun(s.id, 1, 'Flow', 1, 5)], older: NO_OLDER_DAYS }));
    for (const s of services) cache.flows(s, histories[s.id], NOW);
    assert.equal(computed.length, 20, 'each service once');
    // Service 7's History changes: History replaces its runs with a new array.
    histories[7] = { ...histories[7], entries: [leftRun(100, 1, 'Flow', 0.5, 6), ...histories[7].entries] };
    const page = services.map((s) => cache.flows(s, histories[s.id], NOW + 1_000));
    assert.deepEqual(computed.slice(20), [2], 'only service 7, with its two runs');
    assert.equal(page[7][0].runs, 2);
    assert.equal(page[3], cache.flows(services[3], histories[3], NOW + 2_000), 'the same flows, not a new computation');
    cache.flows(services[3], histories[3], NOW + FLOWS_KEPT_MS + 1);
    assert.equal(computed.length, 22, 'computed again once its numbers are a minute old (the last 24 hours move)');
    cache.flows(services[4], histories[4], NOW - 1);
    assert.equal(computed.length, 23, 'a clock set back computes again');
  });

  it('Throttle sends the first request at once, then at most once per gap (one send for many requests)', async () => {
    const clock = new FakeClock();
    const throttle = new Throttle(clock, INSIGHTS_POST_GAP_MS);
    const sent: number[] = [];
    const send = () => sent.push(clock.now());
    const start = clock.now();
    throttle.request(send);
    assert.deepEqual(sent, [start], 'at once');
    for (let i = 0; i < 100; i++) {
      await clock.advance(10); // History changes every 10 ms (20 services polling, runs leaving)
      throttle.request(send);
    }
    assert.deepEqual(
      sent.map((t) => t - start),
      [0],
      'one second of changes: nothing more yet',
    );
    await clock.advance(INSIGHTS_POST_GAP_MS);
    assert.deepEqual(
      sent.map((t) => t - start),
      [0, INSIGHTS_POST_GAP_MS],
      'one send when the gap has passed',
    );
    assert.equal(clock.pendingTimers, 0);
    await clock.advance(60_000);
    throttle.request(send);
    assert.equal(sent.length, 3, 'after a quiet minute, at once again');
    throttle.request(send);
    throttle.dispose();
    await clock.advance(INSIGHTS_POST_GAP_MS * 2);
    assert.equal(sent.length, 3, 'disposed: the planned send is dropped');
  });
});
