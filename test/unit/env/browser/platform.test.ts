/**
 * The browser platform (the web worker extension host's HTTP: global fetch, a streamed reader, FNV-1a) under the
 * same client rules as Node: no redirect followed, timeout, cancellation, the byte and item caps while the body
 * streams. Node's own global fetch stands in for the browser's here (same WHATWG API, a web ReadableStream body);
 * test/rig/run-web.mjs runs the bundle in a real browser's worker.
 */
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../../src/api/errors';
import { getJson, type GetJsonOptions } from '../../../../src/api/http';
import { browserPlatform } from '../../../../src/env/browser/platform';
import { DEMO_API_KEY, MockFlowSyncServer } from '../../../../src/mock/server';

const PROCESSING = '/api/public/v1/flowsyncs/processing';
/**
 * The mock's clock, frozen: its processing list follows its clock, so two requests on the wall clock could straddle a
 * sync finishing and get two different answers (the clean-clone CI run did: 4238691228e3183e !== b07576d172621783).
 */
const MOCK_NOW = Date.UTC(2026, 10, 27, 12, 0, 0);

const options = (
  extra: Partial<Omit<GetJsonOptions, 'conditional'>> = {},
): GetJsonOptions & { conditional?: undefined } => ({
  apiKey: DEMO_API_KEY,
  userAgent: 'flowsync-explorer/test',
  timeoutMs: 5_000,
  maxBytes: 1024 * 1024,
  maxContainers: 100_000,
  maxCommas: 100_000,
  now: Date.now,
  platform: browserPlatform,
  ...extra,
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e;
  }
  assert.fail('expected an ApiError');
}

