/**
 * Generators and a loopback server for the property tests (api/validate.properties.test.ts and
 * core/refresh.properties.test.ts): a "hostile service" that answers with whatever status, headers and body
 * fast-check draws, including framing it breaks on purpose.
 */
import fc from 'fast-check';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as zlib from 'node:zlib';
import { MockDataset } from '../../../src/mock/data';

// ------------------------------------------------------------ characters

const charRange = (min: number, max: number) => fc.integer({ min, max }).map((code) => String.fromCharCode(code));
/** Space to tilde: what node lets through in a header value or reason phrase without throwing. */
const printableChar = charRange(0x20, 0x7e);
/** `!` to `~`: an API key a person could paste. */
const visibleChar = charRange(0x21, 0x7e);
const printable = (maxLength = 40) => fc.string({ unit: printableChar, maxLength });

/** Keys long enough that a generated text never holds one by chance (the echo property puts them there on purpose). */
export const apiKeyArb = fc.string({ unit: visibleChar, minLength: 16, maxLength: 48 }).map((s) => `fs_${s}`);

// ------------------------------------------------------------ validation inputs

/** A JSON field value that is sometimes right for the field, sometimes any JSON, sometimes a nasty number. */
const nastyNumber = fc.constantFrom(2 ** 53, -(2 ** 53), 2 ** 53 - 1, -0, 0.5, 1e308, -1e-308, Number.MAX_VALUE);
const anyJson = fc.jsonValue({ maxDepth: 3 });
const mostly = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 20, arbitrary: valid as fc.Arbitrary<unknown> },
    { weight: 1, arbitrary: anyJson },
    { weight: 1, arbitrary: nastyNumber },
  );
/** Small ids so that duplicates are frequent. */
const smallId = fc.integer({ min: -2, max: 8 });
const isoDate = fc.integer({ min: 0, max: 4102444800000 }).map((ms) => new Date(ms).toISOString());
const summaryArb = fc.record({ id: mostly(fc.integer()), name: mostly(fc.string()) }, { requiredKeys: [] });
/** Unknown extra fields, including keys that are traps for naive code. */
const extraFields = fc.dictionary(
  fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'raw', 'value'),
  ),
  anyJson,
  { maxKeys: 4 },
);

/**
 * Every documented field, each usually right; now and then one field is left out, and unknown extra fields (traps
 * for naive code among them) are mixed in. Extra fields go first so that the documented ones win.
 */
function itemLike(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(
      extraFields,
      fc.record(fields),
      fc.option(fc.constantFrom(...Object.keys(fields)), { nil: undefined, freq: 3 }),
    )
    .map(([extra, known, missing]) => {
      const item: Record<string, unknown> = { ...extra, ...known };
      if (missing !== undefined) delete item[missing];
      return item;
    });
}

export const flowSyncLike = itemLike({
  id: mostly(smallId),
  flow_id: mostly(fc.integer()),
  status: mostly(fc.constantFrom('pending', 'running', '', 'done')),
  created_at: mostly(isoDate),
  updated_at: mostly(isoDate),
  errors: anyJson,
  webhook: mostly(fc.boolean()),
  flow: mostly(summaryArb),
});

export const connectionLike = itemLike({
  id: mostly(smallId),
  name: mostly(fc.string()),
  type: mostly(fc.constantFrom('pdf', 'http', '')),
  team_id: mostly(fc.integer({ min: 0, max: 5 })),
  team: mostly(summaryArb),
  user_id: mostly(fc.integer()),
  created_at: mostly(isoDate),
  updated_at: mostly(isoDate),
  meta: mostly(fc.dictionary(fc.string({ maxLength: 5 }), anyJson, { maxKeys: 3 })),
});

/**
 * An array of valid-looking items mixed with anything, where some entries are the very same object twice (a
 * service that repeats itself) and some are shallow copies (same id, different object).
 */
export const mixedList = fc
  .tuple(
    fc.array(
      fc.oneof(
        { weight: 4, arbitrary: flowSyncLike },
        { weight: 4, arbitrary: connectionLike },
        { weight: 1, arbitrary: anyJson },
      ),
      { maxLength: 25 },
    ),
    fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 6 }),
  )
  .map(([items, repeats]) => {
    const list: unknown[] = [...items];
    for (const [at, copy] of repeats) {
      if (list.length === 0) break;
      const original = list[at % list.length];
      list.push(
        copy && typeof original === 'object' && original !== null && !Array.isArray(original)
          ? { ...original }
          : original,
      );
    }
    return list;
  });

// ------------------------------------------------------------ HTTP answers

