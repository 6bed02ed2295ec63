// `npm run bench -- --only fleet` (issue #38): what the service sees from many installations. Simulates the REAL
// scheduling code (the compiled src/lists/refresh.js ListRefresher and src/lists/pollSpread.js PollSpread, as
// ServiceRegistry gives them: one PollSpread per window, its place drawn once, one refresher per service's polled list)
// for 10,000 installations (one polling window each: the lease of src/sharing/pollLease.ts leaves one poller per
// installation) with 1, 2 and 20 services at a 30 s interval, on an injected clock (a heap of timers; no real time
// passes), started at random moments within one interval and after a common restart (every window within 10 s).
// Each load answers after 50-300 ms of simulated time. Per service: requests per hour, and the busiest second against
// the mean second once two intervals have passed. "Before" rows run the same code with every window at place 0 and no
// jitter (the rule before #38: a lone service without a spread, one interval after each answer). Then, against the
// mock over loopback (a counting TCP relay in front of it), the bytes of one unchanged poll with and without --etag,
// times the requests per hour: the bytes per service per hour when nothing changes.
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { emitRows, outModule, progress, row, seeded } from './lib/common.mjs';

const { values: opts } = parseArgs({
  options: {
    installations: { type: 'string', default: '10000' },
    minutes: { type: 'string', default: '5' },
    /** Only the rows after an interval of 429s (`node bench/fleet.mjs --only-429`), e.g. to compare two builds. */
    'only-429': { type: 'boolean', default: false },
  },
});
const INSTALLATIONS = Number(opts.installations);
const SIMULATED_MS = Number(opts.minutes) * 60_000;
const INTERVAL_MS = 30_000;
const SETTLED_MS = 2 * INTERVAL_MS;
/** Requests per service per hour when every installation polls once per interval. */
const ONE_PER_INTERVAL = (INSTALLATIONS * 3_600_000) / INTERVAL_MS;
const say = (m) => progress('fleet', m);

const { ListRefresher } = outModule('lists/refresh.js');
const { ApiError } = outModule('api/errors.js');
const { PollSpread } = outModule('lists/pollSpread.js');
const { FlowSyncClient } = outModule('api/client.js');
const { MockFlowSyncServer } = outModule('mock/server.js');

/** The injected clock: timers in a binary heap, time moves only from timer to timer. */
class HeapClock {
  time = 0;
  heap = [];
  nextId = 1;
  cancelled = new Set();
  now() {
    return this.time;
  }
  setTimeout(callback, ms) {
    const timer = { at: this.time + Math.max(0, ms), id: this.nextId++, callback };
    this.push(timer);
    return timer.id;
  }
  clearTimeout(id) {
    this.cancelled.add(id);
  }
  push(timer) {
    const h = this.heap;
    h.push(timer);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (before(h[p], h[i])) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
  }
  pop() {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l], h[m])) m = l;
        if (r < h.length && before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i], h[m]];
        i = m;
      }
    }
    return top;
  }
  async runUntil(end) {
    while (this.heap.length && this.heap[0].at <= end) {
      const timer = this.pop();
      if (this.cancelled.delete(timer.id)) continue;
      this.time = timer.at;
      timer.callback();
      // The refresher's answer lands in promise callbacks: let them run before the next timer.
      for (let i = 0; i < 4; i++) await null;
    }
    this.time = end;
  }
}
const before = (a, b) => a.at < b.at || (a.at === b.at && a.id < b.id);

const ANSWER = Object.freeze({ items: [], dropped: 0, fingerprint: 'unchanged' });

/** The interval of 429s (issue #49): every request in it is told to come back at one moment, an HTTP date. */
const LIMITED_FROM = SETTLED_MS;
const LIMITED_UNTIL = SETTLED_MS + INTERVAL_MS;
const COME_BACK_AT = LIMITED_UNTIL + INTERVAL_MS;

/**
 * One scenario: `services` services per installation; `start`: 'random' (within one interval) or 'restart' (within
 * 10 s); `rule`: 'now' (each window's own place and jitter) or 'before' (place 0, no jitter; a lone service alone);
 * `limited`: the service answers 429 with `Retry-After: <the date COME_BACK_AT>` for one interval, and the busiest
 * second is counted from that date on.
 */
