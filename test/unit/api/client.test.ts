import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { FlowSyncClient, type FlowSyncClientOptions, type RequestRecord } from '../../../src/api/client';
import { ApiError, type ApiErrorKind } from '../../../src/api/errors';
import { retryDelay } from '../../../src/lists/refresh';
import { MockFlowSyncServer } from '../../../src/mock/server';

const KEY = 'fs_test_SENTINEL_KEY_7f3a9c';

/** Asserts that `promise` rejects with an ApiError of `kind` whose message matches and never holds the key. */
async function rejectsWith(promise: Promise<unknown>, kind: ApiErrorKind, message: RegExp): Promise<ApiError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected ApiError, got ${String(e)}`);
    assert.equal(e.kind, kind, `kind of "${e.message}"`);
    assert.match(e.message, message);
    assert.ok(
      !JSON.stringify({ ...e, message: e.message, stack: e.stack }).includes(KEY),
      'the key leaked into the error',
    );
    assert.ok(!e.message.includes('\n'), 'one line');
    return e;
  }
  assert.fail(`expected a ${kind} error`);
}

describe('FlowSyncClient against the mock API', () => {
  let mock: MockFlowSyncServer;
  let records: RequestRecord[];

  const client = (options: Partial<FlowSyncClientOptions> = {}) =>
    new FlowSyncClient({
      baseUrl: mock.url,
      apiKey: KEY,
      userAgent: 'flowsync-explorer/0.1.0 (test)',
      onRequest: (r) => records.push(r),
      ...options,
    });

  before(async () => {
    mock = await MockFlowSyncServer.start({ apiKey: KEY });
  });
  after(() => mock.close());
  beforeEach(() => {
    mock.clearFaults();
    mock.clearRequests();
    records = [];
  });

  it('lists processing flow syncs and connections with the documented headers', async () => {
    const processing = await client().listProcessing();
    const connections = await client().listConnections();
    assert.ok(processing.items.length > 0);
    assert.ok(connections.items.length > 0);
    assert.equal(processing.dropped + connections.dropped, 0);
    const [first, second] = mock.requests;
    assert.equal(first.path, '/api/public/v1/flowsyncs/processing');
    assert.equal(second.path, '/api/public/v1/connections/index');
    assert.equal(first.headers.authorization, `Bearer ${KEY}`);
    assert.equal(first.headers.accept, 'application/json');
    assert.match(first.headers['user-agent'] ?? '', /^flowsync-explorer\/0\.1\.0/);
    assert.equal(first.method, 'GET');
  });

  it('sends team_id on both endpoints and only when a team is chosen', async () => {
    const all = await client().listConnections();
    const teamId = String(all.items[0].value.team_id);
    const filtered = await client().listConnections({ teamId });
    await client().listProcessing({ teamId });
    assert.ok(filtered.items.length > 0 && filtered.items.length < all.items.length);
    assert.ok(filtered.items.every((i) => String(i.value.team_id) === teamId));
    assert.deepEqual(
      mock.requests.map((r) => r.query.team_id),
      [undefined, teamId, teamId],
    );
  });

  it('keeps a path prefix of the base URL', async () => {
    const prefixed = await MockFlowSyncServer.start({ apiKey: KEY, pathPrefix: '/flowsync' });
    try {
      const result = await new FlowSyncClient({ baseUrl: `${prefixed.url}//`, apiKey: KEY }).listConnections();
      assert.ok(result.items.length > 0);
      assert.equal(prefixed.requests[0].path, '/flowsync/api/public/v1/connections/index');
    } finally {
      await prefixed.close();
    }
  });

  it('keeps the raw items with unknown fields and gives the same fingerprint for the same answer', async () => {
    const a = await client().listConnections();
    const b = await client().listConnections();
    assert.equal(a.fingerprint, b.fingerprint);
    assert.deepEqual(Object.keys(a.items[0].raw).sort(), Object.keys(a.items[0].raw).sort());
    assert.ok('team' in a.items[0].raw);
  });

  it('logs each request with path, status, time and count, never the key or host', async () => {
    await client().listProcessing({ teamId: '1' });
    assert.equal(records.length, 1);
    const [r] = records;
    assert.equal(r.path, '/api/public/v1/flowsyncs/processing?team_id=1');
    assert.equal(r.status, 200);
    assert.ok(r.ms >= 0 && typeof r.items === 'number');
    assert.ok(!JSON.stringify(records).includes(KEY));
  });

  describe('errors', () => {
    it('unauthorized: the documented body on a wrong key', async () => {
      const e = await rejectsWith(
        client({ apiKey: 'wrong-key' }).listProcessing(),
        'unauthorized',
        /rejected the API key.*Set API Key/,
      );
      assert.equal(e.status, 401);
    });

    it('unauthorized: E_UNAUTHORIZED_ACCESS at any status, or 401/403 without the body', async () => {
      mock.inject({
        status: 200,
        body: '{"errors":[{"message":"E_UNAUTHORIZED_ACCESS: Unauthorized access"}]}',
        times: 1,
      });
      await rejectsWith(client().listProcessing(), 'unauthorized', /Unauthorized access/);
      mock.inject({
        status: 400,
        body: '{"errors":[{"message":"E_UNAUTHORIZED_ACCESS: Unauthorized access"}]}',
        times: 1,
      });
      await rejectsWith(client().listProcessing(), 'unauthorized', /HTTP 400/);
      mock.inject({ status: 401, body: '', times: 1 });
      await rejectsWith(client().listProcessing(), 'unauthorized', /HTTP 401/);
      mock.inject({ status: 403, body: 'Forbidden', contentType: 'text/plain', times: 1 });
      await rejectsWith(client().listProcessing(), 'unauthorized', /HTTP 403/);
    });

    it('rate limited: 429 with Retry-After in seconds', async () => {
      mock.inject({ status: 429, headers: { 'Retry-After': '7' }, times: 1 });
      const e = await rejectsWith(client().listConnections(), 'rateLimited', /limiting requests \(HTTP 429\).*7 s/);
      assert.equal(e.retryAfterMs, 7000);
    });

    it('rate limited: 503 with Retry-After as an HTTP date', async () => {
      const now = Date.UTC(2026, 10, 22, 12, 0, 0);
      mock.inject({ status: 503, headers: { 'Retry-After': new Date(now + 90_000).toUTCString() }, times: 1 });
      const e = await rejectsWith(client({ now: () => now }).listConnections(), 'rateLimited', /HTTP 503.*1 min 30 s/);
      assert.equal(e.retryAfterMs, 90_000);
    });

    it('http: status with code and description parsed from errors[].message', async () => {
      mock.inject({ status: 500, body: '{"errors":[{"message":"E_INTERNAL: Database unavailable"}]}', times: 1 });
      const e = await rejectsWith(client().listProcessing(), 'http', /HTTP 500: E_INTERNAL: Database unavailable/);
      assert.equal(e.status, 500);
      assert.equal(e.code, 'E_INTERNAL');
      assert.equal(e.description, 'Database unavailable');
    });

    it('http: a 502 HTML page gives the status, not the page', async () => {
      mock.inject({
        status: 502,
        body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
        contentType: 'text/html',
        times: 1,
      });
      const e = await rejectsWith(client().listProcessing(), 'http', /HTTP 502/);
      assert.ok(!e.message.includes('<html>'));
      mock.inject({ status: 503, body: 'down', contentType: 'text/plain', times: 1 });
      await rejectsWith(client().listProcessing(), 'http', /HTTP 503/);
    });

    it('network: connection refused', async () => {
      const server = http.createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rejectsWith(
        client({ baseUrl: `http://127.0.0.1:${port}` }).listProcessing(),
        'network',
        /refused \(ECONNREFUSED\)/,
      );
    });

    it('network: connection reset, and a body that stops halfway', async () => {
      mock.inject({ destroy: true, times: 1 });
      await rejectsWith(client().listConnections(), 'network', /connection|reset|broke/i);
      mock.inject({ truncate: true, times: 1 });
      await rejectsWith(client().listConnections(), 'network', /broke while loading connections/);
    });

    it('timeout: an answer that never comes', async () => {
      mock.inject({ hang: true, times: 1 });
      await rejectsWith(
        client({ timeoutMs: 200 }).listProcessing(),
        'timeout',
        /did not answer processing flow syncs within 0 s|within/,
      );
    });

    it('cancelled: the caller aborts', async () => {
      mock.inject({ hang: true, times: 1 });
      const controller = new AbortController();
      const pending = client().listProcessing({ signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await rejectsWith(pending, 'cancelled', /cancelled/);
      await rejectsWith(client().listProcessing({ signal: AbortSignal.abort() }), 'cancelled', /cancelled/);
    });

    it('invalid response: HTML with status 200, truncated JSON, an object instead of an array', async () => {
      mock.inject({ status: 200, body: '<!doctype html><title>Login</title>', contentType: 'text/html', times: 1 });
      await rejectsWith(client().listProcessing(), 'invalidResponse', /an HTML page instead of JSON/);
      mock.inject({ status: 200, body: '[{"id":1,', times: 1 });
      await rejectsWith(client().listProcessing(), 'invalidResponse', /malformed JSON/);
      mock.inject({ status: 200, body: '{"data":[]}', times: 1 });
      await rejectsWith(client().listProcessing(), 'invalidResponse', /an object where a list was expected/);
    });

    it('invalid response: a body over the size cap', async () => {
      mock.inject({ hugeBytes: 3 * 1024 * 1024, times: 1 });
      await rejectsWith(
        client({ maxBytes: 1024 * 1024 }).listConnections(),
        'invalidResponse',
        /larger than the 1 MB limit/,
      );
    });

    it('invalid response: a redirect is never followed, so the key stays with the origin', async () => {
      const other = await MockFlowSyncServer.start({ apiKey: KEY });
      try {
        mock.inject({ redirectTo: `${other.url}/api/public/v1/connections/index`, times: 1 });
        await rejectsWith(client().listConnections(), 'invalidResponse', /redirected.*HTTP 302.*not followed/);
        assert.equal(other.requests.length, 0, 'the other origin never saw a request');
      } finally {
        await other.close();
      }
    });

    it('some invalid items: dropped and counted, the rest kept', async () => {
      const good = (await client().listConnections()).items.slice(0, 2).map((i) => i.raw);
      mock.inject({ status: 200, body: JSON.stringify([good[0], { id: 'nope' }, good[1], 5]), times: 1 });
      const result = await client().listConnections();
      assert.equal(result.items.length, 2);
      assert.equal(result.dropped, 2);
      assert.equal(result.firstDropReason, 'item 1: id is not an integer');
    });

    it('an empty array is an empty list, not an error', async () => {
      mock.inject({ status: 200, body: '[]', times: 1 });
      const result = await client().listProcessing();
      assert.deepEqual(result.items, []);
    });

    it('invalid URL and missing key are refused before any request', () => {
      assert.throws(
        () => client({ baseUrl: 'http://flow.example.com' }),
        (e: unknown) => e instanceof ApiError && e.kind === 'invalidUrl',
      );
      assert.throws(
        () => client({ baseUrl: 'https://u:p@flow.example.com' }),
        (e: unknown) => e instanceof ApiError && e.kind === 'invalidUrl',
      );
      assert.throws(
        () => client({ apiKey: '' }),
        (e: unknown) => e instanceof ApiError && e.kind === 'unauthorized',
      );
      assert.equal(mock.requests.length, 0);
    });
  });
});

