/**
 * A compromised service, or a proxy or login page in between, answers with whatever it likes. Each case here was a
 * defect: the answer became markup, broke the view, wedged the pipeline, or cost unbounded work.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FlowSyncClient, MAX_ITEMS, MAX_COMMAS, MAX_CONTAINERS, DEFAULT_MAX_BYTES } from '../../src/api/client';
import { ApiError, parseRetryAfter } from '../../src/api/errors';
import { validateConnection, validateFlowSync, validateList, MAX_ITEM_DEPTH } from '../../src/api/validate';
import { MAX_RETRY_AFTER_MS } from '../../src/api/errors';
import { inert } from '../../src/core/inert';
import { connectionIcon, flowSyncIcon } from '../../src/core/icons';

const KEY = 'fs_test_SENTINEL_KEY_7f3a9c';

/** VS Code's own pattern for links in notification text (vs/base/common/linkedText.ts). */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
/** VS Code's theme icon syntax as rendered in labels, descriptions, status bar and quick picks. */
const VSCODE_ICON = /\$\(([a-z.]+\/)?([a-z0-9-]+)(~[a-z]+)?\)/gi;

function assertInert(text: string): void {
  assert.doesNotMatch(text, VSCODE_LINK, `link in: ${text}`);
  assert.doesNotMatch(text, VSCODE_ICON, `icon in: ${text}`);
  assert.doesNotMatch(text, /[<>]/, `markup in: ${text}`);
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(text, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, `control or bidi character in: ${JSON.stringify(text)}`);
}

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

const sync = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  flow_id: 10,
  status: 'pending',
  created_at: '2026-11-22T11:58:00.000Z',
  updated_at: '2026-11-22T11:59:00.000Z',
  errors: null,
  webhook: false,
  flow: { id: 10, name: 'Invoices' },
  ...extra,
});

describe('inert: service text is data, never markup', () => {
  it('neutralises links, theme icons, HTML, control and bidi characters, and bounds the length', () => {
    const hostile = 'E_X: [Set API Key](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D "Set API Key") $(key) <img src=x onerror=alert(1)> a\u202Eb\u0007c\u0085d';
    const text = inert(hostile);
    assertInert(text);
    assert.match(text, /Set API Key/, 'the words stay readable');
    assert.equal(inert('x'.repeat(10_000)).length, 300);
    assert.equal(inert('a\n\n b\tc'), 'a b c');
  });

  it('is idempotent and leaves ordinary text alone', () => {
    for (const s of ['[a](command:x)', '$(zap)', 'Database unavailable', 'a ] ( b', '<<>>']) assert.equal(inert(inert(s)), inert(s));
    assert.equal(inert('Database unavailable (retry later).'), 'Database unavailable (retry later).');
  });
});

describe('a hostile service', () => {
  it('error body, reason phrase and Content-Type never become a link, icon or markup in the message', async () => {
    const link = '[Set API Key](command:flowsync.clearApiKey)';
    const cases: Array<(res: http.ServerResponse) => void> = [
      (res) => res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ errors: [{ message: `E_X: ${link} $(key) <b>x</b>` }] })),
      (res) => res.writeHead(500, `Bad ${link}`).end(),
      (res) => res.writeHead(200, { 'Content-Type': `text/${link}` }).end('[]'),
      (res) => res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ errors: [{ message: `E_UNAUTHORIZED_ACCESS: ${link}` }] })),
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
    const server = await serve((res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(`\uFEFF${JSON.stringify([sync(1)])}`));
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

  it('Retry-After: only delta-seconds or an HTTP-date; anything else is ignored (ordinary backoff)', () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    for (const bad of ['1.5', '-5', '5, 6', '+5', '0x10', '5s', '', ' ', 'Infinity', '1e3', '2026-11-22T12:00:10Z', '12']) {
      if (bad === '12') continue;
      assert.equal(parseRetryAfter(bad, now), undefined, `"${bad}"`);
    }
    assert.equal(parseRetryAfter('12', now), 12_000);
    assert.equal(parseRetryAfter(' 7 ', now), 7_000);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Sunday, 22-Nov-26 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Sun Nov 22 12:00:30 2026', now), 30_000);
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

describe('validation of a hostile answer', () => {
  it('drops and counts repeated ids: the first one stays', () => {
    const result = validateList([sync(1), sync(2), sync(1, { status: 'again' }), sync(2)], validateFlowSync, 'x');
    assert.deepEqual(result.items.map((i) => i.value.id), [1, 2]);
    assert.equal(result.items[0].value.status, 'pending');
    assert.equal(result.dropped, 2);
    assert.match(result.firstDropReason ?? '', /item 2: id 1 is listed more than once/);
  });

  it('drops and counts an item nested deeper than the bound (JSON.stringify of it would throw)', () => {
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const connection = { id: 5, name: 'n', type: 'pdf', team_id: 2, user_id: 9, created_at: 'c', updated_at: 'u', meta: {} };
    const result = validateList([sync(1, { extra: deep }), sync(2)], validateFlowSync, 'x');
    assert.deepEqual(result.items.map((i) => i.value.id), [2]);
    assert.equal(result.dropped, 1);
    assert.match(result.firstDropReason ?? '', new RegExp(`nested deeper than ${MAX_ITEM_DEPTH} levels`));
    const inMeta = validateList([{ ...connection, meta: { a: deep } }], validateConnection, 'x');
    assert.equal(inMeta.dropped, 1);
    let ok: unknown = 1;
    for (let i = 0; i < MAX_ITEM_DEPTH - 2; i++) ok = [ok];
    assert.equal(validateList([sync(3, { extra: ok })], validateFlowSync, 'x').dropped, 0, 'moderate nesting is fine');
  });

  it('icon lookups use own properties only: a status or type named like an Object member gets the generic icon', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      assert.equal(flowSyncIcon({ status: name, errors: null }).id, 'circle-outline', name);
      assert.equal(connectionIcon({ type: name }).id, 'plug', name);
    }
  });
});
