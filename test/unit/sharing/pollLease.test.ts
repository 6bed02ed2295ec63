import * as assert from 'node:assert/strict';
import { Explorer, UNFOCUSED_SLOWDOWN, type ExplorerConfig } from '../../../src/lists/explorer';
import { ApiError } from '../../../src/api/errors';
import { lazySharing, type LazySharing } from '../../../src/sharing/lazySharing';
import {
  MAX_SHARED_MESSAGE,
  PollCoordinator,
  type SharedExplorer,
  contextFolder,
  leaseContext,
  mayHold,
  MAX_HEARTBEAT_BYTES,
  parseFailure,
  parseHeartbeat,
  parseLease,
  parseSnapshot,
  pollsEvery,
  type Contender,
  type Lease,
} from '../../../src/sharing/pollLease';
import { DEFAULT_MAX_BYTES, MAX_COMMAS, MAX_CONTAINERS } from '../../../src/api/client';
import { MAX_ITEM_DEPTH } from '../../../src/api/validate';
import { MockFlowSyncServer } from '../../../src/mock/server';
import { explorerConfig } from '../helpers/explorerConfig';
import { FakeClock, flushPromises } from '../helpers/fakeClock';
import { keyPiece, LONG_KEY } from '../helpers/keyPieces';
import { MemoryStore } from '../helpers/memoryStore';

const KEY = 'fs_unit_SENTINEL_77cd';
const INTERVAL = 30_000;

describe('pollLease: the rules', () => {
  const lease = (o: Partial<Lease> = {}): Lease => ({
    v: 1,
    holder: 'A',
    context: 'c',
    heartbeatAt: 1000,
    expiresAt: 1000 + 45_000,
    intervalMs: INTERVAL,
    ...o,
  });
  const me: Contender = { id: 'B', context: 'c', intervalMs: INTERVAL };

  it('a fresh lease of another window is respected; a run-out, released, foreign-context or own one may be held', () => {
    assert.equal(mayHold(lease(), me, 2000), false);
    assert.equal(mayHold(lease(), me, 46_000), true, 'run out');
    assert.equal(mayHold(lease({ expiresAt: 0 }), me, 2000), true, 'released');
    assert.equal(mayHold(lease({ context: 'other' }), me, 2000), true);
    assert.equal(mayHold(lease({ holder: 'B' }), me, 2000), true);
    assert.equal(mayHold(undefined, me, 2000), true);
  });

  it('no lease lasts longer than two intervals, and a heartbeat from the future does not block', () => {
    assert.equal(mayHold(lease({ expiresAt: Number.MAX_SAFE_INTEGER }), me, 1000 + 2 * INTERVAL), true);
    assert.equal(mayHold(lease({ heartbeatAt: 10 * INTERVAL, expiresAt: 11 * INTERVAL }), me, 1000), true);
  });

  it('a focused window takes over from a holder unfocused for one interval; an unfocused one does not', () => {
    const l = lease({ unfocusedSince: 1000, heartbeatAt: 20_000, expiresAt: 65_000 });
    assert.equal(mayHold(l, me, 20_000), false, 'unfocused for less than an interval');
    assert.equal(mayHold(l, me, 31_000), true);
    assert.equal(mayHold(l, { ...me, unfocusedSince: 0 }, 31_000), false);
  });

  it('a holder that polls less often than this window would is taken over at once; one as fast or faster is not', () => {
    assert.equal(
      mayHold(lease({ intervalMs: 86_400_000, expiresAt: 1000 + 1.5 * 86_400_000 }), me, 2000),
      true,
      'a holder of a day',
    );
    assert.equal(mayHold(lease({ intervalMs: 10_000, expiresAt: 16_000 }), me, 2000), false, 'a faster holder');
    assert.equal(mayHold(lease(), me, 2000), false, 'the same interval: the holder keeps it');
    // unfocused (for an interval) windows poll UNFOCUSED_SLOWDOWN times slower: the rates compared are the real ones
    assert.equal(
      mayHold(lease({ intervalMs: 2 * INTERVAL }), { ...me, unfocusedSince: 0 }, 2000 + INTERVAL),
      false,
      '60 s focused against 30 s unfocused',
    );
    assert.equal(
      mayHold(lease({ intervalMs: 2 * INTERVAL, unfocusedSince: 0 }), me, 2000 + 2 * INTERVAL - 1),
      true,
      '60 s unfocused against 30 s focused',
    );
    assert.equal(pollsEvery(INTERVAL, 1000, 1000 + INTERVAL), INTERVAL * UNFOCUSED_SLOWDOWN);
    assert.equal(pollsEvery(INTERVAL, 1000, 1000 + INTERVAL - 1), INTERVAL);
  });

  it('parses only well-formed files; the folder name is a safe hash of the context', () => {
    assert.equal(parseLease('{'), undefined);
    assert.equal(parseLease(JSON.stringify({ ...lease(), v: 2 })), undefined);
    assert.equal(parseLease(JSON.stringify({ ...lease(), heartbeatAt: 'soon' })), undefined);
    assert.deepEqual(parseLease(JSON.stringify(lease())), lease());
    assert.equal(
      parseSnapshot(
        JSON.stringify({ v: 1, context: 'c', writer: 'A', loadedAt: 1, fingerprint: 'f', dropped: 0, items: {} }),
      ),
      undefined,
    );
    const folder = contextFolder(leaseContext('processing', 'https://flow.example.com', '3'));
    assert.match(folder, /^processing-[0-9a-f]{16}$/);
    assert.notEqual(folder, contextFolder(leaseContext('processing', 'https://flow.example.com', '')));
  });

  it('a shared failure: a known kind (never "cancelled"), times that are times, a bounded message', () => {
    const failure = {
      v: 1,
      context: 'c',
      writer: 'A',
      at: 5,
      kind: 'http',
      message: 'HTTP 503 from the service.',
      nextAttemptAt: 9,
    };
    assert.deepEqual(parseFailure(JSON.stringify(failure)), failure);
    assert.equal(parseFailure(JSON.stringify({ ...failure, kind: 'cancelled' })), undefined);
    assert.equal(parseFailure(JSON.stringify({ ...failure, kind: 'constructor' })), undefined);
    assert.equal(parseFailure(JSON.stringify({ ...failure, at: -1 })), undefined);
    assert.equal(parseFailure(JSON.stringify({ ...failure, nextAttemptAt: 'later' })), undefined);
    assert.equal(parseFailure(JSON.stringify({ ...failure, message: 7 })), undefined);
    assert.equal(
      parseFailure(JSON.stringify({ ...failure, message: 'x'.repeat(50_000) }))?.message.length,
      MAX_SHARED_MESSAGE,
    );
  });
});