describe('FlowSyncClient: ETag and Last-Modified (issue #38)', () => {
  let mock: MockFlowSyncServer;
  let records: RequestRecord[];
  const T = Date.UTC(2026, 10, 27, 9, 0, 0);
  const client = (options: Partial<FlowSyncClientOptions> = {}) =>
    new FlowSyncClient({ baseUrl: mock.url, apiKey: KEY, onRequest: (r) => records.push(r), ...options });
  const conditions = () =>
    mock.requests.map((r) => [r.headers['if-none-match'] ?? '-', r.headers['if-modified-since'] ?? '-']);

  before(async () => {
    mock = await MockFlowSyncServer.start({ apiKey: KEY, now: () => T, etag: true });
  });
  after(() => mock.close());
  beforeEach(() => {
    mock.clearFaults();
    mock.clearRequests();
    mock.resetSyncs();
    records = [];
  });

  it('the next request carries If-None-Match and If-Modified-Since; a 304 is the same answer, no body read, the rows kept', async () => {
    const c = client();
    const first = await c.listProcessing();
    assert.equal(mock.requests[0].status, 200);
    const second = await c.listProcessing();
    const sent = conditions();
    assert.deepEqual(sent[0], ['-', '-'], 'the first request has nothing to compare with');
    assert.match(sent[1][0], /^"[^"]+"$/, 'If-None-Match: the ETag the service sent');
    assert.equal(sent[1][1], new Date(T).toUTCString(), 'If-Modified-Since: the Last-Modified the service sent');
    assert.equal(mock.requests[1].status, 304);
    assert.equal(second.fingerprint, first.fingerprint);
    assert.deepEqual(
      second.items.map((i) => i.value.id),
      first.items.map((i) => i.value.id),
    );
    assert.equal(second.notModified, true, 'told apart from a full answer');
    assert.equal(records[1].status, 304);
    assert.equal(records[1].bytes, 0, 'no body');
    mock.startSync(mock.dataset.flows[0].id, { count: 2 });
    const third = await c.listProcessing();
    assert.equal(mock.requests[2].status, 200);
    assert.equal(third.items.length, first.items.length + 2);
    assert.ok(!third.notModified);
  });

  it('a validator is per list, per team filter and per key: another team filter or a new key does not reuse it', async () => {
    const c = client();
    await c.listProcessing();
    const team = String(mock.dataset.flows[0].team_id);
    await c.listProcessing({ teamId: team });
    await c.listConnections();
    await c.listProcessing(); // the team filter changed back: the first ETag is not reused
    await client().listProcessing(); // a new key (a new client): nothing reused
    assert.deepEqual(
      conditions().map(([etag]) => etag !== '-'),
      [false, false, false, false, false],
    );
    const again = client();
    await again.listProcessing();
    await again.listProcessing();
    assert.deepEqual(
      conditions()
        .slice(5)
        .map(([etag]) => etag !== '-'),
      [false, true],
    );
  });

  it("keeps only the answer its list holds (keepOnly): another is dropped, the held one is kept with the list's items", async () => {
    const c = client();
    const first = await c.listProcessing();
    assert.equal(c.keptItems, first.items.length);
    const held = first.items.map((i) => ({ ...i })); // the list's own copy: the same answer, other objects
    c.keepOnly('/flowsyncs/processing', { fingerprint: first.fingerprint, items: held });
    const again = await c.listProcessing();
    assert.equal(mock.requests[1].status, 304);
    assert.equal(again.items, held, "a 304 gives the list's own items back: the client keeps no second copy");
    c.keepOnly('/connections/index', {}); // another list: nothing of this one is dropped
    assert.equal(c.keptItems, first.items.length);
    c.keepOnly('/flowsyncs/processing', { fingerprint: 'another answer', items: [] }); // e.g. the budget refused it
    assert.equal(c.keptItems, 0);
    await c.listProcessing();
    assert.equal(mock.requests[2].headers['if-none-match'], undefined, 'asked whole: nothing was kept');
    assert.equal(mock.requests[2].status, 200);
  });

  it('where the service sends neither, nothing changes; a validator out of bounds is not sent back', async () => {
    const bad: Array<Record<string, string>> = [
      { etag: 'x'.repeat(300) }, // too long
      { etag: '"caf\u00e9"' }, // not ASCII
      { etag: '"a b"' }, // a space
      { etag: 'no-quotes' },
      { etag: '"quote"inside"' },
      { 'last-modified': 'yesterday' },
      { 'last-modified': 'Fri, 27 Nov 2026 09:00:00 GMT; x=1' },
    ];
    for (const headers of bad) {
      mock.clearRequests();
      const plain = await MockFlowSyncServer.start({ apiKey: KEY, now: () => T });
      try {
        plain.inject({ headers, times: 1 });
        const c = new FlowSyncClient({ baseUrl: plain.url, apiKey: KEY });
        await c.listProcessing();
        await c.listProcessing();
        assert.deepEqual(
          plain.requests.map((r) => [r.headers['if-none-match'], r.headers['if-modified-since']]),
          [
            [undefined, undefined],
            [undefined, undefined],
          ],
          JSON.stringify(headers),
        );
        assert.deepEqual(
          plain.requests.map((r) => r.status),
          [200, 200],
        );
      } finally {
        await plain.close();
      }
    }
  });

  it('a 304 the client did not ask for is not taken as an answer', async () => {
    mock.inject({ status: 304, times: 1, body: '' });
    await rejectsWith(client().listProcessing(), 'invalidResponse', /HTTP 304/);
  });
});