type Framing = 'length' | 'chunked' | 'truncate';

export interface HostileReply {
  status: number;
  /** Reason phrase; undefined lets node pick the standard one. */
  statusMessage?: string;
  /** Name/value pairs in order; a name may repeat. Never framing headers (those come from `framing`). */
  headers: Array<[string, string]>;
  body: Buffer;
  framing: Framing;
  /** Bytes the client may have to decode (a compressed body), so the time bound can allow for them. */
  decodedBytes: number;
  /** What the body is, for reading a counterexample. */
  note: string;
}

/** Framing is drawn separately, so these never come from the random header names. */
const FRAMING_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

const validName = (name: string) => {
  try {
    http.validateHeaderName(name);
    return !FRAMING_HEADERS.has(name.toLowerCase());
  } catch {
    return false;
  }
};
const validValue = (value: string) => {
  try {
    http.validateHeaderValue('x-check', value);
    return true;
  } catch {
    return false;
  }
};

const headerName = fc
  .oneof(
    fc.constantFrom(
      'Content-Type',
      'content-type',
      'Retry-After',
      'Content-Encoding',
      'Location',
      'Set-Cookie',
      'WWW-Authenticate',
      'ETag',
      'Date',
      'Vary',
      'X-Request-Id',
    ),
    fc.stringMatching(/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,20}$/),
  )
  .filter(validName);

const contentTypeArb = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/problem+json',
    'application/vnd.api+json; charset=latin1',
    'application/jsonx',
    'text/json',
    'text/html; charset=utf-8',
    'text/plain',
    'application/octet-stream',
    'json',
    ';',
    ' ',
    '',
  ),
  printable(),
);

const retryAfterArb = fc.oneof(
  fc.nat().map(String),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    ' 7 ',
    '1e3',
    '0x10',
    'Infinity',
    'NaN',
    '',
    '9'.repeat(400),
    'Wed, 21 Oct 2015 07:28:00 GMT',
    'Fri, 31 Dec 9999 23:59:59 GMT',
    'Sat, 01 Jan 0000 00:00:00 GMT',
    'tomorrow',
    'foo 1',
    '2026-11-22T12:00:10Z',
  ),
  fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
  printable(),
);

const contentEncodingArb = fc.constantFrom(
  'gzip',
  'x-gzip',
  'deflate',
  'br',
  'identity',
  'compress',
  'GZIP',
  'gzip, br',
);

/** Random headers: names from the list above or made up, values any printable ASCII node accepts. */
const randomHeaders = fc.array(
  fc.tuple(headerName, fc.oneof(printable(), retryAfterArb, contentTypeArb).filter(validValue)),
  { maxLength: 5 },
);

const dataset = new MockDataset({ seed: 7, connections: 40, flows: 10, processing: 12 });
const FIXED_NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const validItems: readonly string[] = [...dataset.connections, ...dataset.processingAt(FIXED_NOW)].map((item) =>
  JSON.stringify(item),
);

/** A valid-looking list (connections and flow syncs mixed, so either endpoint drops some), up to ~1.5 MB. */
export const validListBody = fc
  .tuple(
    fc.subarray([...validItems.keys()]),
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 1_500_000 }) },
    ),
  )
  .map(([picked, padTo]) => {
    const parts = picked.map((i) => validItems[i]);
    // Repeating items to reach the size: a long list full of duplicate ids.
    let size = parts.reduce((n, p) => n + p.length + 1, 2);
    for (let i = 0; size < padTo && validItems.length > 0; i++) {
      const next = validItems[i % validItems.length];
      parts.push(next);
      size += next.length + 1;
    }
    const text = `[${parts.join(',')}]`;
    const note = `valid list of ${parts.length} items`;
    return Object.defineProperty({ text, note }, fc.toStringMethod, {
      value: () => `{${note}, ${text.length} bytes: ${text.slice(0, 80)}…}`,
    });
  });

const errorBodyArb = fc
  .oneof(
    fc.constant('E_UNAUTHORIZED_ACCESS: Unauthorized access'),
    fc.string().map((s) => `E_SOMETHING: ${s}`),
    fc.string(),
  )
  .map((message) => ({ text: JSON.stringify({ errors: [{ message }] }), note: 'errors body' }));

const deepNesting = fc
  .tuple(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom('array', 'object'), fc.boolean())
  .map(([depth, kind, closed]) => {
    const [open, close] = kind === 'array' ? ['[', ']'] : ['{"a":', '}'];
    const inner = kind === 'array' ? '' : '1';
    return {
      text: open.repeat(depth) + inner + (closed ? close.repeat(depth) : ''),
      note: `${kind} nested ${depth} deep${closed ? '' : ', unclosed'}`,
    };
  });