/**
 * A window's Explorer as the coordinator sees it, with one list whose state a test sets (`state`) and then tells its
 * listeners about (`tell`, which lets the coordinator's writes settle).
 */
function sharedExplorer(extra: Partial<SharedExplorer> = {}) {
  const listeners: Array<() => void> = [];
  const state: { error?: ApiError; overBudget?: boolean } = {};
  const explorer: SharedExplorer = {
    status: 'ready',
    scope: 'https://flow.example.com',
    teamId: '',
    focused: true,
    pollSettings: { intervalMs: 30_000, autoRefresh: true },
    refresher: () => ({
      state,
      adopt: () => undefined,
      adoptFailure: () => undefined,
      reschedule: () => undefined,
      onDidChange: (listener) => {
        listeners.push(listener);
        return { dispose: () => undefined };
      },
    }),
    mentionsKey: () => false,
    ...extra,
  };
  const tell = async () => {
    for (const listener of listeners) listener();
    await flushPromises();
  };
  return { explorer, state, tell };
}

describe('pollLease: a shared failure message is masked, then cut', () => {
  it(`the key across the ${MAX_SHARED_MESSAGE}-character cut leaves no piece of it in the failure file`, async () => {
    const { explorer, state, tell } = sharedExplorer({
      mentionsKey: (text) => text.includes(LONG_KEY),
      keyToHide: LONG_KEY,
    });
    const store = new MemoryStore();
    const coordinator = new PollCoordinator(explorer, store.view(), 'A', new FakeClock());
    try {
      state.error = new ApiError('http', `${'x'.repeat(MAX_SHARED_MESSAGE - 10)}${LONG_KEY} tail`);
      await tell();
      const failure = parseFailure([...store.files.values()][0]?.text);
      assert.ok(failure, 'the failure is shared');
      assert.ok(failure.message.length <= MAX_SHARED_MESSAGE);
      assert.equal(keyPiece(store.allText(), LONG_KEY), undefined, 'no piece of the key in the failure file');
    } finally {
      coordinator.dispose();
    }
  });
});

describe("pollLease: an answer this window's budget of items refused is not shared as a failure", () => {
  it('the other windows have budgets of their own: no failure file; a failure of the service is still shared', async () => {
    const { explorer, state, tell } = sharedExplorer();
    const store = new MemoryStore();
    const coordinator = new PollCoordinator(explorer, store.view(), 'A', new FakeClock());
    try {
      state.error = new ApiError('invalidResponse', "over the window's budget");
      state.overBudget = true;
      await tell();
      assert.equal(store.files.size, 0, 'nothing written');
      state.error = new ApiError('http', 'HTTP 503 from the service.');
      state.overBudget = undefined;
      await tell();
      assert.equal(parseFailure([...store.files.values()][0]?.text)?.message, 'HTTP 503 from the service.');
    } finally {
      coordinator.dispose();
    }
  });
});

