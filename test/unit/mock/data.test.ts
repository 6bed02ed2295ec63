import * as assert from 'node:assert/strict';
import { DEFAULT_STUCK_SINCE, Flow, FlowSync, MockDataset, STUCK_SYNC_ID } from '../../../src/mock/data';

const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);

describe('mock data', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const first = new MockDataset({ seed: 7 });
    const again = new MockDataset({ seed: 7 });
    assert.deepEqual(again.connections, first.connections);
    assert.deepEqual(again.processingAt(T0), first.processingAt(T0));
    assert.notDeepEqual(new MockDataset({ seed: 8 }).connections, first.connections);
  });

  it('has the default sizes, a pdf connection and realistic variety', () => {
    const data = new MockDataset();
    assert.equal(data.teams.length, 5);
    assert.equal(data.flows.length, 8);
    assert.equal(data.connections.length, 36);
    assert.ok(data.connections.some((connection) => connection.type === 'pdf'));
    assert.ok(new Set(data.connections.map((connection) => connection.type)).size >= 5);
    assert.ok(data.connections.some((connection) => Object.keys(connection.meta).length === 0));
    assert.ok(data.connections.some((connection) => Object.keys(connection.meta).length > 0));
    assert.equal(new Set(data.connections.map((connection) => connection.id)).size, 36);
  });

  it('keeps a few syncs processing, over several flows, with varied statuses and errors', () => {
    const data = new MockDataset();
    const samples = Array.from({ length: 300 }, (_, index) => data.processingAt(T0 + index * 61_000));
    const average = samples.reduce((sum, syncs) => sum + syncs.length, 0) / samples.length;
    assert.ok(average >= 3 && average <= 12, `average ${average}`);
    const syncs = samples.flat();
    assert.ok(syncs.every((sync) => sync.status !== ''));
    assert.ok(syncs.filter((sync) => sync.status === 'pending').length > syncs.length / 2);
    assert.ok(syncs.some((sync) => sync.status !== 'pending'));
    assert.ok(syncs.some((sync) => sync.errors !== null) && syncs.some((sync) => sync.webhook));
    const busyFlow = samples.some((moment) => new Set(moment.map((sync) => sync.flow_id)).size < moment.length);
    assert.ok(busyFlow, 'some flow runs two syncs at once');
  });

  it('sizes the processing list with the processing option', () => {
    const count = new MockDataset({ processing: 500 }).processingAt(T0).length;
    assert.ok(count > 400 && count < 600, `count ${count}`);
  });
});

