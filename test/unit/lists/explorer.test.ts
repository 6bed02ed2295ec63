import * as assert from 'node:assert/strict';
import { Explorer, UNFOCUSED_SLOWDOWN, type ExplorerConfig } from '../../../src/lists/explorer';
import { WindowBudget } from '../../../src/lists/windowBudget';
import { MockFlowSyncServer } from '../../../src/mock/server';
import { explorerConfig } from '../helpers/explorerConfig';
import { FakeClock, flushPromises } from '../helpers/fakeClock';
import { LONG_KEY } from '../helpers/keyPieces';

const KEY = 'fs_unit_SENTINEL_91ab';

describe('Explorer', () => {
  let mock: MockFlowSyncServer;
  let clock: FakeClock;
  let explorer: Explorer;
  const base = (): ExplorerConfig => explorerConfig(mock.url, KEY);
  /** Waits for real loopback I/O while the fake clock stands still. */
  const settle = async (done: () => boolean) => {
    for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
    assert.ok(done(), 'settled');
  };

  before(async () => {
    mock = await MockFlowSyncServer.start({ apiKey: KEY });
  });
  after(() => mock.close());
  beforeEach(() => {
    mock.clearRequests();
    mock.clearFaults();
    clock = new FakeClock();
    explorer = new Explorer(clock, { random: () => 0.5 });
  });
  afterEach(() => explorer.dispose());

  /**
   * The Explorer again, sharing as src/sharing/pollLease.ts does it: each load's `explicit` is recorded; a load nobody
   * asked for waits for `release()`, then takes another window's answer (no request) or asks the service; a person's
   * refresh (explicit) always asks the service.
   */
  function shareLoads(heldLoadAnswers: 'another window' | 'the service') {
    const loads: boolean[] = [];
    const held = { release: () => undefined as void };
    explorer.dispose();
    explorer = new Explorer(clock, {
      random: () => 0.5,
      sharing: () => ({
        mayPoll: () => true,
        load: async (_list, explicit, request) => {
          loads.push(explicit);
          if (explicit) return request();
          await new Promise<void>((resolve) => (held.release = resolve));
          if (heldLoadAnswers === 'the service') return request();
          return { items: [], dropped: 0, fingerprint: 'another window' } as never;
        },
      }),
    });
    return { loads, release: () => held.release() };
  }

  it('the write check refuses a text holding any 8-character piece of the key, in any letter case', () => {
    explorer.configure({ ...base(), apiKey: LONG_KEY, autoRefresh: false });
    for (let i = 0; i + 8 <= LONG_KEY.length; i++) {
      const piece = LONG_KEY.slice(i, i + 8);
      for (const text of [`name ${piece} tail`, `${piece.toUpperCase()}`, `x${piece.toLowerCase()}`]) {
        assert.ok(explorer.mentionsKey(text), `refused: ${text}`);
      }
    }
    assert.ok(
      explorer.mentionsKey(JSON.stringify({ flowName: `${'x'.repeat(108)}${LONG_KEY.slice(0, 12)}` })),
      'the prefix a cut at 120 left',
    );
    for (const text of [
      '',
      'Invoices',
      LONG_KEY.slice(0, 7),
      `${LONG_KEY.slice(0, 7)} ${LONG_KEY.slice(7, 14)}`,
      'fsk_Lovely_7Hq',
      '•••',
    ]) {
      assert.ok(!explorer.mentionsKey(text), `accepted: ${text}`);
    }
    const quoted = 'abc"def\\ghij';
    explorer.configure({ ...base(), apiKey: quoted, autoRefresh: false });
    assert.ok(
      explorer.mentionsKey(JSON.stringify({ name: `x ${quoted} y` })),
      'a key JSON escapes is found in the JSON',
    );
  });

  it('a key shorter than 8 characters: only the whole key (any letter case) is refused', () => {
    explorer.configure({ ...base(), apiKey: 'Ab1-x', autoRefresh: false });
    assert.ok(explorer.mentionsKey('name aB1-X tail'));
    assert.ok(!explorer.mentionsKey('name Ab1- tail'));
  });

  it('says what is missing: no URL, invalid URL, no key', () => {
    explorer.configure({ ...base(), baseUrl: '' });
    assert.equal(explorer.status, 'noUrl');
    explorer.configure({ ...base(), baseUrl: 'http://flow.example.com' });
    assert.equal(explorer.status, 'invalidUrl');
    assert.match(explorer.detail!, /unencrypted/);
    explorer.configure({ ...base(), apiKey: undefined });
    assert.equal(explorer.status, 'noKey');
    explorer.configure({ ...base(), secretsError: 'keyring is locked' });
    assert.equal(explorer.status, 'secretsUnavailable');
    assert.equal(mock.requests.length, 0, 'nothing sent without a usable configuration');
    assert.equal(clock.pendingTimers, 0, 'no polling without a key');
  });

  it('the first configure says the status even when it is the initial one; a list that holds nothing is not told of a reset', () => {
    const statuses: string[] = [];
    let listChanges = 0;
    explorer.onDidChangeStatus((s) => statuses.push(s));
    for (const id of ['processing', 'connections'] as const) explorer.refresher(id).onDidChange(() => listChanges++);
    explorer.configure({ ...base(), baseUrl: '' });
    assert.deepEqual(statuses, ['noUrl'], 'the status is known now (the status bar shows it)');
    assert.equal(listChanges, 0, 'nothing held, nothing to tell');
    explorer.configure({ ...base(), baseUrl: '', teamId: '3' });
    assert.deepEqual(statuses, ['noUrl'], 'unchanged after that');
  });

  it('loads processing at once and connections only when wanted', async () => {
    explorer.configure(base());
    await settle(() => explorer.lists.processing.state.loadedAt !== undefined);
    assert.equal(mock.requests.length, 1);
    assert.equal(explorer.lists.connections.state.loadedAt, undefined, 'a hidden Connections view costs nothing');
    explorer.want('connections');
    await settle(() => explorer.lists.connections.state.loadedAt !== undefined);
    assert.deepEqual(
      mock.requests.map((r) => r.path.split('/').pop()),
      ['processing', 'index'],
    );
  });

  it('polls on the schedule, slower while unfocused', async () => {
    explorer.configure(base());
    await settle(() => explorer.lists.processing.state.loadedAt !== undefined);
    assert.equal(explorer.lists.processing.state.nextAttemptAt, clock.now() + 30_000);
    explorer.setFocused(false);
    assert.equal(
      explorer.lists.processing.state.nextAttemptAt,
      explorer.lists.processing.state.loadedAt! + 30_000 * UNFOCUSED_SLOWDOWN,
    );
    explorer.configure({ ...base(), autoRefresh: false });
    assert.equal(explorer.lists.processing.state.nextAttemptAt, undefined);
    assert.equal(mock.requests.length, 1, 'changing the schedule does not reload');
  });

  it("a person's refresh during a load that may take another window's answer still asks the service, once", async () => {
    // Sharing as src/sharing/pollLease.ts does it: a load nobody asked for may answer from another window's snapshot
    // (no request); a refresh command (explicit) always asks the service.
    const { loads, release: answerFromSnapshot } = shareLoads('another window');
    explorer.configure({ ...base(), autoRefresh: false }); // the load of a new configuration: not a person's
    await flushPromises();
    assert.deepEqual(loads, [false]);
    const refreshed = explorer.refresh('processing'); // a person, while that load waits for the shared snapshot
    answerFromSnapshot();
    await refreshed;
    assert.deepEqual(loads, [false, true], "the person's refresh asked the service");
    assert.equal(mock.requests.filter((r) => r.path.endsWith('/processing')).length, 1);
    assert.ok(explorer.lists.processing.state.items!.length > 0, "the service's answer is shown");
    const again = explorer.refresh('processing');
    const joined = explorer.refresh('processing'); // a second click while the person's own load runs joins it
    await Promise.all([again, joined]);
    assert.deepEqual(loads, [false, true, true]);
  });

  it("a person's refresh that waited for a load answered 429: nothing more is sent until the service's wait ends, then it asks (issue #49)", async () => {
    const { loads, release } = shareLoads('the service');
    mock.inject({ endpoint: 'processing', status: 429, headers: { 'Retry-After': '7' }, times: 1 });
    explorer.configure({ ...base(), autoRefresh: false }); // a scheduled load, not a person's
    await flushPromises();
    const refreshed = explorer.refresh('processing'); // "Flow Sync: Refresh" while that load is in flight
    release();
    await settle(() => explorer.lists.processing.state.error?.kind === 'rateLimited');
    const processing = () => mock.requests.filter((r) => r.path.endsWith('/processing'));
    await settle(() => explorer.lists.processing.state.refreshKeptUntil !== undefined);
    assert.equal(processing().length, 1, 'only the load that was answered 429');
    assert.equal(explorer.lists.processing.state.refreshKeptUntil, clock.now() + 7_000);
    await clock.advance(6_999);
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(processing().length, 1, 'nothing inside the wait the service asked for');
    await clock.advance(1);
    await refreshed;
    assert.equal(processing().length, 2, 'one request once the wait ended');
    assert.deepEqual(loads, [false, true], "the kept refresh is still a person's: it asks the service");
    assert.ok(explorer.lists.processing.state.items!.length > 0);
  });

  it('a team filter reloads both lists with team_id and remembers every team', async () => {
    explorer.configure(base());
    explorer.want('connections');
    await settle(() => explorer.lists.connections.state.loadedAt !== undefined);
    const allTeams = explorer.teams.list().length;
    assert.equal(allTeams, mock.dataset.teams.length);
    const team = String(mock.dataset.teams[0].id);
    mock.clearRequests();
    explorer.configure({ ...base(), teamId: team });
    await settle(
      () =>
        explorer.lists.connections.state.loadedAt !== undefined &&
        explorer.lists.processing.state.loadedAt !== undefined,
    );
    assert.deepEqual(
      mock.requests.map((r) => r.query.team_id),
      [team, team],
    );
    assert.ok(explorer.lists.connections.state.items!.every((i) => String(i.value.team_id) === team));
    assert.equal(explorer.teams.list().length, allTeams, 'a filtered load keeps the other teams on offer');
  });

  it('a new key or URL drops the old data; the same settings again change nothing', async () => {
    explorer.configure(base());
    await settle(() => explorer.lists.processing.state.loadedAt !== undefined);
    explorer.configure(base());
    await flushPromises();
    assert.equal(mock.requests.length, 1);
    explorer.configure({ ...base(), apiKey: undefined });
    assert.equal(explorer.lists.processing.state.items, undefined);
    assert.equal(clock.pendingTimers, 0);
  });

  it('the services of a window share one budget of items: an answer over it is refused with its message, the rows held stay', async () => {
    const quiet = await MockFlowSyncServer.start({ apiKey: KEY, connections: 3_000, processing: 0 });
    const budget = new WindowBudget(4_500);
    const services = [0, 1].map(() => new Explorer(clock, { random: () => 0.5, window: { budget } }));
    try {
      for (const e of services) {
        e.configure(explorerConfig(quiet.url, KEY, { autoRefresh: false }));
        e.want('connections');
        await settle(
          () => e.lists.connections.state.loadedAt !== undefined || e.lists.connections.state.error !== undefined,
        );
      }
      const [first, second] = services.map((e) => e.lists.connections.state);
      assert.equal(first.items?.length, 3_000);
      assert.equal(second.items, undefined);
      assert.equal(second.error?.kind, 'invalidResponse');
      assert.equal(
        second.error?.message,
        'The service answered connections with 3,000 items; with the items the other lists of this window hold, that is more than 4,500; it was not loaded.',
      );
      assert.equal(budget.held, 3_000);
      services[0].configure(explorerConfig(quiet.url, KEY, { autoRefresh: false, baseUrl: '' }));
      assert.equal(budget.held, 0, 'a service whose lists are dropped frees their room');
      await services[1].refresh('connections');
      assert.equal(services[1].lists.connections.state.items?.length, 3_000);
      assert.equal(services[1].lists.connections.state.error, undefined);
    } finally {
      for (const e of services) e.dispose();
      await quiet.close();
    }
    assert.equal(budget.held, 0);
  });

  it("the clients keep no more items for conditional requests than the window's budget lets the lists hold (#5)", async () => {
    // 8 services of 3,000 connections each, a budget of 6,000: two fit (first come), six are refused (over their share)
    const tagged = await MockFlowSyncServer.start({ apiKey: KEY, connections: 3_000, processing: 0, etag: true });
    const budget = new WindowBudget(6_000);
    const services = Array.from({ length: 8 }, () => new Explorer(clock, { random: () => 0.5, window: { budget } }));
    const kept = () => services.reduce((sum, e) => sum + e.keptItems, 0);
    const loaded = (e: Explorer) =>
      e.lists.connections.state.loadedAt !== undefined || e.lists.connections.state.error !== undefined;
    try {
      for (const e of services) {
        e.configure(explorerConfig(tagged.url, KEY, { autoRefresh: false }));
        e.want('connections');
        await settle(() => loaded(e) && !e.lists.connections.isLoading);
      }
      const refused = services.filter((e) => e.lists.connections.state.overBudget);
      assert.equal(refused.length, 6, 'six answers over the budget');
      assert.equal(budget.held, 6_000);
      assert.ok(kept() <= budget.held, `the clients keep ${kept()} items, the lists hold ${budget.held}`);
      assert.equal(kept(), 6_000, 'the answers the lists hold are kept: their next request is conditional');
      tagged.clearRequests();
      await services[0].refresh('connections');
      assert.equal(tagged.requests[0].status, 304, 'an answer held is asked again conditionally');
      await refused[0].refresh('connections');
      assert.equal(tagged.requests[1].status, 200, 'a refused answer is asked again whole: nothing of it was kept');
      assert.equal(refused[0].lists.connections.state.overBudget, true);
      assert.ok(kept() <= budget.held, `then ${kept()} kept, ${budget.held} held`);
      // room is freed: the refused list takes it at its next attempt, and keeps its answer for conditional requests
      services[0].configure(explorerConfig(tagged.url, KEY, { autoRefresh: false, baseUrl: '' }));
      assert.ok(kept() <= budget.held, `a service without a URL keeps nothing: ${kept()} kept, ${budget.held} held`);
      await refused[0].refresh('connections');
      assert.equal(refused[0].lists.connections.state.items?.length, 3_000);
      assert.equal(refused[0].keptItems, 3_000);
      assert.equal(kept(), budget.held);
    } finally {
      for (const e of services) e.dispose();
      await tagged.close();
    }
  });

  it("each service has a fair share of the window's budget: a 5-item answer fits while another service holds the maximum", async () => {
    const big = await MockFlowSyncServer.start({ apiKey: KEY, connections: 3_000, processing: 0 });
    const small = await MockFlowSyncServer.start({ apiKey: KEY, connections: 5, processing: 0 });
    const budget = new WindowBudget(3_000);
    const [staging, production] = [0, 1].map(() => new Explorer(clock, { random: () => 0.5, window: { budget } }));
    try {
      for (const [e, server] of [
        [staging, big],
        [production, small],
      ] as const) {
        e.configure(explorerConfig(server.url, KEY, { autoRefresh: false }));
        e.want('connections');
        await settle(
          () => e.lists.connections.state.loadedAt !== undefined || e.lists.connections.state.error !== undefined,
        );
      }
      assert.equal(staging.lists.connections.state.items?.length, 3_000, 'first come: the whole budget');
      assert.equal(production.lists.connections.state.error?.message, undefined);
      assert.equal(production.lists.connections.state.items?.length, 5, 'within its share (3,000 / 2)');
      assert.equal(budget.held, 3_005);
      production.dispose();
      assert.equal(budget.held, 3_000);
    } finally {
      staging.dispose();
      production.dispose();
      await big.close();
      await small.close();
    }
    assert.equal(budget.held, 0);
  });
});