describe('pollLease: windows sharing one poller (fake clock, the mock on loopback)', function () {
  this.timeout(60_000);
  let mock: MockFlowSyncServer;
  let clock: FakeClock;
  let store: MemoryStore;
  let windows: Array<{
    id: string;
    explorer: Explorer;
    sharing: PollCoordinator;
    store: ReturnType<MemoryStore['view']>;
  }>;
  const config = (o: Partial<ExplorerConfig> = {}): ExplorerConfig =>
    explorerConfig(mock.url, KEY, { refreshIntervalMs: INTERVAL, ...o });
  const processingRequests = () => mock.requests.filter((r) => r.path.endsWith('/flowsyncs/processing'));
  /** Waits for the real loopback I/O a timer started, while the fake clock stands still. */
  const settle = async () => {
    await flushPromises();
    for (let i = 0; i < 400 && windows.some((w) => w.explorer.lists.processing.isLoading); i++) {
      await new Promise((r) => setTimeout(r, 5));
    }
    await flushPromises();
  };
  const advance = (ms: number) => clock.advance(ms, settle);
  function open(id: string, o: Partial<ExplorerConfig> = {}, focused = true) {
    const view = store.view();
    let sharing!: PollCoordinator;
    const explorer = new Explorer(clock, {
      random: () => 0.5,
      sharing: (e) => (sharing = new PollCoordinator(e, view, id, clock)),
    });
    explorer.setFocused(focused);
    explorer.configure(config(o));
    const w = { id, explorer, sharing, store: view };
    windows.push(w);
    return w;
  }
  const holders = () => windows.filter((w) => w.sharing.isHolder('processing')).map((w) => w.id);

  before(async () => {
    mock = await MockFlowSyncServer.start({ apiKey: KEY });
  });
  after(() => mock.close());
  beforeEach(() => {
    mock.clearRequests();
    mock.clearFaults(); // one that fails half-way leaves no fault to the next
    clock = new FakeClock();
    mock.setNow(() => clock.now());
    store = new MemoryStore();
    windows = [];
  });
  afterEach(() => {
    for (const w of windows) {
      w.sharing.dispose();
      w.explorer.dispose();
    }
  });

  it('a window alone holds the lease and polls exactly as without sharing', async () => {
    const a = open('A');
    await advance(2_000);
    assert.deepEqual(holders(), ['A']);
    mock.clearRequests();
    await advance(10 * INTERVAL);
    assert.equal(processingRequests().length, 10);
    assert.equal(a.explorer.lists.processing.state.error, undefined);
  });

  it('three windows: one request per interval, and every window shows the same answer within a second', async () => {
    const [a, b, c] = [open('A'), open('B'), open('C')];
    await advance(2_000);
    assert.equal(holders().length, 1, `one holder: ${holders()}`);
    mock.clearRequests();
    await advance(10 * INTERVAL);
    assert.equal(processingRequests().length, 10, 'the rate of one window');
    const holder = windows.find((w) => w.sharing.isHolder('processing'))!;
    const loadedAt = holder.explorer.lists.processing.state.loadedAt!;
    await advance(1_000);
    for (const w of [a, b, c]) {
      assert.equal(
        w.explorer.lists.processing.state.fingerprint,
        holder.explorer.lists.processing.state.fingerprint,
        w.id,
      );
      assert.ok(w.explorer.lists.processing.state.loadedAt! >= loadedAt - 1_000, `${w.id} adopted the last answer`);
      // news in an answer (a sync no longer processing) is announced by the window that loaded it, once
      assert.equal(w.explorer.lists.processing.state.adopted, w === holder ? undefined : true, `${w.id}: adopted`);
    }
  });

  it('a window opened later shows the shared answer without a request', async () => {
    open('A');
    await advance(5_000);
    mock.clearRequests();
    const b = open('B');
    await advance(1_000);
    assert.equal(processingRequests().length, 0);
    assert.ok(b.explorer.lists.processing.state.items, 'B shows the data');
    assert.equal(b.sharing.isHolder('processing'), false);
  });

  it('a holder that hangs is taken over within two intervals', async () => {
    open('A');
    await advance(2_000);
    open('B');
    open('C');
    await advance(INTERVAL);
    const holder = windows.find((w) => w.sharing.isHolder('processing'))!;
    assert.equal(holder.id, 'A');
    // A hangs: its storage calls never finish and it sends nothing more.
    holder.store.frozen = true;
    holder.explorer.lists.processing.stop();
    holder.explorer.configure(config({ autoRefresh: false }));
    const hungAt = clock.now();
    mock.clearRequests();
    while (processingRequests().length === 0 && clock.now() - hungAt < 3 * INTERVAL) await advance(1_000);
    const tookOver = clock.now() - hungAt;
    assert.ok(tookOver <= 2 * INTERVAL, `taken over after ${tookOver} ms`);
    assert.equal(windows.filter((w) => w !== holder && w.sharing.isHolder('processing')).length, 1);
    mock.clearRequests();
    await advance(5 * INTERVAL);
    assert.equal(processingRequests().length, 5, 'then one window polls again');
  });

  it('a holder that closes releases its lease: another takes over at once', async () => {
    const a = open('A');
    await advance(2_000);
    open('B');
    await advance(INTERVAL);
    a.sharing.dispose();
    a.explorer.dispose();
    windows = windows.filter((w) => w !== a);
    await advance(2_000);
    assert.deepEqual(holders(), ['B']);
    mock.clearRequests();
    await advance(4 * INTERVAL);
    assert.equal(processingRequests().length, 4);
  });

  it('focus: a focused window takes over from a holder unfocused for an interval; the rate is the focused one', async () => {
    const a = open('A');
    await advance(2_000);
    const b = open('B', {}, false);
    await advance(2_000);
    assert.deepEqual(holders(), ['A']);
    a.explorer.setFocused(false);
    b.explorer.setFocused(true);
    const switchedAt = clock.now();
    while (!b.sharing.isHolder('processing') && clock.now() - switchedAt < 3 * INTERVAL) await advance(1_000);
    assert.ok(clock.now() - switchedAt <= 2 * INTERVAL, `took ${clock.now() - switchedAt} ms`);
    await advance(2_000);
    assert.deepEqual(holders(), ['B']);
    mock.clearRequests();
    await advance(8 * INTERVAL);
    assert.equal(processingRequests().length, 8, 'the focused rate, from one window');
    assert.ok(UNFOCUSED_SLOWDOWN > 1);
  });

  describe('no window slows another (each polls at least as often as its own settings ask)', () => {
    const DAY = 86_400_000;
    /** Requests over `periods` of INTERVAL, after a start-up of two seconds. */
    const requestsOver = async (periods: number) => {
      await advance(2_000);
      mock.clearRequests();
      await advance(periods * INTERVAL);
      return processingRequests().length;
    };

    it('a window polling once a day holds the lease: a window of 30 s takes it and polls at its own rate; the slow one adopts', async () => {
      const slow = open('A', { refreshIntervalMs: DAY });
      await advance(2_000);
      assert.deepEqual(holders(), ['A']);
      const fast = open('B');
      assert.equal(await requestsOver(10), 10, 'the 30 s rate holds: one request per 30 s');
      assert.deepEqual(holders(), ['B']);
      assert.equal(fast.explorer.lists.processing.state.error, undefined);
      assert.equal(
        slow.explorer.lists.processing.state.loadedAt,
        fast.explorer.lists.processing.state.loadedAt,
        "the slow window shows the fast one's answers",
      );
    });

    it('opened the other way round: the slow window defers to the fast holder, and the fast one keeps its rate', async () => {
      open('B');
      await advance(2_000);
      open('A', { refreshIntervalMs: DAY });
      assert.equal(await requestsOver(10), 10);
      assert.deepEqual(holders(), ['B']);
    });

    it('a holder with autoRefresh off gives the lease up: the other window polls at its own rate', async () => {
      open('A', { autoRefresh: false });
      await advance(2_000);
      open('B');
      assert.equal(await requestsOver(6), 6);
      assert.deepEqual(holders(), ['B']);
    });

    it('unfocused slowdown counts: a focused window of 60 s holds against an unfocused one of 30 s (polling every 120 s), without flapping', async () => {
      const b = open('B', {}, false);
      await advance(2_000);
      const a = open('A', { refreshIntervalMs: 2 * INTERVAL });
      await advance(2 * INTERVAL);
      assert.deepEqual(holders(), ['A'], 'the focused 60 s window polls for both');
      const writes = store.writes;
      assert.equal(await requestsOver(12), 6, 'one request per 60 s');
      assert.ok(store.writes - writes < 40, `the lease does not flap: ${store.writes - writes} writes`);
      b.explorer.setFocused(true);
      a.explorer.setFocused(false);
      await advance(2_000);
      assert.deepEqual(holders(), ['B'], 'focused, the 30 s window is the faster one: it takes over');
      assert.equal(await requestsOver(10), 10);
    });
  });

  it('a context change (another team filter) gets its own lease and its own poller', async () => {
    open('A');
    const b = open('B');
    await advance(2_000);
    b.explorer.configure(config({ teamId: '3' }));
    await advance(2_000);
    assert.equal(b.sharing.isHolder('processing'), true, 'B polls team 3');
    assert.equal(windows[0].sharing.isHolder('processing'), true, 'A polls all teams');
    mock.clearRequests();
    await advance(4 * INTERVAL);
    const requests = processingRequests();
    assert.equal(requests.filter((r) => r.query.team_id === '3').length, 4);
    assert.equal(requests.filter((r) => r.query.team_id === undefined).length, 4);
  });

  it('a refresh command in a follower makes one request, and the holder adopts its answer instead of polling early', async () => {
    open('A');
    await advance(2_000);
    const b = open('B');
    await advance(10_000);
    assert.equal(b.sharing.isHolder('processing'), false);
    mock.clearRequests();
    const asked = b.explorer.refresh('processing');
    await settle();
    await asked;
    assert.equal(processingRequests().length, 1, 'the command asked the service');
    const answeredAt = clock.now();
    await advance(1_000);
    assert.equal(windows[0].explorer.lists.processing.state.loadedAt, answeredAt, 'the holder took the answer');
    await advance(INTERVAL - 2_000);
    assert.equal(processingRequests().length, 1, 'no poll until an interval after the shared answer');
    await advance(2_000);
    assert.equal(processingRequests().length, 2);
  });

  it('never writes the key: lease and snapshot hold no key, and an answer that contains it is not shared', async () => {
    const a = open('A');
    await advance(2_000);
    open('B');
    await advance(2 * INTERVAL);
    assert.ok(store.allText().length > 0);
    assert.ok(!store.allText().includes(KEY));
    const items = mock.dataset.processingAt(clock.now());
    mock.inject({
      endpoint: 'processing',
      status: 200,
      body: JSON.stringify([{ ...items[0], status: `x ${KEY.toUpperCase()}` }]),
      times: 1,
    });
    const asked = a.explorer.refresh('processing');
    await settle();
    await asked;
    await advance(2_000);
    assert.ok(!store.allText().toLowerCase().includes(KEY.toLowerCase()), 'the key is not on disk');
    mock.inject({ endpoint: 'processing', status: 500, body: `trace: Authorization: Bearer ${KEY}`, times: 1 });
    const failing = a.explorer.refresh('processing');
    await settle();
    await failing;
    await advance(2_000);
    assert.ok(a.explorer.lists.processing.state.error, 'the failure was met');
    assert.ok(!store.allText().toLowerCase().includes(KEY.toLowerCase()), 'nor is it in a shared failure');
  });

  it('a failed poll shows in every window (announced by one), with the next attempt; the next answer clears it everywhere', async () => {
    open('A');
    await advance(2_000);
    open('B');
    await advance(2_000);
    const holder = windows.find((w) => w.sharing.isHolder('processing'))!;
    const follower = windows.find((w) => w !== holder)!;
    const stateOf = (w: (typeof windows)[number]) => w.explorer.lists.processing.state;
    assert.ok(stateOf(follower).items, 'the follower shows the shared answer');
    mock.clearRequests();
    mock.inject({ endpoint: 'processing', status: 503 });
    for (let i = 0; i < INTERVAL / 1_000 && !stateOf(holder).error; i++) await advance(1_000);
    assert.equal(stateOf(holder).error?.kind, 'http', 'the holder met the failure');
    assert.equal(stateOf(holder).errorShared, undefined);
    await advance(1_000);
    const met = stateOf(holder);
    const shown = stateOf(follower);
    assert.equal(shown.error?.kind, 'http', 'the follower shows it within a second');
    assert.equal(shown.error?.message, met.error?.message);
    assert.equal(shown.errorShared, true, 'marked as met elsewhere: the follower does not notify');
    assert.equal(shown.nextAttemptAt, met.nextAttemptAt, "with the holder's next attempt");
    assert.ok(shown.items && shown.items.length > 0, 'over the data it holds');
    assert.equal(processingRequests().length, met.failures, 'only the holder asked');
    mock.clearFaults();
    await advance(met.nextAttemptAt! - clock.now() + 2_000);
    assert.equal(stateOf(holder).error, undefined, 'the holder recovered');
    assert.equal(stateOf(follower).error, undefined, 'and the follower with it');
    assert.equal(processingRequests().length, met.failures + 1);
  });

  it('a refused certificate in the polling window: every window shows it, and once the trusted server is back every window has its answer within the backoff (issue #49)', async () => {
    let refusing = false; // a captive portal or an intercepting proxy in front of the service
    for (const id of ['A', 'B', 'C']) {
      const view = store.view();
      let sharing!: PollCoordinator;
      const explorer = new Explorer(clock, {
        random: () => 0.5,
        sharing: (e) => {
          sharing = new PollCoordinator(e, view, id, clock);
          const load = sharing.load.bind(sharing);
          sharing.load = ((list, explicit, request) =>
            load(list, explicit, () =>
              refusing ? Promise.reject(new ApiError('certificate', 'The certificate is not trusted.')) : request(),
            )) as typeof sharing.load;
          return sharing;
        },
      });
      explorer.configure(config());
      windows.push({ id, explorer, sharing, store: view });
    }
    await advance(2_000);
    const holder = windows.find((w) => w.sharing.isHolder('processing'))!;
    const stateOf = (w: (typeof windows)[number]) => w.explorer.lists.processing.state;
    refusing = true;
    for (let i = 0; i < INTERVAL / 1_000 && !stateOf(holder).error; i++) await advance(1_000);
    assert.equal(stateOf(holder).error?.kind, 'certificate');
    const retry = stateOf(holder).nextAttemptAt;
    assert.ok(retry !== undefined && retry - clock.now() <= 6_000, 'the holder plans a retry: 5 s, doubling');
    await advance(1_000);
    for (const w of windows) assert.equal(stateOf(w).error?.kind, 'certificate', `${w.id} shows it`);
    refusing = false;
    mock.clearRequests();
    await advance(retry! - clock.now() + 1_000);
    for (const w of windows) assert.equal(stateOf(w).error, undefined, `${w.id} has the answer again`);
    assert.equal(processingRequests().length, 1, "one request: the holder's retry");
  });

  it("a failure file from earlier (older than two intervals) or about another window's older news is not shown", async () => {
    const a = open('A');
    const errorOf = () => a.explorer.lists.processing.state.error;
    await advance(2_000);
    const context = leaseContext('processing', new URL(mock.url).origin, '');
    const failure = { v: 1, context, writer: 'Z', kind: 'network', message: 'Could not reach the service.' };
    await a.store.write(
      contextFolder(context),
      'failure',
      JSON.stringify({ ...failure, at: clock.now() - 3 * INTERVAL }),
    );
    await advance(2_000);
    assert.equal(errorOf(), undefined, 'stale');
    await a.store.write(
      contextFolder(context),
      'failure',
      JSON.stringify({ ...failure, at: a.explorer.lists.processing.state.loadedAt! - 1 }),
    );
    await advance(2_000);
    assert.equal(errorOf(), undefined, 'older than the answer held');
    await a.store.write(contextFolder(context), 'failure', JSON.stringify({ ...failure, at: clock.now() }));
    await advance(1_000);
    assert.equal(errorOf()?.kind, 'network', 'a recent one from another window is shown');
  });

  describe('shared files get the bounds of an answer from the service', () => {
    /** A window alone (it holds the lease and has loaded), and a writer for the files of its context. */
    async function alone() {
      const a = open('A');
      await advance(2_000);
      const context = leaseContext('processing', new URL(mock.url).origin, '');
      const put = (file: 'lease' | 'snapshot' | 'failure', o: object) =>
        a.store.write(contextFolder(context), file, JSON.stringify(o));
      const items = mock.dataset.processingAt(clock.now());
      const snapshot = (extra: object) => ({
        v: 1,
        context,
        writer: 'Z',
        loadedAt: clock.now(),
        fingerprint: 'planted',
        dropped: 0,
        items: [{ ...items[0], ...extra }, ...items.slice(1)],
      });
      return { a, context, put, snapshot, state: () => a.explorer.lists.processing.state };
    }

    it('a snapshot larger than an answer may be (16 MB) is set aside, not adopted', async () => {
      const { put, snapshot, state } = await alone();
      await put('snapshot', snapshot({ note: 'x'.repeat(DEFAULT_MAX_BYTES) }));
      await advance(2_000);
      assert.notEqual(state().fingerprint, 'planted', 'the oversized snapshot was adopted');
      await put('snapshot', snapshot({ note: 'x' }));
      await advance(1_000);
      assert.equal(state().fingerprint, 'planted', 'a snapshot within the bounds still is');
    });

    it('a snapshot with more objects and arrays, or more values, than an answer may hold is set aside', async () => {
      const { put, snapshot, state } = await alone();
      await put('snapshot', snapshot({ note: new Array(MAX_CONTAINERS + 1).fill([]) }));
      await advance(2_000);
      assert.notEqual(state().fingerprint, 'planted', 'a snapshot of too many containers was adopted');
      await put('snapshot', snapshot({ note: new Array(MAX_COMMAS + 2).fill(0) }));
      await advance(2_000);
      assert.notEqual(state().fingerprint, 'planted', 'a snapshot of too many values was adopted');
    });

    it("a snapshot item nested deeper than an answer's may be is dropped, as from the service", async () => {
      const { put, snapshot, state } = await alone();
      let deep: unknown = 0;
      for (let i = 0; i < MAX_ITEM_DEPTH + 5; i++) deep = [deep];
      const planted = snapshot({ note: deep });
      await put('snapshot', planted);
      await advance(2_000);
      assert.equal(state().fingerprint, 'planted');
      assert.equal(state().items?.length, planted.items.length - 1, 'the deep item is dropped');
    });

    it('a window does not write a snapshot its readers would set aside (an answer within the bounds that grows when written)', async () => {
      const logged: string[] = [];
      const view = store.view();
      let sharing!: PollCoordinator;
      const explorer = new Explorer(clock, {
        random: () => 0.5,
        sharing: (e) => (sharing = new PollCoordinator(e, view, 'W', clock, (m) => logged.push(m))),
      });
      windows.push({ id: 'W', explorer, sharing, store: view });
      explorer.configure(config());
      await advance(2_000);
      const items = mock.dataset.processingAt(clock.now());
      // 1e20 is 4 bytes in the answer and 21 once written back (100000000000000000000): 4 MB become 18 MB
      const body = `[${JSON.stringify(items[0]).slice(0, -1)},"pad":[${'1e20,'.repeat(799_999)}1e20]}]`;
      assert.ok(body.length < DEFAULT_MAX_BYTES);
      mock.inject({ endpoint: 'processing', status: 200, body, times: 1 });
      const asked = explorer.refresh('processing');
      await settle();
      await asked;
      await advance(1_000);
      assert.equal(explorer.lists.processing.state.items?.length, 1, 'the answer was loaded');
      const written = store.files.get(
        `${contextFolder(leaseContext('processing', new URL(mock.url).origin, ''))}/snapshot`,
      )!;
      assert.ok(written.bytes.length <= DEFAULT_MAX_BYTES, `a snapshot of ${written.bytes.length} bytes was written`);
      assert.ok(
        logged.some((m) => /over the bounds/.test(m)),
        logged.join('\n'),
      );
    });

    it('an oversized lease counts as no lease (this window takes it), and an oversized failure is not shown', async () => {
      const { a, put, context } = await alone();
      const now = clock.now();
      const lease = {
        v: 1,
        holder: 'Z',
        context,
        heartbeatAt: now,
        expiresAt: now + 10 * INTERVAL,
        intervalMs: 10_000,
      };
      await put('lease', { ...lease, note: 'x'.repeat(DEFAULT_MAX_BYTES) });
      await advance(2_000);
      assert.equal(a.sharing.isHolder('processing'), true, 'an oversized lease of another window was respected');
      await put('failure', {
        v: 1,
        context,
        writer: 'Z',
        at: clock.now(),
        kind: 'network',
        message: 'planted',
        note: 'x'.repeat(DEFAULT_MAX_BYTES),
      });
      await advance(2_000);
      assert.equal(a.explorer.lists.processing.state.error, undefined, 'an oversized failure was shown');
    });
  });

  describe('an answer the same as the snapshot is shared by a heartbeat (#6)', () => {
    const folder = () => contextFolder(leaseContext('processing', new URL(mock.url).origin, ''));
    const fileOf = (file: string) => store.files.get(`${folder()}/${file}`);
    const stateOf = (w: (typeof windows)[number]) => w.explorer.lists.processing.state;
    /** A holds the lease and has written the snapshot; B shows it. The mock's list stands still until changed. */
    async function two() {
      mock.setNow(clock.now());
      const a = open('A');
      await advance(2_000);
      const b = open('B');
      await advance(2_000);
      assert.equal(a.sharing.isHolder('processing'), true);
      assert.equal(stateOf(b).fingerprint, stateOf(a).fingerprint);
      return { a, b };
    }
    afterEach(() => mock.resetSyncs());

    it('unchanged: a heartbeat, not the snapshot, and the follower takes its time without reading the list; changed: the snapshot, read once', async () => {
      const { a, b } = await two();
      const version = fileOf('snapshot')!.version;
      const reads = b.store.reads.snapshot;
      await advance(3 * INTERVAL);
      assert.equal(fileOf('snapshot')!.version, version, 'the snapshot was not written again');
      assert.equal(parseHeartbeat(fileOf('heartbeat')?.text)?.fingerprint, stateOf(a).fingerprint);
      assert.ok(fileOf('heartbeat')!.bytes.length <= MAX_HEARTBEAT_BYTES);
      assert.equal(b.store.reads.snapshot, reads, 'B did not read the list');
      assert.equal(stateOf(b).loadedAt, stateOf(a).loadedAt, "B shows A's last poll");
      assert.equal(stateOf(b).adopted, true);
      mock.startSync(mock.dataset.flows[0].id, { count: 2 });
      await advance(INTERVAL);
      assert.notEqual(fileOf('snapshot')!.version, version, 'a changed answer is written whole');
      assert.equal(b.store.reads.snapshot, reads + 1, 'and read once');
      assert.equal(stateOf(b).fingerprint, stateOf(a).fingerprint);
      assert.equal(stateOf(b).items?.length, stateOf(a).items?.length);
      assert.equal(stateOf(b).loadedAt, stateOf(a).loadedAt);
    });

    it('the snapshot file replaced since the writer read it: the writer writes the snapshot again, not a heartbeat', async () => {
      const { a } = await two();
      const planted = parseSnapshot(fileOf('snapshot')!.text)!;
      // another window writes the same answer's fingerprint over it (here with one item): A has not read it yet
      await a.store.write(
        folder(),
        'snapshot',
        JSON.stringify({ ...planted, writer: 'Z', items: planted.items.slice(0, 1) }),
      );
      const asked = a.explorer.refresh('processing');
      await settle();
      await asked;
      await flushPromises();
      const written = parseSnapshot(fileOf('snapshot')!.text)!;
      assert.equal(written.writer, 'A', 'A wrote its answer whole');
      assert.equal(written.items.length, stateOf(a).items?.length);
    });

    it('a heartbeat that names another answer than the snapshot (a write that crashed) is ignored; a new window takes the snapshot as it is', async () => {
      const { a, b } = await two();
      const context = leaseContext('processing', new URL(mock.url).origin, '');
      const held = { ...stateOf(b) };
      await b.store.write(
        folder(),
        'heartbeat',
        JSON.stringify({ v: 1, context, writer: 'Z', loadedAt: clock.now(), fingerprint: 'another answer' }),
      );
      await advance(1_000);
      assert.equal(stateOf(b).loadedAt, held.loadedAt, 'no time taken from a heartbeat of an answer not held');
      assert.equal(stateOf(b).fingerprint, held.fingerprint);
      assert.equal(stateOf(b).error, undefined);
      const c = open('C');
      await advance(1_000);
      assert.equal(stateOf(c).fingerprint, stateOf(a).fingerprint, 'C shows the snapshot');
      assert.equal(c.store.reads.snapshot, 1);
    });

    it('a heartbeat over MAX_HEARTBEAT_BYTES is set aside, not used', async () => {
      const { a, b } = await two();
      const context = leaseContext('processing', new URL(mock.url).origin, '');
      const beat = { v: 1, context, writer: 'Z', fingerprint: stateOf(a).fingerprint };
      await b.store.write(
        folder(),
        'heartbeat',
        JSON.stringify({ ...beat, loadedAt: clock.now(), note: 'x'.repeat(MAX_HEARTBEAT_BYTES) }),
      );
      const before = stateOf(b).loadedAt;
      await advance(1_000);
      assert.equal(stateOf(b).loadedAt, before, 'an oversized heartbeat was used');
      await b.store.write(folder(), 'heartbeat', JSON.stringify({ ...beat, loadedAt: clock.now() }));
      await advance(1_000);
      assert.equal(stateOf(b).loadedAt, clock.now() - 1_000, 'one within the bound is');
    });
  });

  it('a storage that fails: each window polls on its own, as without sharing', async () => {
    const a = open('A');
    a.store.failing = true;
    await advance(2_000);
    assert.equal(a.sharing.isHolder('processing'), undefined);
    mock.clearRequests();
    await advance(3 * INTERVAL);
    assert.equal(processingRequests().length, 3);
  });

  it('lazy sharing: nothing is created while the window cannot poll; the first poll creates the coordinator, which then shares', async () => {
    let created = 0;
    let lazy!: LazySharing<PollCoordinator>;
    const explorer = new Explorer(clock, {
      random: () => 0.5,
      sharing: (e) => {
        lazy = lazySharing(() => {
          created++;
          return new PollCoordinator(e, store.view(), 'L', clock);
        });
        return lazy.sharing;
      },
    });
    const w = {
      id: 'L',
      explorer,
      store: store.view(),
      get sharing() {
        return lazy.loaded()!;
      },
    };
    try {
      explorer.configure(config({ apiKey: undefined }));
      await advance(5 * INTERVAL);
      assert.equal(created, 0, 'no key: never asked to poll, never created');
      assert.equal(processingRequests().length, 0);
      explorer.configure(config());
      await advance(2_000);
      assert.equal(created, 1, 'created by the first poll');
      windows.push(w);
      const b = open('B');
      await advance(2_000);
      assert.deepEqual(holders(), ['L'], 'and it holds the lease like any coordinator');
      mock.clearRequests();
      await advance(4 * INTERVAL);
      assert.equal(processingRequests().length, 4, 'two windows, the rate of one');
      assert.deepEqual(b.explorer.lists.processing.state.items?.length, explorer.lists.processing.state.items?.length);
    } finally {
      windows = windows.filter((x) => x !== w);
      lazy.dispose();
      explorer.dispose();
    }
    assert.equal(lazy.disposed, true, 'dispose uninstalls it');
    assert.equal(
      explorer.sharing?.mayPoll('processing'),
      true,
      'dispose uninstalls it: the window polls on its own, as without sharing',
    );
    await assert.rejects(lazy.current(), /disposed/);
    assert.equal(created, 1);
  });
});