describe('mock data: the sync lifecycle', () => {
  const MINUTE = 60_000;
  const STEP = 5_000;

  /** Every sync seen while sampling [from, from + spanMs) every STEP: first and last sighting, how often seen. */
  function sightings(data: MockDataset, from: number, spanMs: number) {
    const seen = new Map<number, { sync: FlowSync; first: number; last: number; times: number }>();
    for (let at = from; at < from + spanMs; at += STEP) {
      for (const sync of data.processingAt(at)) {
        const entry = seen.get(sync.id) ?? { sync, first: at, last: at, times: 0 };
        assert.equal(sync.created_at, entry.sync.created_at, 'created_at never changes');
        entry.last = at;
        entry.times += 1;
        seen.set(sync.id, entry);
      }
    }
    return seen;
  }

  it('gives each flow a typical run time of 2 – 15 min, and speed divides them', () => {
    const flows = new MockDataset().flows;
    assert.ok(flows.every((flow) => flow.typicalRunMs >= 2 * MINUTE && flow.typicalRunMs <= 15 * MINUTE));
    assert.ok(
      Math.max(...flows.map((flow) => flow.typicalRunMs)) > 2 * Math.min(...flows.map((flow) => flow.typicalRunMs)),
      'flows differ',
    );
    const fast = new MockDataset({ speed: 5 }).flows;
    fast.forEach((flow, index) => assert.ok(Math.abs(flow.typicalRunMs - flows[index].typicalRunMs / 5) <= 1));
    assert.deepEqual(
      fast.map((flow) => flow.team_id),
      flows.map((flow) => flow.team_id),
      'speed changes only the run times',
    );
  });

  it("lists a sync from its created_at for about its flow's run time, then never again", () => {
    const data = new MockDataset();
    const seen = sightings(data, T0, 6 * 60 * MINUTE);
    const flows = new Map(data.flows.map((flow) => [flow.id, flow]));
    let checked = 0;
    for (const [id, { sync, first, last, times }] of seen) {
      if (id === STUCK_SYNC_ID) continue;
      assert.equal(times, (last - first) / STEP + 1, `#${id} is listed without a gap`);
      const created = Date.parse(sync.created_at);
      assert.ok(created <= first && (created < T0 || first - created < STEP), `#${id} is listed from its start`);
      if (created < T0 + STEP || last >= T0 + 6 * 60 * MINUTE - STEP) continue; // cut by the sampling window
      const typical = (flows.get(sync.flow_id) as Flow).typicalRunMs;
      const ran = last - created;
      assert.ok(ran >= typical * 0.35 - STEP && ran <= typical * 2.5, `#${id}: ran ${ran} ms, typical ${typical}`);
      checked += 1;
    }
    assert.ok(checked > 100, `checked ${checked}`);
    const ids = [...seen.values()]
      .filter(({ sync }) => sync.id !== STUCK_SYNC_ID)
      .sort((a, b) => a.sync.created_at.localeCompare(b.sync.created_at))
      .map(({ sync }) => sync.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      'ids grow with created_at',
    );
  });

  it('shows a sync as queued at first, then with its own status', () => {
    const data = new MockDataset();
    const seen = sightings(data, T0, 60 * MINUTE);
    const fresh = [...seen.values()].find(({ sync, first }) => sync.id !== STUCK_SYNC_ID && first > T0);
    assert.ok(fresh);
    const created = Date.parse(fresh.sync.created_at);
    assert.equal(data.processingAt(created).find((sync) => sync.id === fresh.sync.id)?.status, 'queued');
    const later = data.processingAt(fresh.last).find((sync) => sync.id === fresh.sync.id);
    assert.ok(later && later.updated_at > fresh.sync.created_at);
  });

  it('keeps one stuck sync, with a fixed id, from stuckSince on, forever', () => {
    const since = T0 - 3 * 60 * MINUTE;
    const data = new MockDataset({ stuckSince: since });
    assert.equal(data.stuckSyncId, STUCK_SYNC_ID);
    assert.equal(
      data.processingAt(since - 1).find((sync) => sync.id === STUCK_SYNC_ID),
      undefined,
    );
    for (const at of [since, T0, T0 + 30 * 24 * 60 * MINUTE]) {
      const stuck = data.processingAt(at).find((sync) => sync.id === STUCK_SYNC_ID);
      assert.ok(stuck, `stuck at ${at}`);
      assert.equal(stuck.created_at, new Date(since).toISOString());
      assert.ok(Date.parse(stuck.updated_at) > at - 10_000, 'it still reports progress');
    }
    assert.ok(
      new MockDataset()
        .processingAt(T0)
        .some((sync) => sync.id === STUCK_SYNC_ID && sync.created_at === new Date(DEFAULT_STUCK_SINCE).toISOString()),
    );
  });

  it('has bursts: several syncs of one flow starting within seconds, webhook deliveries', () => {
    const seen = sightings(new MockDataset(), T0, 12 * 60 * MINUTE);
    const syncs = [...seen.values()].map(({ sync }) => sync).filter((sync) => sync.webhook);
    const burst = syncs.find((sync) => {
      const created = Date.parse(sync.created_at);
      return (
        syncs.filter(
          (other) => other.flow_id === sync.flow_id && Math.abs(Date.parse(other.created_at) - created) <= 15_000,
        ).length >= 3
      );
    });
    assert.ok(burst, 'a burst within 12 h');
  });

  it('lists nothing, not even the stuck sync, with processing 0', () => {
    const data = new MockDataset({ processing: 0 });
    assert.deepEqual(data.processingAt(T0), []);
    assert.equal(data.stuckSyncId, undefined);
  });

  it('refuses a speed that is not a positive number', () => {
    for (const speed of [0, -1, Number.NaN, Infinity]) assert.throws(() => new MockDataset({ speed }), RangeError);
  });

  describe('what a test changes', () => {
    it('finish: the sync leaves the list at that moment, and is still listed before it', () => {
      const data = new MockDataset();
      const [victim] = data.processingAt(T0).filter((sync) => sync.id !== STUCK_SYNC_ID);
      assert.equal(data.finish(victim.id, T0)?.id, victim.id);
      assert.ok(!data.processingAt(T0).some((sync) => sync.id === victim.id));
      assert.ok(!data.processingAt(T0 + STEP).some((sync) => sync.id === victim.id));
      assert.ok(data.processingAt(T0 - 1).some((sync) => sync.id === victim.id));
      assert.equal(data.finish(victim.id, T0), undefined, 'not processing any more');
      assert.equal(data.finish(1, T0), undefined, 'never processing');
      assert.ok(data.finish(STUCK_SYNC_ID, T0), 'even the stuck one');
      assert.ok(!data.processingAt(T0 + 60 * MINUTE).some((sync) => sync.id === STUCK_SYNC_ID));
    });

    it('startSync: syncs of a flow start then, queued, with new ids, and leave after their run', () => {
      const data = new MockDataset();
      const flow = data.flows[2];
      const before = data.processingAt(T0).map((sync) => sync.id);
      const started = data.startSync(flow.id, T0, { count: 3, runMs: 90_000 });
      assert.equal(started.length, 3);
      assert.equal(new Set(started.map((sync) => sync.id)).size, 3);
      for (const sync of started) {
        assert.ok(!before.includes(sync.id));
        assert.deepEqual(
          [sync.flow_id, sync.flow.name, sync.status, sync.created_at],
          [flow.id, flow.name, 'queued', new Date(T0).toISOString()],
        );
      }
      const listed = (at: number) => data.processingAt(at).filter((sync) => started.some((s) => s.id === sync.id));
      assert.equal(listed(T0).length, 3);
      assert.ok(listed(T0 + 60_000).every((sync) => sync.status === 'pending'));
      assert.equal(listed(T0 + 90_000).length, 0);
      const [drawn] = data.startSync(flow.id, T0);
      const span = data.processingAt(T0 + flow.typicalRunMs * 0.35 - 1).some((sync) => sync.id === drawn.id);
      assert.ok(span, "without runMs it runs about the flow's run time");
      assert.ok(!data.processingAt(T0 + flow.typicalRunMs * 2.5).some((sync) => sync.id === drawn.id));
      assert.throws(() => data.startSync(99_999, T0), /no flow with id 99999/);
      assert.throws(() => data.startSync(flow.id, T0, { count: 0 }), RangeError);
    });

    it('startSync: runMs Infinity runs until finish; resetSyncs forgets both', () => {
      const data = new MockDataset();
      const [forever] = data.startSync(data.flows[0].id, T0, { runMs: Infinity });
      assert.ok(data.processingAt(T0 + 24 * 60 * MINUTE).some((sync) => sync.id === forever.id));
      const [victim] = data.processingAt(T0).filter((sync) => sync.id !== STUCK_SYNC_ID && sync.id !== forever.id);
      data.finish(victim.id, T0);
      data.resetSyncs();
      const now = data.processingAt(T0).map((sync) => sync.id);
      assert.ok(!now.includes(forever.id) && now.includes(victim.id));
      assert.deepEqual(data.processingAt(T0), new MockDataset().processingAt(T0));
    });
  });
});