const flatArray = fc
  .tuple(fc.integer({ min: 0, max: 300_000 }), fc.constantFrom('0', '{}', 'null', '[]', '{"id":1}'))
  .map(([n, item]) => ({ text: `[${Array(n).fill(item).join(',')}]`, note: `flat array of ${n} × ${item}` }));

const truncated = fc
  .tuple(validListBody, fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([{ text }, cut]) => ({ text: text.slice(0, Math.floor(text.length * cut)), note: 'valid list cut short' }));

const textBody = fc.oneof(
  { weight: 4, arbitrary: anyJson.map((v) => ({ text: JSON.stringify(v), note: 'any JSON value' })) },
  { weight: 3, arbitrary: validListBody },
  { weight: 1, arbitrary: errorBodyArb },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }).map((text) => ({ text, note: 'any text' })) },
  { weight: 1, arbitrary: truncated },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: flatArray },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 0, max: 1_000_000 })
      .map((n) => ({ text: `"${'x'.repeat(n)}"`, note: `string of ${n} bytes` })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('', ' ', '\uFEFF[]', '\uFEFF\uFEFF[]', '[]\u0000', 'null', '{}', '[1,]', '\n[\n]\n')
      .map((text) => ({ text, note: 'edge' })),
  },
);

/** A body as bytes: text (sometimes behind a BOM), raw bytes (often invalid UTF-8), or a compressed body. */
const bodyArb: fc.Arbitrary<{ body: Buffer; note: string; encoding?: string; decodedBytes: number }> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.tuple(textBody, fc.boolean()).map(([{ text, note }, bom]) => {
      const body = Buffer.from(bom ? `\uFEFF${text}` : text);
      return { body, note: bom ? `BOM + ${note}` : note, decodedBytes: body.length };
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 4096 })
      .map((bytes) => ({ body: Buffer.from(bytes), note: 'random bytes', decodedBytes: bytes.length })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(textBody, fc.constantFrom('gzip', 'deflate', 'br')).map(([{ text, note }, encoding]) => {
      const plain = Buffer.from(text);
      const body =
        encoding === 'gzip'
          ? zlib.gzipSync(plain)
          : encoding === 'deflate'
            ? zlib.deflateSync(plain)
            : zlib.brotliCompressSync(plain);
      return { body, note: `${encoding} of ${note}`, encoding, decodedBytes: plain.length };
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom(0, 1).map((i) => gzipBombs()[i]) },
);

type Bomb = { body: Buffer; note: string; encoding: string; decodedBytes: number };
let bombs: Bomb[] | undefined;

/** Small compressed bodies that expand to tens of megabytes: the size cap must hold on the decoded bytes. Made once, on first use. */
function gzipBombs(): Bomb[] {
  if (bombs) return bombs;
  const expanded = 40 * 1024 * 1024;
  const zeros = Buffer.alloc(expanded, '0');
  return (bombs = [
    {
      body: zlib.gzipSync(zeros, { level: 9 }),
      note: 'gzip bomb (40 MB of "0")',
      encoding: 'gzip',
      decodedBytes: expanded,
    },
    {
      body: zlib.gzipSync(Buffer.concat([Buffer.from('['), Buffer.alloc(expanded, '[')]), { level: 9 }),
      note: 'gzip bomb (40 MB of "[")',
      encoding: 'gzip',
      decodedBytes: expanded,
    },
  ]);
}

/** Status codes a server can send as a final answer: 2xx to 5xx, plus the odd ones node allows up to 999. */
const statusArb = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 200, max: 599 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      200,
      200,
      200,
      201,
      204,
      205,
      206,
      301,
      302,
      304,
      307,
      400,
      401,
      403,
      404,
      429,
      500,
      502,
      503,
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(600, 799, 999) },
);

