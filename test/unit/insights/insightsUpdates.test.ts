import * as assert from 'node:assert/strict';
import { flowInsights } from '../../../src/history/insights';
import { NO_OLDER_DAYS, durationBucket, type OlderDays } from '../../../src/history/summary';
import { insightsPage } from '../../../src/insights/insightsPage';
import {
  applyInsights,
  insightsGroups,
  type InsightsState,
  type InsightsUpdate,
} from '../../../src/insights/insightsState';
import {
  FLOWS_KEPT_MS,
  FlowsByService,
  INSIGHTS_POST_GAP_MS,
  InsightsFeed,
  Throttle,
} from '../../../src/insights/insightsUpdates';
import { FakeClock } from '../helpers/fakeClock';
import { leftRun } from '../helpers/historyRuns';
import { NOW } from '../helpers/items';

/** Summaries of the 5 days before the runs in memory (3 days), for `k`'s flows 0-3 (flow 3 has no run in memory). */
function olderDays(k: number): OlderDays {
  const DAY = 24 * 3_600_000;
  const before = Math.floor((NOW - 3 * DAY) / DAY) * DAY;
  return {
    before,
    days: Array.from({ length: 5 }, (_, d) => ({
      day: new Date(before - (5 - d) * DAY).toISOString().slice(0, 10),
      runs: 0,
      flows: [0, 1, 2, 3].map((flowId) => ({
        flowId,
        label: `Flow ${flowId}`,
        labelAt: before - (5 - d) * DAY,
        durations: [durationBucket((3 + flowId + k) * 60_000), 4 + d, durationBucket(9 * 60_000), 2],
        hours: [],
      })),
    })),
  };
}

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
    cache.flows(services[4], histories[4], NOW - 1);
    assert.equal(computed.length, 22, 'a clock set back computes again');
  });

  it('numbers a minute old, History unchanged: no service computed again, the last 24 hours brought to now alone', () => {
    const computed: number[] = [];
    const cache = new FlowsByService<{ id: number }>((entries, older, now) => {
      computed.push([...entries].length);
      return flowInsights(entries, older, now);
    });
    const services = Array.from({ length: 20 }, (_, id) => ({ id }));
    // Runs of three flows every 7 minutes over 3 days, some long ago, some not timed from their start; older days.
    const histories = services.map((s) => ({
      entries: Array.from({ length: 600 }, (_, i) => {
        const entry = leftRun(
          s.id * 1000 + i,
          i % 3,
          `Flow ${i % 3}`,
          (i * 7) / 60,
          2 + ((i * 5 + s.id) % 9) + (i < 30 ? 20 : 0),
        );
        return i % 50 === 7 ? { ...entry, duration: { ...entry.duration, from: 'firstSeen' as const } } : entry;
      }),
      older: olderDays(s.id),
    }));
    for (const s of services) cache.flows(s, histories[s.id], NOW);
    assert.equal(computed.length, 20);
    for (const later of [
      FLOWS_KEPT_MS + 1,
      2 * FLOWS_KEPT_MS + 7,
      40 * FLOWS_KEPT_MS,
      1434 * FLOWS_KEPT_MS,
      3 * 24 * 60 * FLOWS_KEPT_MS,
    ]) {
      for (const s of services) {
        assert.deepEqual(
          cache.flows(s, histories[s.id], NOW + later),
          flowInsights(histories[s.id].entries, histories[s.id].older, NOW + later),
          `service ${s.id}, ${later / 60_000} min later: as computed anew`,
        );
      }
    }
    assert.equal(computed.length, 20, 'no service computed again: History did not change');
    const before = cache.flows(services[2], histories[2], NOW + 3 * 24 * 60 * FLOWS_KEPT_MS + 1);
    assert.equal(
      cache.flows(services[2], histories[2], NOW + 3 * 24 * 60 * FLOWS_KEPT_MS + FLOWS_KEPT_MS + 2),
      before,
      'nothing of its last 24 hours changed (every run older): the same flows, not a new array',
    );
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

describe('InsightsFeed (#49 item 10): the whole page once, then only what changed', () => {
  const MIN = 60_000;
  /** 20 services, 4 flows each, a run every 10 minutes over 2 days (all timed from their start). */
  const make = () =>
    Array.from({ length: 20 }, (_, k) => ({
      key: { k },
      name: `Service ${k}`,
      entries: Array.from({ length: 288 }, (_, i) =>
        leftRun(k * 10_000 + i, i % 4, `Flow ${i % 4}`, (i * 10 + 5) / 60, 3 + ((i + k) % 7)),
      ),
      older: NO_OLDER_DAYS,
    }));
  type Service = ReturnType<typeof make>[number];
  const feedOf = (services: Service[]) =>
    services.map((s) => ({ service: s.key, name: s.name, snapshot: { entries: s.entries, older: s.older } }));
  const counting = () => {
    const computed: string[] = [];
    const flows = new FlowsByService<{ k: number }>((entries, older, now) => {
      computed.push(`computed ${[...entries].length}`);
      return flowInsights(entries, older, now);
    });
    return { computed, flows };
  };
  const bytes = (update: unknown) => JSON.stringify(update).length;
  const rowsIn = (update: InsightsUpdate | undefined) =>
    Object.entries(update?.parts ?? {}).flatMap(([key, part]) =>
      Object.keys(part.rows ?? {}).map((f) => `${key}/${f}`),
    );

  it('one service changed: only it computed again, only its changed flow posted; nothing changed: nothing posted', () => {
    const services = make();
    const { computed, flows } = counting();
    const feed = new InsightsFeed<{ k: number }>(undefined, flows);
    const whole = feed.next(feedOf(services), true, 90, NOW);
    assert.ok(whole && whole.base === undefined, 'the whole page first');
    assert.equal(computed.length, 20);
    assert.equal(Object.keys(whole.parts ?? {}).length, 20);
    assert.equal(rowsIn(whole).length, 80, 'every flow of every service');
    // A run of flow 2 leaves service 7 (History: a new array, the new run at the top).
    services[7].entries = [leftRun(999_999, 2, 'Flow 2', 0.01, 30), ...services[7].entries];
    const update = feed.next(feedOf(services), true, 90, NOW + 3_000);
    assert.equal(computed.length, 21, 'service 7 alone computed again');
    assert.deepEqual(rowsIn(update), ['7/2'], "only service 7's flow 2: its row changed, its other flows' did not");
    assert.equal(update?.base, whole.seq);
    assert.equal(update?.services, undefined, 'the services and their order as before: not sent');
    assert.ok(bytes(update) * 40 < bytes(whole), `${bytes(update)} bytes against ${bytes(whole)} for the whole page`);
    assert.equal(feed.next(feedOf(services), true, 90, NOW + 6_000), undefined, 'nothing changed: nothing to post');
    assert.equal(computed.length, 21);
  });

  it('numbers a minute old: no service computed again; only the flows whose last 24 hours moved are posted', () => {
    const services = make();
    // Service 3's runs all left more than a day ago: its last 24 hours are empty, and stay so.
    services[3].entries = services[3].entries.map((e) => ({ ...e, leftAt: e.leftAt - 3 * 24 * 60 * MIN }));
    const { computed, flows } = counting();
    const feed = new InsightsFeed<{ k: number }>(undefined, flows);
    feed.next(feedOf(services), true, 90, NOW);
    const update = feed.next(feedOf(services), true, 90, NOW + 10 * MIN);
    assert.equal(computed.length, 20, 'none computed again: the last 24 hours brought to the time alone');
    const posted = new Set(rowsIn(update).map((r) => r.split('/')[0]));
    assert.ok(!posted.has('3'), 'service 3: nothing moved, nothing posted');
    assert.equal(posted.size, 19);
  });

  it('the page merges the updates into the same page as a whole page of then (and asks again when it cannot)', () => {
    const services = make();
    const feed = new InsightsFeed<{ k: number }>();
    let state: InsightsState | undefined;
    const steps: Array<(now: number) => void> = [
      () => undefined,
      (now) => (services[1].entries = [leftRun(1, 1, 'Flow 1', 0, 50, now), ...services[1].entries]),
      (now) => (services[4].entries = [leftRun(2, 9, 'Flow 9', 0, 5, now), ...services[4].entries]),
      () => services.splice(5, 1),
      () => services.reverse(),
      (now) => (services[0].entries = [leftRun(3, 0, 'FLOW 1', 0, 5, now), ...services[0].entries.slice(0, 100)]),
      () => (services[2].name = 'Renamed'),
      () => services.push({ ...make()[19], key: { k: 99 }, name: 'New' }),
    ];
    steps.forEach((step, i) => {
      const now = NOW + i * 37 * MIN;
      step(now);
      const update = feed.next(feedOf(services), true, 90, now);
      if (update) state = applyInsights(state, update);
      const fresh = new InsightsFeed<{ k: number }>().next(feedOf(services), true, 90, now);
      const wholeState = applyInsights(undefined, fresh!);
      assert.ok(state && wholeState);
      assert.deepEqual(insightsGroups(state), insightsGroups(wholeState), `step ${i}: merged as the whole page`);
      assert.deepEqual(feed.page()?.groups, insightsGroups(wholeState).groups);
    });
    // The same as insightsPage's, which the page showed before.
    const page = insightsPage(
      services.map((s) => ({ service: s.name, flows: flowInsights(s.entries, s.older, NOW + 7 * 37 * MIN) })),
      true,
      90,
      NOW + 7 * 37 * MIN,
    );
    assert.deepEqual(insightsGroups(state!).groups, page.groups);
    // An update of another page than the one held is not applied: the page asks for the whole page.
    services[0].entries = [leftRun(4, 0, 'Flow 0', 0, 5, NOW + 8 * 37 * MIN), ...services[0].entries];
    const next = feed.next(feedOf(services), true, 90, NOW + 8 * 37 * MIN);
    assert.ok(next && next.base !== undefined);
    assert.equal(applyInsights({ ...state!, seq: state!.seq - 1 }, next), undefined);
    assert.equal(applyInsights(undefined, next), undefined);
    feed.reset();
    assert.equal(feed.next(feedOf(services), true, 90, NOW + 8 * 37 * MIN)?.base, undefined, 'reset: the whole page');
  });
});
