/**
 * Property-based tests (fast-check) for the issue "any JSON value, any status, any headers: nothing escapes
 * refresh(), no unhandled rejection, time bounded per byte": a ListRefresher over a real FlowSyncClient, against a
 * loopback service that answers with whatever fast-check draws (test/unit/helpers/hostile.ts).
 *
 * fast-check picks a new seed on every run and prints seed, path and the shrunk counterexample on failure; replay one
 * with `fc.assert(property, { seed, path })`.
 */
import * as assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { DEFAULT_MAX_BYTES, FlowSyncClient } from '../../../src/api/client';
import { boundedRetryAfter, MAX_RETRY_AFTER_MS } from '../../../src/api/errorAnswers';
import { ApiError } from '../../../src/api/errors';
import type { Connection, FlowSync, ListResult } from '../../../src/api/types';
import { ListRefresher, type ListChange } from '../../../src/lists/refresh';
import { FakeClock } from '../helpers/fakeClock';
import { HostileServer, apiKeyArb, replyArb, validListBody, type HostileReply } from '../helpers/hostile';

/**
 * The client's timeout, on the real clock (the client's only one). The server here always answers at once, so a
 * timeout error can only be a stall (a client waiting for bytes that never come): checkOutcome fails on it. 20 s is
 * far above a loopback answer under any load seen on the shared 2-core machine (the slowest run, at load 20+: 12.9 s
 * for a whole refresh), and a stall still fails in 20 s, well within the suite's timeout.
 *
 * No wall-clock bound per run (there was one, BASE_MS + bytes / 2 MB/s: it failed under load, "took 2071 ms, budget
 * 2024 ms"): what it guarded, work growing faster than the body, is measured by the bench's "worst answer under the
 * caps" row (bench/worst.mjs, docs/performance.md) and counted by test/unit/api/http.test.ts (bytes hashed and
 * counted around an edit, bytes read past the cap). Here every run's work is bounded by count: numRuns answers,
 * each at most maxBytes decoded (the client's cap, asserted by those tests), and what JSON.parse is given in a refresh
 * is counted: at most twice the bytes of the answer (the list once, an error body once), so re-parsing a body per item
 * or per chunk fails at once, whatever the load.
 */
const TIMEOUT_MS = 20_000;
const HTTP_RUNS = 150;

const maxBytesArb = fc.constantFrom<number | undefined>(undefined, 64 * 1024, 1024 * 1024);
const endpointArb = fc.constantFrom<'processing' | 'connections'>('processing', 'connections');
const pollArb = fc.constantFrom<[string, () => number | undefined]>(
  ['no poll', () => undefined],
  ['30 s', () => 30_000],
);

/** The bytes a run may cost: the larger of the bytes sent and the bytes the client has to decode, capped by maxBytes. */
function answerBytes(reply: HostileReply, maxBytes: number | undefined): number {
  return Math.max(reply.body.length, Math.min(reply.decodedBytes, maxBytes ?? DEFAULT_MAX_BYTES));
}

interface Outcome {
  refresher: ListRefresher<FlowSync | Connection>;
  clock: FakeClock;
  elapsedMs: number;
  /** Characters given to JSON.parse during the refresh (counted: the work a per-item re-parse would multiply). */
  parsed: number;
  /** Unhandled rejections seen while the run was going on (and a few turns after). */
  unhandled: unknown[];
}

/** Waits a few event-loop turns, so that a rejection nobody handles has the time to be reported. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** True when the generated answer happens to hold the key (then an error may quote it: that is the echo property). */
function sendsKey(reply: HostileReply, key: string): boolean {
  return (
    reply.body.includes(key) ||
    (reply.statusMessage ?? '').includes(key) ||
    reply.headers.some(([, value]) => value.includes(key))
  );
}

/** Long enough that no 8-character piece of a random key turns up in a message by chance. */
const KEY_FRAGMENT = 8;

/**
 * The first KEY_FRAGMENT-long piece of `key` found in `texts`, ignoring case and undoing the cosmetic rewrites of
 * service text (‹ › for < >, "] (" and "$ (" for "](" and "$("): a key shown as "fs_ab‹cd" is still shown.
 */