async function simulate(services, start, rule, limited = false) {
  const random = seeded(38 + services * 7 + (start === 'restart' ? 1 : 0));
  const clock = new HeapClock();
  const seconds = Math.ceil(SIMULATED_MS / 1000);
  const perSecond = Array.from({ length: services }, () => new Uint32Array(seconds));
  const ids = Array.from({ length: services }, (_, i) => `s${i}`);
  const refreshers = [];
  const t0 = performance.now();
  for (let w = 0; w < INSTALLATIONS; w++) {
    const spread = new PollSpread(rule === 'now' ? random() : 0);
    spread.order(ids);
    const startAt = Math.floor(random() * (start === 'restart' ? 10_000 : INTERVAL_MS));
    for (let i = 0; i < services; i++) {
      const latency = 50 + Math.floor(random() * 250);
      const load = () => {
        const second = Math.floor(clock.now() / 1000);
        if (second < seconds) perSecond[i][second]++;
        const now = clock.now();
        if (limited && now >= LIMITED_FROM && now < LIMITED_UNTIL) {
          // What parseRetryAfter makes of an HTTP date: the time left until it.
          const error = new ApiError('rateLimited', 'HTTP 429', { status: 429, retryAfterMs: COME_BACK_AT - now });
          return new Promise((_, reject) => clock.setTimeout(() => reject(error), latency));
        }
        return new Promise((resolve) => clock.setTimeout(() => resolve(ANSWER), latency));
      };
      const lone = rule === 'before' && services === 1;
      const r = new ListRefresher(
        load,
        clock,
        () => INTERVAL_MS,
        rule === 'now' ? random : () => 0.5,
        undefined,
        lone ? {} : { pollPhase: () => spread.fraction(ids[i]) },
      );
      refreshers.push(r);
      clock.setTimeout(() => void r.refresh(), startAt);
    }
  }
  await clock.runUntil(SIMULATED_MS);
  for (const r of refreshers) r.dispose();
  const from = (limited ? COME_BACK_AT : SETTLED_MS) / 1000;
  const span = seconds - from;
  let requests = 0;
  let worstRatio = 0;
  for (const counts of perSecond) {
    let sum = 0;
    let max = 0;
    for (let s = from; s < seconds; s++) {
      sum += counts[s];
      if (counts[s] > max) max = counts[s];
    }
    requests += sum;
    worstRatio = Math.max(worstRatio, max / (sum / span));
  }
  const perHour = (requests / services) * (3600 / span);
  say(
    `${services} service(s), ${start}, ${rule}: ${Math.round(perHour).toLocaleString('en-US')} requests per service per hour, busiest second ${worstRatio.toFixed(2)}x the mean (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  return { perHour, ratio: worstRatio };
}

/** The bytes on the wire (both ways) of one unchanged poll of the processing list, with and without --etag. */
async function bytesPerPoll(etag) {
  const mock = await MockFlowSyncServer.start({ etag, now: () => Date.UTC(2026, 10, 27, 9, 0, 0) });
  let bytes = 0;
  const relay = net.createServer((inbound) => {
    const outbound = net.connect(mock.port, '127.0.0.1');
    inbound.on('data', (d) => ((bytes += d.length), outbound.write(d)));
    outbound.on('data', (d) => ((bytes += d.length), inbound.write(d)));
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
    inbound.on('error', () => undefined);
    outbound.on('error', () => undefined);
  });
  await new Promise((resolve) => relay.listen(0, '127.0.0.1', resolve));
  try {
    const client = new FlowSyncClient({
      baseUrl: `http://127.0.0.1:${relay.address().port}`,
      apiKey: mock.apiKey,
      userAgent: 'flowsync-explorer/0.3.0 (VS Code 1.139.1)',
    });
    await client.listProcessing();
    const samples = [];
    for (let i = 0; i < 5; i++) {
      const before = bytes;
      await client.listProcessing();
      await new Promise((resolve) => setTimeout(resolve, 20));
      samples.push(bytes - before);
    }
    const statuses = mock.requests.slice(1).map((r) => r.status);
    return { bytes: Math.max(...samples), statuses };
  } finally {
    relay.close();
    await mock.close();
  }
}

const rows = [];
const scenarios = [
  [1, 'random'],
  [1, 'restart'],
  [2, 'random'],
  [2, 'restart'],
  [20, 'random'],
  [20, 'restart'],
];
const results = {};
for (const [services, start] of opts['only-429'] ? [] : scenarios) {
  const now = await simulate(services, start, 'now');
  results[`${services}-${start}`] = now;
  const label = `${services} service${services > 1 ? 's' : ''}, ${start === 'random' ? 'started at random' : 'after a common restart (10 s)'}`;
  rows.push(
    row('fleet', `${label}: requests per service per hour`, 'req', [now.perHour], {
      target: {
        max: ONE_PER_INTERVAL * 1.001,
        text: `≤ ${ONE_PER_INTERVAL.toLocaleString('en-US')} (one per interval)`,
      },
    }),
    row('fleet', `${label}: busiest second / mean second, after two intervals`, 'x', [now.ratio], {
      target: { max: 1.5, text: '≤ 1.5x (random arrivals ≈ 1.15x)' },
    }),
  );
}
for (const [services, start] of opts['only-429']
  ? []
  : [
      [1, 'restart'],
      [2, 'random'],
      [2, 'restart'],
    ]) {
  const old = await simulate(services, start, 'before');
  rows.push(
    row(
      'fleet',
      `before #38 (place 0, no jitter): ${services} service${services > 1 ? 's' : ''}, ${start === 'random' ? 'started at random' : 'after a common restart'}: busiest second / mean`,
      'x',
      [old.ratio],
    ),
  );
}
for (const services of [1, 2]) {
  const after = await simulate(services, 'random', 'now', true);
  rows.push(
    row(
      'fleet',
      `${services} service${services > 1 ? 's' : ''}, after one interval of 429s with Retry-After as one HTTP date: busiest second / mean second, from that date on`,
      'x',
      [after.ratio],
      { target: { max: 1.5, text: '≤ 1.5x (issue #49; before: every window at that second)' } },
    ),
  );
}
if (opts['only-429']) {
  emitRows(rows);
  process.exit(0);
}
const plain = await bytesPerPoll(false);
const tagged = await bytesPerPoll(true);
say(
  `one unchanged poll: ${plain.bytes} bytes without ETag (${plain.statuses}), ${tagged.bytes} with --etag (${tagged.statuses})`,
);
const perHour = results['1-random'].perHour;
rows.push(
  row('fleet', "one unchanged poll of Processing (the mock's seeded list), bytes both ways: without ETag", 'B', [
    plain.bytes,
  ]),
  row('fleet', 'one unchanged poll, with --etag (304)', 'B', [tagged.bytes]),
  row(
    'fleet',
    `bytes per service per hour, nothing changes, ${INSTALLATIONS.toLocaleString('en-US')} installations: without ETag`,
    'MB',
    [(plain.bytes * perHour) / 1e6],
  ),
  row('fleet', `bytes per service per hour, nothing changes: with --etag`, 'MB', [(tagged.bytes * perHour) / 1e6], {
    target: { max: (plain.bytes * perHour) / 1e6, text: 'less than without' },
  }),
);
emitRows(rows);
