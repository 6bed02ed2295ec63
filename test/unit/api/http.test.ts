/**
 * A compromised service, or a proxy or login page in between, answers with whatever it likes. Each case here was a
 * defect: the answer became markup, broke the view, wedged the pipeline, or cost unbounded work.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FlowSyncClient, MAX_ITEMS, MAX_COMMAS, MAX_CONTAINERS, DEFAULT_MAX_BYTES } from '../../../src/api/client';
import { BLOCK_SIZES } from '../../../src/api/answerBytes';
import { MAX_RETRY_AFTER_MS } from '../../../src/api/errorAnswers';
import { ApiError } from '../../../src/api/errors';
import { formatBytes, formatDelay, getJson, type GetJsonOptions } from '../../../src/api/http';
import { nodePlatform } from '../../../src/env/node/platform';
import type { HttpAnswer } from '../../../src/env/types';
import { assertInert } from '../helpers/inertText';
import { rawSync } from '../helpers/items';

const KEY = 'fs_test_SENTINEL_KEY_7f3a9c';

/** A loopback server answering every request with what the test says. */
async function serve(answer: (res: http.ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    assert.ok(!e.message.includes(KEY));
    return e;
  }
  assert.fail('expected an ApiError');
}

describe('a hostile service', () => {
  it('error body, reason phrase and Content-Type never become a link, icon or markup in the message', async () => {
    const link = '[Set API Key](command:flowsync.clearApiKey)';
    const cases: Array<(res: http.ServerResponse) => void> = [
      (res) =>
        res
          .writeHead(500, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ errors: [{ message: `E_X: ${link} $(key) <b>x</b>` }] })),
      (res) => res.writeHead(500, `Bad ${link}`).end(),
      (res) => res.writeHead(200, { 'Content-Type': `text/${link}` }).end('[]'),
      (res) =>
        res
          .writeHead(401, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ errors: [{ message: `E_UNAUTHORIZED_ACCESS: ${link}` }] })),
    ];
    for (const answer of cases) {
      const server = await serve(answer);
      try {
        const e = await failure(new FlowSyncClient({ baseUrl: server.url, apiKey: KEY }).listProcessing());
        assertInert(e.message);
        assertInert(e.description ?? '');
      } finally {
        await server.close();
      }
    }
  });

  it('a byte-order mark before the JSON is accepted', async () => {
    const server = await serve((res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(`\uFEFF${JSON.stringify([rawSync(1)])}`),
    );
    try {
      const result = await new FlowSyncClient({ baseUrl: server.url, apiKey: KEY }).listProcessing();
      assert.equal(result.items.length, 1);
    } finally {
      await server.close();
    }
  });

  it('refuses more items than the cap before any per-item work, with a clear message', async () => {
    const body = `[${'0,'.repeat(MAX_ITEMS)}0]`;
    const server = await serve((res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body));
    try {
      const e = await failure(new FlowSyncClient({ baseUrl: server.url, apiKey: KEY }).listProcessing());
      assert.equal(e.kind, 'invalidResponse');
      assert.match(e.message, new RegExp(`more than ${MAX_ITEMS.toLocaleString('en-US').replace(/,/g, ',?')} items`));
    } finally {
      await server.close();
    }
  });

  it('refuses an answer with more objects and arrays than the cap while it streams, before parsing it', async () => {
    const body = `[${'{},'.repeat(MAX_CONTAINERS)}{}]`;
    assert.ok(body.length < DEFAULT_MAX_BYTES, 'under the byte cap: the byte cap alone would let it through');
    const server = await serve((res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body));
    try {
      const e = await failure(new FlowSyncClient({ baseUrl: server.url, apiKey: KEY }).listProcessing());
      assert.equal(e.kind, 'invalidResponse');
      assert.match(e.message, /too many nested objects or arrays/);
    } finally {
      await server.close();
    }
  });

  it('refuses an answer with more values than the cap while it streams (8 M numbers took 230 MB once parsed)', async () => {
    const body = `[{"n":[${'0,'.repeat(MAX_COMMAS + 1)}0]}]`;
    assert.ok(body.length < DEFAULT_MAX_BYTES);
    const server = await serve((res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body));
    try {
      const e = await failure(new FlowSyncClient({ baseUrl: server.url, apiKey: KEY }).listProcessing());
      assert.match(e.message, /too many values \(more than 2,000,000\)/);
    } finally {
      await server.close();
    }
  });

  it('Retry-After: the message states the delay actually used, never an absurd one', async () => {
    const server = await serve((res) => res.writeHead(429, { 'Retry-After': '999999999' }).end());
    try {
      const e = await failure(new FlowSyncClient({ baseUrl: server.url, apiKey: KEY }).listProcessing());
      assert.equal(e.kind, 'rateLimited');
      assert.equal(e.retryAfterMs, MAX_RETRY_AFTER_MS);
      assert.match(e.message, /retrying in 60 min/);
      assert.doesNotMatch(e.message, /16666666/);
    } finally {
      await server.close();
    }
  });
});