function keyFragmentIn(texts: Array<string | undefined>, key: string): string | undefined {
  const shown = texts
    .join('\n')
    .replace(/‹/g, '<')
    .replace(/›/g, '>')
    .replace(/\] \(/g, '](')
    .replace(/\$ \(/g, '$(')
    .toLowerCase();
  for (let at = 0; at + KEY_FRAGMENT <= key.length; at++) {
    const piece = key.slice(at, at + KEY_FRAGMENT);
    if (shown.includes(piece.toLowerCase())) return piece;
  }
  return undefined;
}

describe('properties: refresh() over loopback HTTP against a hostile service', function () {
  this.timeout(120_000);
  let server: HostileServer;
  let unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  before(async () => {
    server = await HostileServer.start();
    process.on('unhandledRejection', onUnhandled);
  });
  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    await server.close();
  });

  type Refresher = ListRefresher<FlowSync | Connection>;

  /**
   * A ListRefresher over a real FlowSyncClient. The clock is fake and never advanced, so the refresher's poll and
   * retry timers never fire: a request happens only when the test calls refresh().
   */
  function pipeline(
    key: string,
    endpoint: 'processing' | 'connections',
    maxBytes: number | undefined,
    poll: () => number | undefined,
  ) {
    const clock = new FakeClock();
    const client = new FlowSyncClient({
      baseUrl: server.url,
      apiKey: key,
      timeoutMs: TIMEOUT_MS,
      maxBytes,
      now: () => clock.now(),
    });
    const load = (signal: AbortSignal): Promise<ListResult<FlowSync | Connection>> =>
      endpoint === 'processing' ? client.listProcessing({ signal }) : client.listConnections({ signal });
    return { refresher: new ListRefresher(load, clock, poll, () => 0.5) as Refresher, clock };
  }

  /** One refresh() answered with `reply`, timed; exactly one request must reach the server. */
  async function timedRefresh(
    { refresher, clock }: { refresher: Refresher; clock: FakeClock },
    reply: (request: { authorization?: string }) => HostileReply,
    key: string,
  ): Promise<Outcome> {
    unhandled = [];
    server.next = reply;
    const requestsBefore = server.received.length;
    const started = performance.now();
    let parsed = 0;
    const parse = JSON.parse;
    JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
      parsed += String(text).length;
      return parse(text, reviver) as unknown;
    };
    try {
      // Called inside the try: a refresh() that throws synchronously fails the property like one that rejects.
      await refresher.refresh();
    } catch (e) {
      assert.fail(`refresh() rejected or threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    } finally {
      JSON.parse = parse;
    }
    const elapsedMs = performance.now() - started;
    await settle();
    assert.equal(server.received.length - requestsBefore, 1, 'exactly one request per refresh');
    assert.equal(server.received.at(-1)?.authorization, `Bearer ${key}`);
    return { refresher, clock, elapsedMs, parsed, unhandled: [...unhandled] };
  }

  /** A fresh pipeline and one refresh; `setup` may add listeners first. */
  async function refreshOnce(
    reply: (request: { authorization?: string }) => HostileReply,
    key: string,
    endpoint: 'processing' | 'connections',
    maxBytes: number | undefined,
    poll: () => number | undefined,
    setup: (refresher: Refresher) => void = () => undefined,
  ): Promise<Outcome> {
    const p = pipeline(key, endpoint, maxBytes, poll);
    setup(p.refresher);
    return timedRefresh(p, reply, key);
  }

  /**
   * The issue's invariants for one finished refresh. `previous`: the items before it (a failure keeps them: stale
   * data stays on screen). `dispose`: false when more refreshes follow.
   */
  function checkOutcome(
    { refresher, clock, parsed, unhandled: seen }: Outcome,
    key: string,
    bytes: number,
    { previous, dispose = true }: { previous?: Refresher['state']['items']; dispose?: boolean } = {},
  ): void {
    assert.deepEqual(seen.map(String), [], 'unhandled rejection during the refresh');
    const state = refresher.state;
    assert.equal(state.loading, false, 'still loading after refresh() resolved');
    assert.equal(refresher.isLoading, false);
    if (state.error !== undefined) {
      const error = state.error;
      assert.ok(error instanceof ApiError, `state.error is not an ApiError: ${String(error)}`);
      assert.notEqual(error.kind, 'timeout', `the client stalled until its timeout: ${error.message}`);
      assert.equal(state.items, previous, 'a failure keeps the items there were (none on a first load)');
      assert.ok(error.message.trim().length > 0, `empty message (kind ${error.kind})`);
      assert.ok(!error.message.includes('\n'), `message is not one line: ${JSON.stringify(error.message)}`);
      const shown = JSON.stringify({ message: error.message, code: error.code, description: error.description });
      assert.ok(!shown.includes(key), `the API key is in the error: ${shown}`);
    } else {
      assert.ok(Array.isArray(state.items), 'neither items nor an error');
      assert.equal(state.failures, 0, 'a success resets the failure count');
      for (const item of state.items) assert.ok(Number.isSafeInteger(item.value.id));
    }
    if (state.nextAttemptAt !== undefined) {
      const wait = state.nextAttemptAt - clock.now();
      // At most the longest Retry-After honoured, then the spread of up to one interval after it (30 s in both
      // schedules here: the 30 s poll, and the default interval a list without polls spreads over).
      const longest = MAX_RETRY_AFTER_MS + 30_000;
      assert.ok(Number.isFinite(wait) && wait >= 0 && wait <= longest, `next attempt in ${wait} ms`);
    }
    assert.ok(parsed <= 2 * bytes, `JSON.parse was given ${parsed} characters for an answer of ${bytes} bytes`);
    if (dispose) refresher.dispose();
  }

  it('any status, headers and body: refresh() resolves to items or an ApiError, its parsing bounded by the answer, with nothing unhandled', async () => {
    const slowest = { ms: 0, note: '' };
    const outcomes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        replyArb,
        apiKeyArb,
        endpointArb,
        maxBytesArb,
        pollArb,
        async (reply, key, endpoint, maxBytes, [, poll]) => {
          // The service could send the key back by chance only: the keys are 19+ random characters.
          fc.pre(!sendsKey(reply, key));
          const outcome = await refreshOnce(() => reply, key, endpoint, maxBytes, poll);
          if (outcome.elapsedMs > slowest.ms) {
            Object.assign(slowest, { ms: outcome.elapsedMs, note: `${reply.note}, ${reply.body.length} bytes` });
          }
          const { error, items } = outcome.refresher.state;
          const label = error ? error.kind : `items (${items?.length ? 'some' : 'none'})`;
          outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
          checkOutcome(outcome, key, answerBytes(reply, maxBytes));
        },
      ),
      { numRuns: HTTP_RUNS },
    );
    if (process.env.PROPERTIES_VERBOSE) {
      console.log(`      slowest run: ${Math.round(slowest.ms)} ms (${slowest.note})`);
      console.log(`      outcomes: ${[...outcomes].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    }
  });

  it('a sequence of answers to one refresher: stale data survives failures, a success clears the error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(replyArb, { minLength: 2, maxLength: 4 }),
        apiKeyArb,
        endpointArb,
        pollArb,
        async (replies, key, endpoint, [, poll]) => {
          fc.pre(!replies.some((reply) => sendsKey(reply, key)));
          const p = pipeline(key, endpoint, undefined, poll);
          let failures = 0;
          for (const reply of replies) {
            const previous = p.refresher.state.items;
            const error = p.refresher.state.error;
            if (error?.kind === 'rateLimited' && error.retryAfterMs !== undefined) {
              // A refresh inside the wait the service asked for is kept until it ends (issue #49): time passes as asked.
              await p.clock.advance(boundedRetryAfter(error.retryAfterMs));
            }
            const outcome = await timedRefresh(p, () => reply, key);
            checkOutcome(outcome, key, answerBytes(reply, undefined), { previous, dispose: false });
            failures = p.refresher.state.error ? failures + 1 : 0;
            assert.equal(p.refresher.state.failures, failures, 'consecutive failures are counted');
          }
          p.refresher.dispose();
        },
      ),
      { numRuns: 40 },
    );
  });

  // Needs duplicate dropping (in validateList or the client): the views key tree items by id. Fails on d21e1f3.
  it('a valid list with repeated items reaches the state without duplicate ids [needs duplicate dropping]', async () => {
    await fc.assert(
      fc.asyncProperty(validListBody, apiKeyArb, endpointArb, async ({ text, note }, key, endpoint) => {
        const reply: HostileReply = {
          status: 200,
          headers: [['Content-Type', 'application/json']],
          body: Buffer.from(text),
          framing: 'length',
          decodedBytes: text.length,
          note,
        };
        const outcome = await refreshOnce(
          () => reply,
          key,
          endpoint,
          undefined,
          () => undefined,
        );
        const ids = outcome.refresher.state.items?.map((i) => i.value.id) ?? [];
        checkOutcome(outcome, key, answerBytes(reply, undefined));
        assert.equal(new Set(ids).size, ids.length, `${ids.length - new Set(ids).size} duplicate ids in the state`);
      }),
      { numRuns: 40 },
    );
  });

  // A service (or a proxy in front of it) that reflects the Authorization header back into what it answers: in the
  // errors body, the reason phrase or the Content-Type. Not even a fragment of the key may reach the error.
  const echoPlace = fc.constantFrom(
    'errors body 401',
    'errors body 200',
    'errors body 500',
    'errors message without code 400',
    'reason phrase 500',
    'reason phrase 418',
    'content-type 200',
  );
  /**
   * Whitespace, C1 controls and invisible characters: display clean-up collapses or removes them, so they move text.
   * The lengths favour the ranges where service text is cut for display (a few hundred, and a bit over a thousand
   * characters), where a key can straddle the cut.
   */
  const echoPadding = fc.tuple(
    fc.constantFrom(' ', '\t', '\n', '\u0085', '\u00a0', '\u200b', '\u2028'),
    fc.oneof(
      fc.constant(0),
      fc.integer({ min: 0, max: 1_600 }),
      fc.integer({ min: 300, max: 370 }),
      fc.integer({ min: 1_180, max: 1_250 }),
    ),
  );

  async function checkEcho(keyArb: fc.Arbitrary<string>, padding: fc.Arbitrary<[string, number]>): Promise<void> {
    const before = fc.constantFrom('', 'invalid token ', 'Bearer ', 'x');
    const after = fc.constantFrom('', ' is not valid', '.', ';q=1');
    await fc.assert(
      fc.asyncProperty(
        echoPlace,
        keyArb,
        padding,
        before,
        after,
        endpointArb,
        async (where, apiKey, [padChar, padCount], head, tail, endpoint) => {
          const answer = ({ authorization }: { authorization?: string }): HostileReply => {
            const [, kind, status] = /^(.*) (\d+)$/.exec(where)!;
            // A header value or reason phrase holds tabs and Latin-1 only; the JSON body holds anything.
            const inHeader = kind === 'reason phrase' || kind === 'content-type';
            const pad = (inHeader && !/^[\t\u0020-\u00ff]$/.test(padChar) ? '\t' : padChar).repeat(padCount);
            const echoed = `${head}${pad}${(authorization ?? '').replace(/^Bearer /, '')}${tail}`;
            const reply: HostileReply = {
              status: Number(status),
              headers: [['Content-Type', 'application/json']],
              body: Buffer.alloc(0),
              framing: 'length',
              decodedBytes: 0,
              note: where,
            };
            const errors = (message: string) => Buffer.from(JSON.stringify({ errors: [{ message }] }));
            if (where === 'errors body 500') reply.body = errors(`E_INTERNAL: ${echoed}`);
            else if (kind === 'errors body') reply.body = errors(`E_UNAUTHORIZED_ACCESS: ${echoed}`);
            else if (kind === 'errors message without code') reply.body = errors(echoed);
            else if (kind === 'reason phrase') reply.statusMessage = echoed;
            else reply.headers = [['Content-Type', `text/${echoed}`]];
            return reply;
          };
          const outcome = await refreshOnce(answer, apiKey, endpoint, undefined, () => undefined);
          const error = outcome.refresher.state.error;
          assert.ok(error, 'every one of these answers is an error');
          const fragment = keyFragmentIn([error.message, error.code, error.description], apiKey);
          assert.equal(
            fragment,
            undefined,
            `"${fragment}" of the key ${JSON.stringify(apiKey)} reached the error (${where}): ${JSON.stringify(error.message)}`,
          );
        },
      ),
      { numRuns: 200 },
    );
  }

  it('a service that echoes the key back, after padding that clean-up collapses: no fragment of the key reaches the error', async () => {
    // Keys without the characters the clean-up rewrites: that case is the next property.
    await checkEcho(
      apiKeyArb.filter((k) => !/[<>]|\]\(|\$\(/.test(k)),
      echoPadding,
    );
  });

  it('a service that echoes the key back, for keys holding characters the clean-up rewrites (< > ]( $()', async () => {
    const rewritten = fc
      .tuple(apiKeyArb, fc.nat(), fc.constantFrom('<', '>', '](', '$('))
      .map(
        ([k, at, insert]) => `${k.slice(0, 3 + (at % (k.length - 2)))}${insert}${k.slice(3 + (at % (k.length - 2)))}`,
      );
    await checkEcho(rewritten, fc.constant<[string, number]>([' ', 0]));
  });

  // Needs listener isolation in ListRefresher.emit. On d21e1f3 the first emit (loading: true) runs the throwing
  // listener inside refresh(), which then throws synchronously and the second listener never hears anything.
  it('a listener that throws on every event: refresh() still resolves and the next listener still hears everything [needs listener isolation]', async () => {
    await fc.assert(
      fc.asyncProperty(replyArb, apiKeyArb, endpointArb, pollArb, async (reply, key, endpoint, [, poll]) => {
        fc.pre(!sendsKey(reply, key));
        const heard: Array<{ change: ListChange; loading: boolean }> = [];
        let thrown = 0;
        const outcome = await refreshOnce(
          () => reply,
          key,
          endpoint,
          undefined,
          poll,
          (refresher) => {
            refresher.onDidChange(() => {
              thrown++;
              throw new Error('listener boom');
            });
            refresher.onDidChange((change) => heard.push({ change, loading: refresher.state.loading }));
          },
        );
        assert.ok(thrown >= 2, `the throwing listener was called ${thrown} times`);
        assert.equal(heard.length, thrown, 'the second listener heard every event the first one did');
        assert.equal(heard[0].loading, true, 'first event: loading started');
        assert.equal(heard.at(-1)?.loading, false, 'last event: loading finished');
        checkOutcome(outcome, key, answerBytes(reply, undefined));
      }),
      { numRuns: 30 },
    );
  });
});