describe('pollLease: an unchanged answer is shared by a heartbeat, not by the whole list again (#6)', function () {
  this.timeout(120_000);
  const T = Date.UTC(2026, 10, 27, 9, 0, 0);
  const ITEMS = 70_000;
  let mock: MockFlowSyncServer;

  before(async () => {
    // The mock's clock stands still: its list of about 70,000 processing syncs does not change; with ETags, a 304.
    mock = await MockFlowSyncServer.start({ apiKey: KEY, processing: ITEMS, etag: true, now: () => T });
  });
  after(() => mock.close());

  it(`2 windows, ${ITEMS.toLocaleString('en-US')} items, 10 unchanged intervals: at most 10 KB written, nothing parsed again; a new window still reads the list`, async () => {
    const clock = new FakeClock();
    const store = new MemoryStore();
    const windows: Array<{ explorer: Explorer; sharing: PollCoordinator; view: ReturnType<MemoryStore['view']> }> = [];
    const open = (id: string) => {
      const view = store.view();
      let sharing!: PollCoordinator;
      const explorer = new Explorer(clock, {
        random: () => 0.5,
        sharing: (e) => (sharing = new PollCoordinator(e, view, id, clock)),
      });
      explorer.configure(explorerConfig(mock.url, KEY, { refreshIntervalMs: INTERVAL, timeoutMs: 60_000 }));
      const w = { explorer, sharing, view };
      windows.push(w);
      return w;
    };
    const settle = async () => {
      await flushPromises();
      for (let i = 0; i < 2_000 && windows.some((w) => w.explorer.lists.processing.isLoading); i++) {
        await new Promise((r) => setTimeout(r, 5));
      }
      await flushPromises();
    };
    const stateOf = (w: (typeof windows)[number]) => w.explorer.lists.processing.state;
    try {
      const a = open('A');
      await clock.advance(2_000, settle);
      const b = open('B');
      await clock.advance(2_000, settle);
      assert.equal(a.sharing.isHolder('processing'), true);
      assert.equal(b.sharing.isHolder('processing'), false);
      assert.ok(stateOf(a).items!.length > ITEMS * 0.9, `${stateOf(a).items!.length} items`);
      assert.equal(stateOf(b).fingerprint, stateOf(a).fingerprint, 'B shows the answer A shared');
      assert.equal(b.view.reads.snapshot, 1, 'B read the list once');

      mock.clearRequests();
      const written = store.bytesWritten;
      const parsed = b.view.reads.snapshot;
      await clock.advance(10 * INTERVAL, settle);
      const polls = mock.requests.filter((r) => r.path.endsWith('/flowsyncs/processing'));
      assert.equal(polls.length, 10, 'one poll per interval');
      assert.ok(
        polls.every((r) => r.status === 304),
        'each a 304: nothing on the wire',
      );
      const bytes = store.bytesWritten - written;
      assert.ok(bytes <= 10_240, `${bytes.toLocaleString('en-US')} bytes written over 10 unchanged intervals`);
      assert.equal(b.view.reads.snapshot - parsed, 0, 'B did not read (nor parse) the list again');
      assert.equal(stateOf(b).error, undefined);
      assert.ok(
        stateOf(b).loadedAt! >= stateOf(a).loadedAt! - 1_000,
        `B knows the answer is fresh: loaded at ${stateOf(b).loadedAt}, A's at ${stateOf(a).loadedAt}`,
      );

      // A window that starts now holds nothing: it reads the whole list once, fresh as of A's last poll, and asks nothing.
      mock.clearRequests();
      const c = open('C');
      await clock.advance(1_000, settle);
      assert.equal(stateOf(c).fingerprint, stateOf(a).fingerprint);
      assert.equal(stateOf(c).items?.length, stateOf(a).items?.length);
      assert.equal(c.view.reads.snapshot, 1);
      assert.ok(stateOf(c).loadedAt! >= stateOf(a).loadedAt!, "as fresh as A's last poll");
      assert.equal(mock.requests.length, 0, 'C asked the service nothing');
    } finally {
      for (const w of windows) {
        w.sharing.dispose();
        w.explorer.dispose();
      }
    }
  });
});