const hostileReply: fc.Arbitrary<HostileReply> = fc
  .record({
    status: statusArb,
    statusMessage: fc.option(printable(), { nil: undefined }),
    contentType: fc.option(contentTypeArb, { nil: undefined }),
    retryAfter: fc.option(retryAfterArb, { nil: undefined, freq: 2 }),
    // A content-encoding header on a body that is not encoded that way (or on a plain body).
    wrongEncoding: fc.option(contentEncodingArb, { nil: undefined, freq: 8 }),
    headers: randomHeaders,
    body: bodyArb,
    framing: fc.constantFrom<Framing>('length', 'length', 'chunked', 'truncate'),
  })
  .map(({ status, statusMessage, contentType, retryAfter, wrongEncoding, headers, body, framing }) => {
    const all: Array<[string, string]> = [];
    if (contentType !== undefined) all.push(['Content-Type', contentType]);
    if (retryAfter !== undefined && validValue(retryAfter)) all.push(['Retry-After', retryAfter]);
    const encoding = body.encoding ?? wrongEncoding;
    if (encoding !== undefined) all.push(['Content-Encoding', encoding]);
    all.push(...headers);
    return withShortPrint({
      status,
      statusMessage,
      headers: all,
      body: body.body,
      framing,
      decodedBytes: body.decodedBytes,
      note: body.note,
    });
  });

/** An answer a working service could give: 2xx, a JSON content type, intact framing, a list or some JSON, maybe a BOM. */
const plausibleReply: fc.Arbitrary<HostileReply> = fc
  .record({
    status: fc.constantFrom(200, 200, 200, 201, 203),
    contentType: fc.option(
      fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/problem+json'),
      { nil: undefined, freq: 6 },
    ),
    headers: randomHeaders,
    body: fc.oneof({ weight: 3, arbitrary: validListBody }, { weight: 1, arbitrary: textBody }),
    bom: fc.boolean(),
    framing: fc.constantFrom<Framing>('length', 'chunked'),
  })
  .map(({ status, contentType, headers, body, bom, framing }) => {
    const bytes = Buffer.from(bom ? `\uFEFF${body.text}` : body.text);
    const all: Array<[string, string]> = contentType === undefined ? [] : [['Content-Type', contentType]];
    // No random encoding here: this is the answer that should work.
    all.push(...headers.filter(([name]) => !/^content-(type|encoding)$/i.test(name)));
    return withShortPrint({
      status,
      headers: all,
      body: bytes,
      framing,
      decodedBytes: bytes.length,
      note: `plausible: ${bom ? 'BOM + ' : ''}${body.note}`,
    });
  });

/** About a third plausible answers (so the success path is well covered), the rest anything. */
export const replyArb: fc.Arbitrary<HostileReply> = fc.oneof(
  { weight: 1, arbitrary: plausibleReply },
  { weight: 2, arbitrary: hostileReply },
);

/** fast-check prints counterexamples with this, instead of a megabyte of Buffer. */
function withShortPrint(reply: HostileReply): HostileReply {
  Object.defineProperty(reply, fc.toStringMethod, { value: () => describeReply(reply) });
  return reply;
}

// ------------------------------------------------------------ the server

export interface ReceivedRequest {
  path: string;
  authorization?: string;
}

/**
 * A loopback server that answers every request with `next` (a function of the request, so a reply can echo what
 * the client sent). `framing`: 'length' sends content-length, 'chunked' omits it, 'truncate' announces the whole
 * body, sends half and cuts the connection.
 */
export class HostileServer {
  next: (request: ReceivedRequest) => HostileReply = () => {
    throw new Error('no reply set');
  };
  readonly received: ReceivedRequest[] = [];
  private readonly server = http.createServer((req, res) => this.answer(req, res));
  private readonly sockets = new Set<Socket>();

  static async start(): Promise<HostileServer> {
    const s = new HostileServer();
    s.server.on('connection', (socket) => {
      s.sockets.add(socket);
      socket.once('close', () => s.sockets.delete(socket));
    });
    // A client that gives up mid-answer is normal here; nothing about it may reach the process.
    s.server.on('clientError', (_err, socket) => socket.destroy());
    await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve));
    return s;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    req.resume();
    res.on('error', () => undefined);
    const request = { path: req.url ?? '', authorization: req.headers.authorization };
    this.received.push(request);
    const reply = this.next(request);
    const flat: string[] = [];
    for (const [name, value] of reply.headers) flat.push(name, value);
    const truncate = reply.framing === 'truncate' && reply.body.length >= 2;
    if (reply.framing !== 'chunked') flat.push('Content-Length', String(reply.body.length));
    res.writeHead(reply.status, reply.statusMessage, flat);
    if (truncate) res.write(reply.body.subarray(0, Math.floor(reply.body.length / 2)), () => res.destroy());
    else res.end(reply.body);
  }
}

/** What a counterexample prints: the reply without megabytes of body. */
function describeReply(reply: HostileReply): string {
  const head = reply.body.subarray(0, 120).toString('latin1');
  return JSON.stringify({ ...reply, body: `${reply.body.length} bytes: ${head}${reply.body.length > 120 ? '…' : ''}` });
}