describe('FlowSyncClient: a service whose certificate this machine does not trust (issue #39)', () => {
  const fixtures = path.join(__dirname, '../../../../test/fixtures/tls');
  let mock: MockFlowSyncServer;

  before(async () => {
    mock = await MockFlowSyncServer.start({
      apiKey: KEY,
      tls: {
        cert: fs.readFileSync(path.join(fixtures, 'untrusted-server.pem'), 'utf8'),
        key: fs.readFileSync(path.join(fixtures, 'untrusted-server-key.pem'), 'utf8'),
      },
    });
  });
  after(() => mock.close());

  it('fails with a certificate error that names the host and the reason, and sends nothing', async () => {
    assert.match(mock.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const client = new FlowSyncClient({ baseUrl: mock.url, apiKey: KEY, userAgent: 'flowsync-explorer/0.1.0 (test)' });
    const error = await rejectsWith(
      client.listProcessing(),
      'certificate',
      new RegExp(`certificate of 127\\.0\\.0\\.1:${mock.port} is not trusted.*SELF_SIGNED_CERT_IN_CHAIN`),
    );
    assert.equal(
      retryDelay(error.kind, undefined, 1, () => 0.5),
      5_000,
      'tried again with the backoff of a network error, never a tight loop (issue #49: a captive portal goes away)',
    );
    assert.equal(mock.requests.length, 0, 'no request (and no key) went over the untrusted connection');
    assert.equal(mock.connectionsOpened, 1, 'one attempt');
  });
});

describe('API key check', () => {
  it('refuses characters that cannot travel in an HTTP header, with a message, before any request', () => {
    for (const bad of ['abc€def', 'ab\u0000c', 'ab\ncd', 'ab cd', 'ключ', '\uD800']) {
      assert.throws(
        () => new FlowSyncClient({ baseUrl: 'https://flow.example.com', apiKey: bad }),
        (e: unknown) => e instanceof ApiError && e.kind === 'unauthorized' && !e.message.includes(bad),
      );
    }
  });
});