describe('browser platform (global fetch)', function () {
  this.timeout(10_000);
  let mock: MockFlowSyncServer;
  before(async () => {
    mock = await MockFlowSyncServer.start({ port: 0, now: () => MOCK_NOW });
  });
  after(() => mock.close());
  beforeEach(() => {
    mock.clearFaults();
    mock.clearRequests();
  });

  it('loads an answer, with the key, and fingerprints it the same way each time', async () => {
    const first = await getJson(mock.url + PROCESSING, 'processing flow syncs', options());
    const second = await getJson(mock.url + PROCESSING, 'processing flow syncs', options());
    assert.equal(first.status, 200);
    assert.ok(Array.isArray(first.body) && first.body.length > 0);
    assert.match(first.fingerprint, /^[0-9a-f]{16}$/);
    assert.equal(second.fingerprint, first.fingerprint);
    assert.equal(mock.requests[0].headers.authorization, `Bearer ${DEMO_API_KEY}`);
  });

  it('a conditional request: fetch hands back the 304 when If-None-Match is set by hand, and getJson takes it as the same answer (issue #38)', async () => {
    const tagged = await MockFlowSyncServer.start({ port: 0, etag: true, now: () => MOCK_NOW });
    try {
      const first = await getJson(tagged.url + PROCESSING, 'processing flow syncs', options());
      assert.equal(first.status, 200);
      const validators = first.validators;
      assert.ok(validators?.etag, 'the ETag read through fetch');
      const raw = await browserPlatform.httpGet(tagged.url + PROCESSING, {
        headers: { Authorization: `Bearer ${DEMO_API_KEY}`, 'If-None-Match': validators.etag },
        signal: new AbortController().signal,
      });
      assert.equal(raw.status, 304);
      raw.cancel();
      const second = await getJson(tagged.url + PROCESSING, 'processing flow syncs', {
        ...options(),
        conditional: validators,
      });
      assert.equal(second.status, 304);
      assert.equal(second.notModified, true);
      assert.equal(tagged.requests[2].headers['if-none-match'], validators.etag);
    } finally {
      await tagged.close();
    }
  });

  it('never follows a redirect: the key does not reach the target', async () => {
    mock.inject({ redirectTo: `${mock.url}/elsewhere`, times: 1 });
    const e = await failure(getJson(mock.url + PROCESSING, 'processing flow syncs', options()));
    assert.equal(e.kind, 'invalidResponse');
    assert.match(e.message, /redirected/);
    assert.deepEqual(
      mock.requests.map((r) => r.path),
      [PROCESSING],
    );
  });

  it('reports an opaque redirect (what a browser gives for redirect: manual) as a 3xx', async () => {
    const original = globalThis.fetch;
    let cancelled = false;
    globalThis.fetch = (async () => ({
      type: 'opaqueredirect',
      status: 0,
      statusText: '',
      headers: new Headers(),
      body: { getReader: () => ({ cancel: async () => void (cancelled = true) }) },
    })) as unknown as typeof fetch;
    try {
      const e = await failure(getJson('https://flowsync.example.com/x', 'processing flow syncs', options()));
      assert.equal(e.kind, 'invalidResponse');
      assert.equal(e.status, 302);
      assert.equal(cancelled, false, 'an opaque answer has no body to read');
    } finally {
      globalThis.fetch = original;
    }
  });

  it('times out a service that never answers', async () => {
    mock.inject({ hang: true, times: 1 });
    const e = await failure(getJson(mock.url + PROCESSING, 'processing flow syncs', options({ timeoutMs: 300 })));
    assert.equal(e.kind, 'timeout');
  });

  it('is cancelled by its signal while waiting', async () => {
    mock.inject({ hang: true, times: 1 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const e = await failure(
      getJson(mock.url + PROCESSING, 'processing flow syncs', options({ signal: controller.signal })),
    );
    assert.equal(e.kind, 'cancelled');
  });

  it('stops reading a streamed answer past the byte cap (no Content-Length)', async () => {
    mock.inject({ hugeBytes: 50 * 1024 * 1024, times: 1 });
    // The bytes the client took from the body, counted (was a wall-clock bound, < 5 s, that a loaded machine can
    // break): the 50 MB must not be read to the end, only the cap and the chunk that crossed it.
    let read = 0;
    const counting: typeof browserPlatform = {
      ...browserPlatform,
      httpGet: async (url, init) => {
        const answer = await browserPlatform.httpGet(url, init);
        const body = answer.body;
        return {
          ...answer,
          header: (name: string) => answer.header(name),
          cancel: () => answer.cancel(),
          body: body && {
            async *[Symbol.asyncIterator]() {
              for await (const chunk of body) {
                read += chunk.length;
                yield chunk;
              }
            },
          },
        };
      },
    };
    const e = await failure(
      getJson(mock.url + PROCESSING, 'processing flow syncs', options({ maxBytes: 256 * 1024, platform: counting })),
    );
    assert.equal(e.kind, 'invalidResponse');
    assert.match(e.message, /larger than the 256 KB limit/);
    assert.ok(read > 256 * 1024 && read <= 4 * 1024 * 1024, `${read} bytes read: not read to the end`);
  });

  it('refuses too many objects or values while the answer streams', async () => {
    mock.inject({ hugeBytes: 2 * 1024 * 1024, times: 2 });
    const nested = await failure(
      getJson(
        mock.url + PROCESSING,
        'processing flow syncs',
        options({ maxBytes: 4 * 1024 * 1024, maxContainers: 1000 }),
      ),
    );
    assert.match(nested.message, /too many nested objects or arrays/);
    const values = await failure(
      getJson(mock.url + PROCESSING, 'processing flow syncs', options({ maxBytes: 4 * 1024 * 1024, maxCommas: 1000 })),
    );
    assert.match(values.message, /too many values/);
  });

  it('a body cut off halfway is a broken connection', async () => {
    mock.inject({ truncate: true, times: 1 });
    const e = await failure(getJson(mock.url + PROCESSING, 'processing flow syncs', options()));
    assert.equal(e.kind, 'network');
  });

  it('hashes with 64-bit FNV-1a, however the bytes are chunked', () => {
    const digest = (...chunks: string[]) => {
      const hash = browserPlatform.createHasher();
      for (const chunk of chunks) hash.update(new TextEncoder().encode(chunk));
      return hash.digest();
    };
    assert.equal(digest(), 'cbf29ce484222325');
    assert.equal(digest('a'), 'af63dc4c8601ec8c');
    assert.equal(digest('foobar'), '85944171f73967e8');
    assert.equal(digest('foo', 'bar'), digest('foobar'));
  });

  it('decodes UTF-8 split across chunks', () => {
    const bytes = new TextEncoder().encode('Zürich → 東京');
    const chunks = [bytes.subarray(0, 2), bytes.subarray(2, 11), bytes.subarray(11)];
    assert.equal(browserPlatform.decodeUtf8(chunks, bytes.length), 'Zürich → 東京');
  });
});