describe('getJson over a stand-in platform', () => {
  /** An answer whose body arrives in `chunks`; records what the client asked for and whether it cancelled. */
  function standIn(status: number, headers: Record<string, string>, chunks: string[]) {
    const seen = { url: '', headers: {} as Record<string, string>, cancelled: false, chunksRead: 0 };
    const answer: HttpAnswer = {
      status,
      statusText: '',
      header: (name) => headers[name.toLowerCase()] ?? null,
      body: (async function* () {
        for (const chunk of chunks) {
          seen.chunksRead++;
          yield Buffer.from(chunk);
        }
      })(),
      cancel: () => {
        seen.cancelled = true;
      },
    };
    const platform = {
      ...nodePlatform,
      httpGet: async (url: string, init: { headers: Record<string, string> }) => {
        seen.url = url;
        seen.headers = init.headers;
        return answer;
      },
    };
    return { seen, platform };
  }
  const options = (
    extra: Partial<Omit<GetJsonOptions, 'conditional'>>,
  ): GetJsonOptions & { conditional?: undefined } => ({
    apiKey: KEY,
    userAgent: 'flowsync-explorer/test',
    timeoutMs: 5_000,
    maxBytes: 1024,
    maxContainers: 100,
    maxCommas: 100,
    now: () => 0,
    ...extra,
  });

  it('sends the key, Accept and User-Agent, and hashes the body however it is chunked', async () => {
    const json = { 'content-type': 'application/json' };
    const whole = standIn(200, json, ['[{"id":1},{"id":2}]']);
    const pieces = standIn(200, json, ['[{"id"', ':1},{"i', 'd":2}]']);
    const a = await getJson('https://x.example/list', 'things', options({ platform: whole.platform }));
    const b = await getJson('https://x.example/list', 'things', options({ platform: pieces.platform }));
    assert.deepEqual(whole.seen.headers, {
      Authorization: `Bearer ${KEY}`,
      Accept: 'application/json',
      'User-Agent': 'flowsync-explorer/test',
    });
    assert.equal(whole.seen.url, 'https://x.example/list');
    assert.deepEqual(a.body, [{ id: 1 }, { id: 2 }]);
    assert.deepEqual(b.body, a.body);
    assert.equal(a.bytes, 19);
    assert.equal(b.fingerprint, a.fingerprint);
    const other = standIn(200, json, ['[{"id":3}]']);
    assert.notEqual(
      (await getJson('https://x.example/list', 'things', options({ platform: other.platform }))).fingerprint,
      a.fingerprint,
    );
  });

  it('an answer with the bytes of the previous one is compared, not hashed; any other is counted and hashed in full', async () => {
    const json = { 'content-type': 'application/json' };
    let hashed = 0;
    const counting = <P extends { createHasher: typeof nodePlatform.createHasher }>(platform: P): P => ({
      ...platform,
      createHasher: () => {
        const hash = nodePlatform.createHasher();
        return {
          update: (chunk: Uint8Array) => ((hashed += chunk.length), hash.update(chunk)),
          digest: () => hash.digest(),
        };
      },
    });
    const body = '[{"id":1},{"id":2}]';
    const a = await getJson(
      'https://x.example/list',
      'things',
      options({ platform: counting(standIn(200, json, [body]).platform) }),
    );
    assert.equal(hashed, 19);
    hashed = 0;
    const same = await getJson(
      'https://x.example/list',
      'things',
      options({ platform: counting(standIn(200, json, ['[{"id"', ':1},{"i', 'd":2}]']).platform), previous: a.answer }),
    );
    assert.equal(hashed, 0, 'an identical answer is not hashed');
    assert.equal(same.fingerprint, a.fingerprint);
    assert.deepEqual(same.body, a.body);
    assert.deepEqual([same.answer.containers, same.answer.commas], [a.answer.containers, a.answer.commas]);
    for (const other of [['[{"id":1},{"id":3}]'], ['[{"id":1},', '{"id":2},{"id":3}]'], ['[{"id":1}]']]) {
      const fresh = await getJson(
        'https://x.example/list',
        'things',
        options({ platform: standIn(200, json, other).platform }),
      );
      hashed = 0;
      const after = await getJson(
        'https://x.example/list',
        'things',
        options({ platform: counting(standIn(200, json, other).platform), previous: a.answer }),
      );
      assert.equal(hashed, other.join('').length, `hashed in full: ${other.join('')}`);
      assert.equal(after.fingerprint, fresh.fingerprint);
      assert.notEqual(after.fingerprint, a.fingerprint);
      assert.deepEqual([after.answer.containers, after.answer.commas], [fresh.answer.containers, fresh.answer.commas]);
    }
    // The caps still hold for an answer that begins like an accepted one.
    const previous = (
      await getJson(
        'https://x.example/list',
        'things',
        options({ platform: standIn(200, json, ['[0,0,', '0]']).platform }),
      )
    ).answer;
    const e = await failure(
      getJson(
        'https://x.example/list',
        'things',
        options({ platform: standIn(200, json, ['[0,0,', '0,0,0]']).platform, previous, maxCommas: 3 }),
      ),
    );
    assert.match(e.message, /too many values \(more than 3\)/);
  });

  it('refuses a declared Content-Length over the cap without reading the body, and cancels it', async () => {
    const { seen, platform } = standIn(200, { 'content-type': 'application/json', 'content-length': '2048' }, ['[]']);
    const e = await failure(getJson('https://x.example/list', 'things', options({ platform })));
    assert.equal(e.kind, 'invalidResponse');
    assert.match(e.message, /The answer for things is larger than the 1 KB limit/);
    assert.equal(seen.chunksRead, 0, 'not one chunk read');
    assert.equal(seen.cancelled, true);
  });

  it('stops reading at the first chunk past the byte cap when no length is declared', async () => {
    const { seen, platform } = standIn(200, { 'content-type': 'application/json' }, [
      '[' + '0,'.repeat(300),
      '0,'.repeat(300),
      '0,'.repeat(300),
      '0]',
    ]);
    const e = await failure(getJson('https://x.example/list', 'things', options({ platform, maxCommas: 10_000 })));
    assert.match(e.message, /larger than the 1 KB limit/);
    assert.equal(seen.chunksRead, 2);
    assert.equal(seen.cancelled, true);
  });

  it('a redirect is cancelled and refused, never followed', async () => {
    const { seen, platform } = standIn(302, { location: 'https://elsewhere.example/' }, ['moved']);
    const e = await failure(getJson('https://x.example/list', 'things', options({ platform })));
    assert.equal(e.kind, 'invalidResponse');
    assert.equal(e.status, 302);
    assert.match(e.message, /redirected the request for things \(HTTP 302\)/);
    assert.equal(seen.cancelled, true);
    assert.equal(seen.chunksRead, 0);
  });

  it('an already aborted signal fails before any request', async () => {
    const { seen, platform } = standIn(200, {}, ['[]']);
    const e = await failure(
      getJson('https://x.example/list', 'things', options({ platform, signal: AbortSignal.abort() })),
    );
    assert.equal(e.kind, 'cancelled');
    assert.equal(seen.url, '', 'no request made');
  });

  it('with a previous answer, any answer gives what reading it without one gives: the same counts, fingerprint, body or refusal (property)', async function () {
    // The work is what the property needs, no more: what reading with a previous answer does differently is compare
    // the bytes in COMPARE_STEP (64 KB) steps and hash them in blocks of BLOCK_SIZES (64-256 KB) around the edit, so
    // the answer must span several steps and blocks of each size (edits before, inside and after them), which
    // 10,000 items (about 490 KB: 8 steps, 2 to 7 blocks) do as 30,000 (1.4 MB) did. The chunk sizes still run from
    // far below a block to the whole answer in one. 25 answers read twice: a third of the former work (7.5 - 10.7 s
    // alone at load 7-12, 11.7 s at load 24, which met the suite's 10 s and was then given 60 s of its own).
    const json = { 'content-type': 'application/json' };
    const inPieces = (text: string, size: number) => text.match(new RegExp(`[^]{1,${size}}`, 'g')) ?? [];
    const base = JSON.stringify(
      Array.from({ length: 10_000 }, (_v, i) => ({ id: i, name: `c${i}`, meta: { tags: [i] } })),
    );
    assert.ok(base.length > 6 * 64 * 1024, `${base.length} bytes: several compare steps and blocks`);
    const big = (extra: Partial<GetJsonOptions>) =>
      options({ maxBytes: 4 << 20, maxContainers: 200_000, maxCommas: 200_000, ...extra });
    const first = await getJson(
      'https://x.example/list',
      'things',
      big({ platform: standIn(200, json, [base]).platform }),
    );
    // caps just above the first answer's counts, so that some edits go over them
    const caps = { maxContainers: first.answer.containers + 2, maxCommas: first.answer.commas + 2 };
    const outcome = async (text: string, chunkSize: number, previous?: typeof first.answer) => {
      try {
        const r = await getJson(
          'https://x.example/list',
          'things',
          big({ ...caps, platform: standIn(200, json, inPieces(text, chunkSize)).platform, previous }),
        );
        return {
          body: r.body,
          bytes: r.bytes,
          fingerprint: r.fingerprint,
          counts: [r.answer.containers, r.answer.commas],
        };
      } catch (e) {
        return { refused: (e as Error).message };
      }
    };
    const edit = fc.tuple(
      fc.nat(base.length),
      fc.nat(30),
      fc.string({ unit: fc.constantFrom(...'{}[],"a1: '.split('')), maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(edit, { maxLength: 3 }),
        fc.integer({ min: 1_000, max: 300_000 }),
        async (edits, chunkSize) => {
          let text = base;
          for (const [at, cut, put] of edits) text = text.slice(0, at) + put + text.slice(at + cut);
          assert.deepEqual(await outcome(text, chunkSize, first.answer), await outcome(text, chunkSize));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('an answer that differs from the previous one in one name is counted and hashed around the name only, with the full results', async () => {
    const json = { 'content-type': 'application/json' };
    const list = (name: string) =>
      JSON.stringify(
        Array.from({ length: 30_000 }, (_v, i) => ({
          id: i,
          name: i === 15_000 ? name : `c${i}`,
          meta: { tags: [i] },
        })),
      );
    const big = (extra: Partial<GetJsonOptions>) =>
      options({ maxBytes: 4 << 20, maxContainers: 200_000, maxCommas: 200_000, ...extra });
    const inPieces = (text: string) => text.match(/[^]{1,60000}/g)!;
    let hashed = 0;
    const counting = (platform: typeof nodePlatform): typeof nodePlatform => ({
      ...platform,
      createHasher: () => {
        const hash = nodePlatform.createHasher();
        return {
          update: (chunk: Uint8Array) => ((hashed += chunk.length), hash.update(chunk)),
          digest: () => hash.digest(),
        };
      },
    });
    const first = await getJson(
      'https://x.example/list',
      'things',
      big({ platform: standIn(200, json, inPieces(list('c15000'))).platform }),
    );
    const renamed = list('renamed');
    const fresh = await getJson(
      'https://x.example/list',
      'things',
      big({ platform: standIn(200, json, [renamed]).platform }),
    );
    hashed = 0;
    const after = await getJson(
      'https://x.example/list',
      'things',
      big({ platform: counting(standIn(200, json, inPieces(renamed)).platform), previous: first.answer }),
    );
    assert.ok(
      hashed <= 2 * BLOCK_SIZES.max + 64 * after.answer.digests.length && hashed < renamed.length / 2,
      `hashed ${hashed} of ${renamed.length} bytes`,
    );
    assert.equal(after.fingerprint, fresh.fingerprint);
    assert.notEqual(after.fingerprint, first.fingerprint);
    assert.deepEqual([after.answer.containers, after.answer.commas], [fresh.answer.containers, fresh.answer.commas]);
    assert.deepEqual(after.body, fresh.body);
    const e = await failure(
      getJson(
        'https://x.example/list',
        'things',
        big({
          platform: standIn(200, json, [renamed]).platform,
          previous: first.answer,
          maxContainers: fresh.answer.containers - 1,
        }),
      ),
    );
    assert.match(e.message, /too many nested objects or arrays/);
  });
});

describe('formatBytes and formatDelay', () => {
  it('formats sizes in bytes, KB and MB', () => {
    assert.equal(formatBytes(0), '0 bytes');
    assert.equal(formatBytes(1023), '1023 bytes');
    assert.equal(formatBytes(1024), '1 KB');
    assert.equal(formatBytes(1536), '2 KB');
    assert.equal(formatBytes(16 * 1024 * 1024), '16 MB');
  });

  it('formats delays in seconds, then minutes and seconds', () => {
    assert.equal(formatDelay(0), '0 s');
    assert.equal(formatDelay(7_000), '7 s');
    assert.equal(formatDelay(59_400), '59 s');
    assert.equal(formatDelay(59_600), '1 min');
    assert.equal(formatDelay(90_000), '1 min 30 s');
    assert.equal(formatDelay(60 * 60_000), '60 min');
  });
});
