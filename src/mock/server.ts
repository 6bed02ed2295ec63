/**
 * An embedded mock of the Flow Sync API: a real HTTP server on loopback, with fault injection, a request log and a
 * controllable sync lifecycle (clock, startSync, finish), driven in-process or from another process through the
 * /__mock control endpoints.
 */
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FlowSync, MockDataset, MockDataOptions, StartSyncOptions } from './data';

export const DEMO_API_KEY = 'fs_demo_0123456789abcdef';
/** Unless `stuckSince` is given, the stuck sync started this long before the server did. */
export const DEFAULT_STUCK_AGE_MS = 2 * 3600_000;

export interface MockServerOptions extends MockDataOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0: pick a free port. */
  port?: number;
  /** Default DEMO_API_KEY. */
  apiKey?: string;
  /** e.g. '/flowsync' so the API lives under http://127.0.0.1:port/flowsync/api/public/v1/... */
  pathPrefix?: string;
  /** Clock for the time-varying processing list; default Date.now. */
  now?: () => number;
  /** Receives one line per request (method, path, status, duration). */
  log?: (line: string) => void;
  /**
   * Send an ETag and a Last-Modified with every list answer, and answer 304 without a body to a request whose
   * If-None-Match (or, without it, If-Modified-Since) says it holds that answer already. Off by default (`--etag`).
   */
  etag?: boolean;
  /**
   * Serve HTTPS with this certificate chain and private key (PEM), e.g. one issued by a company's own certificate
   * authority (test/fixtures/tls/). Off by default: plain HTTP.
   */
  tls?: { cert: string; key: string };
}

export type Endpoint = 'processing' | 'connections';

export interface Fault {
  /** Default 'any': every API request, known route or not. */
  endpoint?: Endpoint | 'any';
  /** How many matching requests it applies to; default unlimited until cleared. */
  times?: number;
  status?: number;
  /** Raw body; default the documented error body when status >= 400, else the normal data. */
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Never answer; the socket stays open until the client gives up or the server closes. */
  hang?: boolean;
  /** Send the headers (with the full content-length) and about half of the body, then destroy the socket. */
  truncate?: boolean;
  /** Answer 302 with this Location. */
  redirectTo?: string;
  /** Stream a valid-looking JSON array of about this many bytes (chunked, no content-length). */
  hugeBytes?: number;
  /** Destroy the socket without any response (a connection reset). */
  destroy?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** The path as requested, including any pathPrefix. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  authorized: boolean;
  /** The status sent; 0 while none was (and forever for hang and destroy faults). */
  status: number;
  /** Wall-clock time of arrival (Date.now, not the injectable clock, so retry intervals can be measured). */
  at: number;
}

const API_ROUTES: Readonly<Record<string, Endpoint>> = {
  '/api/public/v1/flowsyncs/processing': 'processing',
  '/api/public/v1/connections/index': 'connections',
};
const CONTROL_ROOT = '/__mock/';
const JSON_TYPE = 'application/json; charset=utf-8';
const MAX_CONTROL_BODY_BYTES = 1024 * 1024;
const HUGE_CHUNK_BYTES = 64 * 1024;
const EMPTY_ARRAY = Buffer.from('[]');

interface Reply {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

interface QueuedFault {
  fault: Fault;
  remaining: number;
}

/** Body of an error response, in the documented shape. */
function errorBody(code: string, description: string): string {
  return JSON.stringify({ errors: [{ message: `${code}: ${description}` }] });
}

/** The error body a faulted status answers with, e.g. 503 → "E_SERVICE_UNAVAILABLE: Service Unavailable". */
function errorBodyForStatus(status: number): string {
  if (status === 401) return errorBody('E_UNAUTHORIZED_ACCESS', 'Unauthorized access');
  const description = http.STATUS_CODES[status] ?? `HTTP ${status}`;
  return errorBody(`E_${description.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`, description);
}

function jsonReply(status: number, body: string | Buffer): Reply {
  return { status, contentType: JSON_TYPE, headers: {}, body };
}

export class MockFlowSyncServer {
  readonly requests: RecordedRequest[] = [];
  /** CORS preflights (OPTIONS) answered: a browser sends one before a GET with an Authorization header. */
  preflights = 0;
  /** The data behind the answers, so tests can compare against it. */
  readonly dataset: MockDataset;
  private key: string;
  private clock: () => number;
  /** Added to the clock: what advance() moved it by since the last setNow. */
  private clockOffsetMs = 0;
  private faults: QueuedFault[] = [];
  private readonly prefix: string;
  private readonly host: string;
  private readonly log?: (line: string) => void;
  private readonly server: http.Server | https.Server;
  private readonly scheme: 'http' | 'https';
  /** TCP connections opened to this server (with `tls`, a client that refuses the certificate opens one and sends nothing). */
  connectionsOpened = 0;
  private readonly sockets = new Set<Socket>();
  /** Aborted by close() so that delayed answers stop waiting. */
  private readonly closing = new AbortController();
  private readonly connectionsCache = new Map<number | 'all', Buffer>();
  private readonly etag: boolean;
  /** With `etag`: each answer's ETag and since when it has been the answer, by path and query. */
  private readonly versions = new Map<string, { etag: string; since: number }>();

  private constructor(options: MockServerOptions) {
    const { seed, teams, connections, flows, processing, speed } = options;
    this.clock = options.now ?? Date.now;
    // Rounded to the second, so that two servers started within the same second with the same seed agree.
    const stuckSince = options.stuckSince ?? Math.floor((this.clock() - DEFAULT_STUCK_AGE_MS) / 1000) * 1000;
    this.dataset = new MockDataset({ seed, teams, connections, flows, processing, speed, stuckSince });
    this.key = options.apiKey ?? DEMO_API_KEY;
    this.prefix = normalizePrefix(options.pathPrefix ?? '');
    this.host = options.host ?? '127.0.0.1';
    this.log = options.log;
    this.etag = options.etag === true;
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => this.handle(req, res);
    this.scheme = options.tls ? 'https' : 'http';
    this.server = options.tls
      ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, handler)
      : http.createServer(handler);
    this.server.on('connection', (socket: Socket) => {
      this.connectionsOpened++;
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  static async start(options: MockServerOptions = {}): Promise<MockFlowSyncServer> {
    const mock = new MockFlowSyncServer(options);
    await new Promise<void>((resolve, reject) => {
      mock.server.once('error', reject);
      mock.server.listen(options.port ?? 0, mock.host, () => {
        mock.server.off('error', reject);
        resolve();
      });
    });
    return mock;
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** Base URL to configure in a client, without a trailing slash. */
  get url(): string {
    const host = this.host.includes(':') ? `[${this.host}]` : this.host;
    return `${this.scheme}://${host}:${this.port}${this.prefix}`;
  }

  /** The key currently accepted (setApiKey changes it). */
  get apiKey(): string {
    return this.key;
  }

  inject(fault: Fault): void {
    this.faults.push({ fault, remaining: fault.times ?? Infinity });
  }

  clearFaults(): void {
    this.faults = [];
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  setApiKey(key: string): void {
    this.key = key;
  }

  /** The mock's clock: what created_at and the processing list are computed against. */
  now(): number {
    return this.clock() + this.clockOffsetMs;
  }

  /** A new clock (a function, or a number to freeze it at); forgets earlier advance() calls. */
  setNow(clock: (() => number) | number): void {
    this.clock = typeof clock === 'number' ? () => clock : clock;
    this.clockOffsetMs = 0;
  }

  /** Moves the clock forward by `ms` (backward when negative); returns the new time. */
  advance(ms: number): number {
    if (!Number.isFinite(ms)) throw new RangeError(`advance needs a finite number of ms, got ${ms}`);
    this.clockOffsetMs += ms;
    return this.now();
  }

  /** The sync leaves the processing list now. Returns it as it was listed, or undefined when it is not processing. */
  finish(id: number): FlowSync | undefined {
    return this.dataset.finish(id, this.now());
  }

  /** Starts syncs of a flow now (several: a burst); returns them as listed. Throws RangeError for an unknown flow. */
  startSync(flowId: number, options: StartSyncOptions = {}): FlowSync[] {
    return this.dataset.startSync(flowId, this.now(), options);
  }

  /** The processing sync `id` reports errors from now on (a validation error by default); undefined when not processing. */
  reportErrors(id: number, errors: unknown = [{ message: 'E_VALIDATION: 3 records rejected' }]): FlowSync | undefined {
    return this.dataset.reportErrors(id, this.now(), errors);
  }

  /** Forgets what startSync, finish and reportErrors did: back to the seeded lifecycle alone. */
  resetSyncs(): void {
    this.dataset.resetSyncs();
  }

  /** Stops listening and destroys every socket, hanging responses included, so nothing keeps the process alive. */
  async close(): Promise<void> {
    this.closing.abort();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  // ------------------------------------------------------------ dispatch

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const started = Date.now();
    // Concatenated rather than resolved against a base, so a doubled slash (`//api/...`) stays a path, not a host.
    const url = new URL(`http://mock.invalid${req.url ?? '/'}`);
    const path = this.withoutPrefix(url.pathname);
    if (this.log) {
      const log = this.log;
      const sentStatus = () => (res.headersSent ? String(res.statusCode) : '-');
      res.once('close', () =>
        log(`${req.method} ${url.pathname}${url.search} ${sentStatus()} ${Date.now() - started} ms`),
      );
    }
    allowCrossOrigin(req, res);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      // A browser's CORS preflight (the Authorization header makes every request of the web extension need one). It
      // is not an API request: not recorded, no fault applies.
      this.preflights += 1;
      res.writeHead(204, { 'access-control-max-age': '600', 'content-length': '0' });
      res.end();
      return;
    }
    const handled = path?.startsWith(CONTROL_ROOT)
      ? this.handleControl(req, res, path)
      : this.handleApi(req, res, url, path);
    handled.catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else send(res, jsonReply(500, errorBody('E_MOCK_FAILURE', String(error))));
    });
  }

  /** The path below the prefix, or undefined when the request is outside it. */
  private withoutPrefix(pathname: string): string | undefined {
    if (!this.prefix) return pathname;
    return pathname.startsWith(`${this.prefix}/`) ? pathname.slice(this.prefix.length) : undefined;
  }

  // ------------------------------------------------------------ API

  private async handleApi(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    path: string | undefined,
  ): Promise<void> {
    const authorized = this.isAuthorized(req.headers.authorization);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: flattenHeaders(req.headers),
      authorized,
      status: 0,
      at: Date.now(),
    };
    this.requests.push(record);
    const endpoint = path === undefined ? undefined : API_ROUTES[path];
    const natural = this.apiReply(record, endpoint);
    const reply =
      this.etag && natural.status === 200 ? this.validated(natural, `${url.pathname}${url.search}`, req) : natural;
    const fault = this.takeFault(endpoint);
    if (fault) await this.answerWithFault(fault, res, record, reply, endpoint);
    else record.status = send(res, reply);
  }

  private isAuthorized(header: string | undefined): boolean {
    const match = /^Bearer (.+)$/i.exec(header ?? '');
    return match !== null && match[1] === this.key;
  }

  /** The answer the real service would give, before any fault. */
  private apiReply(record: RecordedRequest, endpoint: Endpoint | undefined): Reply {
    if (!endpoint) return jsonReply(404, errorBody('E_ROUTE_NOT_FOUND', `Cannot ${record.method} ${record.path}`));
    if (record.method !== 'GET') {
      return jsonReply(405, errorBody('E_METHOD_NOT_ALLOWED', `Cannot ${record.method} ${record.path}`));
    }
    if (!record.authorized) return jsonReply(401, errorBodyForStatus(401));
    const teamId = this.teamFilter(record.query.team_id);
    if (teamId === null) return jsonReply(200, EMPTY_ARRAY);
    return jsonReply(
      200,
      endpoint === 'connections'
        ? this.connectionsJson(teamId)
        : JSON.stringify(this.dataset.processingAt(this.now(), teamId)),
    );
  }

  /**
   * With `etag`: the answer with its ETag (a hash of its bytes) and Last-Modified (when it became the answer, to the
   * second, and always a second after the one it replaced), or a 304 without a body when the request's If-None-Match
   * names that ETag or, without If-None-Match, its If-Modified-Since is not before Last-Modified.
   */
  private validated(reply: Reply, key: string, req: http.IncomingMessage): Reply {
    const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    let version = this.versions.get(key);
    if (version?.etag !== etag) {
      const second = Math.floor(this.now() / 1000) * 1000;
      version = { etag, since: version ? Math.max(second, version.since + 1000) : second };
      this.versions.set(key, version);
    }
    const headers = { etag, 'last-modified': new Date(version.since).toUTCString() };
    const ifNoneMatch = req.headers['if-none-match'];
    const ifModifiedSince = Date.parse(req.headers['if-modified-since'] ?? '');
    const same =
      ifNoneMatch !== undefined
        ? ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')
        : Number.isFinite(ifModifiedSince) && ifModifiedSince >= version.since;
    if (same) return { status: 304, contentType: reply.contentType, headers, body: '' };
    return { ...reply, headers: { ...reply.headers, ...headers } };
  }

  /** undefined: no filter; null: a team that cannot match anything (unparseable or unknown id). */
  private teamFilter(raw: string | undefined): number | undefined | null {
    if (raw === undefined) return undefined;
    const teamId = /^\d+$/.test(raw) ? Number(raw) : NaN;
    return this.dataset.hasTeam(teamId) ? teamId : null;
  }

  /** Serialised once per team (and once for all): with 50,000 connections this is most of a request's cost. */
  private connectionsJson(teamId: number | undefined): Buffer {
    const key = teamId ?? 'all';
    let json = this.connectionsCache.get(key);
    if (!json) {
      json = Buffer.from(
        JSON.stringify(teamId === undefined ? this.dataset.connections : this.dataset.connectionsOfTeam(teamId)),
      );
      this.connectionsCache.set(key, json);
    }
    return json;
  }

  // ------------------------------------------------------------ faults

  /** The first queued fault matching the endpoint, counted as used. */
  private takeFault(endpoint: Endpoint | undefined): Fault | undefined {
    const index = this.faults.findIndex(
      ({ fault }) => (fault.endpoint ?? 'any') === 'any' || fault.endpoint === endpoint,
    );
    if (index < 0) return undefined;
    const queued = this.faults[index];
    queued.remaining -= 1;
    if (queued.remaining <= 0) this.faults.splice(index, 1);
    return queued.fault;
  }

  private async answerWithFault(
    fault: Fault,
    res: http.ServerResponse,
    record: RecordedRequest,
    natural: Reply,
    endpoint: Endpoint | undefined,
  ): Promise<void> {
    if (fault.delayMs && !(await this.waitUnlessClosed(fault.delayMs))) return;
    if (res.destroyed) return; // the client gave up while we waited
    if (fault.destroy) {
      res.socket?.destroy();
      return;
    }
    if (fault.hang) return;
    const reply = faultedReply(fault, natural);
    if (fault.hugeBytes !== undefined) {
      record.status = await this.streamHugeArray(res, reply, fault.hugeBytes, endpoint);
    } else if (fault.truncate) record.status = sendTruncated(res, reply);
    else record.status = send(res, reply);
  }

  /** Resolves false when the server closes first. */
  private async waitUnlessClosed(ms: number): Promise<boolean> {
    try {
      await sleep(ms, undefined, { signal: this.closing.signal });
      return true;
    } catch {
      return false;
    }
  }

  /** Writes `[item,item,...]` in chunks, honouring backpressure, so even gigabytes never sit in memory at once. */
  private async streamHugeArray(
    res: http.ServerResponse,
    reply: Reply,
    totalBytes: number,
    endpoint: Endpoint | undefined,
  ): Promise<number> {
    const sample = endpoint === 'processing' ? this.dataset.processingAt(this.now())[0] : this.dataset.connections[0];
    const item = JSON.stringify(sample ?? {});
    const chunk = Buffer.from(`,${item}`.repeat(Math.max(1, Math.floor(HUGE_CHUNK_BYTES / (item.length + 1)))));
    res.writeHead(reply.status, { 'content-type': reply.contentType, ...reply.headers });
    const opening = `[${item}`;
    res.write(opening);
    let written = opening.length;
    while (written + chunk.length < totalBytes && !res.destroyed) {
      written += chunk.length;
      if (!res.write(chunk)) await drainedOrClosed(res);
    }
    res.end(']');
    return reply.status;
  }

  // ------------------------------------------------------------ control endpoints

  private async handleControl(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    try {
      send(res, await this.controlReply(`${req.method} ${path.slice(CONTROL_ROOT.length)}`, req));
    } catch (error) {
      send(res, jsonReply(400, errorBody('E_BAD_REQUEST', error instanceof Error ? error.message : String(error))));
    }
  }

  private async controlReply(route: string, req: http.IncomingMessage): Promise<Reply> {
    switch (route) {
      case 'POST faults':
        this.inject(parseFault(await readJson(req)));
        return jsonReply(201, JSON.stringify({ queued: this.faults.length }));
      case 'DELETE faults':
        this.clearFaults();
        return jsonReply(200, JSON.stringify({ queued: 0 }));
      case 'GET requests':
        return jsonReply(200, JSON.stringify(this.requests.map(redacted)));
      case 'DELETE requests':
        this.clearRequests();
        return jsonReply(200, '[]');
      case 'GET now':
        return jsonReply(200, JSON.stringify({ now: this.now() }));
      case 'POST now':
        this.moveClock(await readJson(req));
        return jsonReply(200, JSON.stringify({ now: this.now() }));
      case 'GET syncs':
        return jsonReply(200, JSON.stringify(this.lifecycle()));
      case 'POST syncs/start': {
        const { flowId, count, runMs } = parseControlBody(
          await readJson(req),
          { flowId: 'number', count: 'number', runMs: 'number' },
          ['flowId'],
        );
        const options = { count: count as number | undefined, runMs: runMs as number | undefined };
        return jsonReply(201, JSON.stringify({ started: this.startSync(flowId as number, options) }));
      }
      case 'POST syncs/finish': {
        const { id } = parseControlBody(await readJson(req), { id: 'number' }, ['id']);
        const finished = this.finish(id as number);
        if (!finished) return jsonReply(404, errorBody('E_NOT_PROCESSING', `flow sync ${id} is not processing`));
        return jsonReply(200, JSON.stringify({ finished }));
      }
      case 'POST syncs/errors': {
        const { id, message } = parseControlBody(await readJson(req), { id: 'number', message: 'string' }, ['id']) as {
          id: number;
          message?: string;
        };
        const sync = this.reportErrors(id, message === undefined ? undefined : [{ message }]);
        if (!sync) return jsonReply(404, errorBody('E_NOT_PROCESSING', `flow sync ${id} is not processing`));
        return jsonReply(200, JSON.stringify({ sync }));
      }
      case 'DELETE syncs':
        this.resetSyncs();
        return jsonReply(200, JSON.stringify(this.lifecycle()));
      default:
        return jsonReply(
          404,
          errorBody('E_ROUTE_NOT_FOUND', `Cannot ${route.replace(' ', ` ${this.prefix}${CONTROL_ROOT}`)}`),
        );
    }
  }

  /** `{"now": ms}` freezes the clock at ms; `{"offsetMs": n}` moves the current clock by n (advance). */
  private moveClock(body: unknown): void {
    const { now, offsetMs } = (body ?? {}) as { now?: unknown; offsetMs?: unknown };
    if (typeof now === 'number' && Number.isFinite(now)) {
      this.setNow(now);
    } else if (typeof offsetMs === 'number' && Number.isFinite(offsetMs)) {
      this.advance(offsetMs);
    } else {
      throw new Error('expected {"now": ms} or {"offsetMs": n}');
    }
  }

  /** What GET /__mock/syncs shows: the clock, the flows' run times, the stuck sync and the list now. */
  private lifecycle(): object {
    const now = this.now();
    return {
      now,
      speed: this.dataset.speed,
      stuck:
        this.dataset.stuckSyncId === undefined
          ? null
          : { id: this.dataset.stuckSyncId, since: this.dataset.stuckSince },
      flows: this.dataset.flows.map(({ id, name, team_id, typicalRunMs }) => ({ id, name, team_id, typicalRunMs })),
      processing: this.dataset.processingAt(now),
    };
  }
}

// ------------------------------------------------------------ helpers

/**
 * CORS, so the web extension (vscode.dev, code-server's web worker extension host) can call the mock from a page of
 * another origin: any origin (echoed, no credentials), the headers the client sends (the conditions of issue #38
 * among them), GET only, and Retry-After, ETag and Last-Modified readable by the page (Content-Type and
 * Content-Length are readable anyway). What a real service must allow likewise
 * is in the README ("In the browser").
 */
function allowCrossOrigin(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
  res.setHeader('vary', 'Origin');
  res.setHeader('access-control-allow-methods', 'GET');
  res.setHeader('access-control-allow-headers', 'Authorization, Accept, User-Agent, If-None-Match, If-Modified-Since');
  res.setHeader('access-control-expose-headers', 'Retry-After, ETag, Last-Modified');
}

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
  );
}

/** The fault's status, body and headers laid over the natural reply. */
function faultedReply(fault: Fault, natural: Reply): Reply {
  const contentType = fault.contentType ?? natural.contentType;
  if (fault.redirectTo !== undefined) {
    return {
      status: 302,
      contentType,
      headers: { location: fault.redirectTo, ...fault.headers },
      body: fault.body ?? '',
    };
  }
  const faultedError = fault.status !== undefined && fault.status >= 400 ? errorBodyForStatus(fault.status) : undefined;
  return {
    status: fault.status ?? natural.status,
    contentType,
    headers: { ...fault.headers },
    body: fault.body ?? faultedError ?? natural.body,
  };
}

function send(res: http.ServerResponse, reply: Reply): number {
  if (reply.status === 304) {
    // Not modified: the validators, no body and no content headers.
    res.writeHead(304, reply.headers);
    res.end();
    return 304;
  }
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
  res.writeHead(reply.status, {
    'content-type': reply.contentType,
    'content-length': String(body.length),
    ...reply.headers,
  });
  res.end(body);
  return reply.status;
}

/** Announces the whole body, sends half of it, then cuts the connection: a response broken mid-transfer. */
function sendTruncated(res: http.ServerResponse, reply: Reply): number {
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
  res.writeHead(reply.status, {
    'content-type': reply.contentType,
    'content-length': String(body.length),
    ...reply.headers,
  });
  res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
  return reply.status;
}

function drainedOrClosed(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function redacted(record: RecordedRequest): RecordedRequest {
  if (record.headers.authorization === undefined) return record;
  return { ...record, headers: { ...record.headers, authorization: 'Bearer <redacted>' } };
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_CONTROL_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw new Error('body is not valid JSON');
  }
}

/** Checks a control body: a JSON object with only these fields, of these types, the `required` ones present. */
function parseControlBody(
  value: unknown,
  types: Readonly<Record<string, string>>,
  required: readonly string[],
): Record<string, number | string | undefined> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('the body must be a JSON object');
  }
  for (const [field, fieldValue] of Object.entries(value)) {
    if (!types[field]) throw new Error(`unknown field "${field}"`);
    if (typeof fieldValue !== types[field]) throw new Error(`field "${field}" must be a ${types[field]}`);
  }
  const missing = required.filter((field) => !(field in value));
  if (missing.length > 0) throw new Error(`missing field "${missing[0]}"`);
  return value as Record<string, number | string | undefined>;
}

const FAULT_FIELD_TYPES: Readonly<Record<keyof Fault, string>> = {
  endpoint: 'string',
  times: 'number',
  status: 'number',
  body: 'string',
  contentType: 'string',
  headers: 'object',
  delayMs: 'number',
  hang: 'boolean',
  truncate: 'boolean',
  redirectTo: 'string',
  hugeBytes: 'number',
  destroy: 'boolean',
};

/** Checks a fault that came as JSON (control endpoint, CLI); unknown fields are refused so typos do not pass silently. */
export function parseFault(value: unknown): Fault {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('a fault must be a JSON object');
  }
  for (const [field, fieldValue] of Object.entries(value)) {
    const expected = FAULT_FIELD_TYPES[field as keyof Fault];
    if (!expected) throw new Error(`unknown fault field "${field}"`);
    if (typeof fieldValue !== expected || fieldValue === null) {
      throw new Error(`fault field "${field}" must be a ${expected}`);
    }
  }
  const fault = value as Fault;
  if (fault.times !== undefined && !(Number.isInteger(fault.times) && fault.times >= 1)) {
    throw new Error('fault field "times" must be an integer >= 1');
  }
  if (fault.headers && !Object.values(fault.headers).every((header) => typeof header === 'string')) {
    throw new Error('fault field "headers" must map names to strings');
  }
  if (fault.endpoint !== undefined && !['any', 'processing', 'connections'].includes(fault.endpoint)) {
    throw new Error('fault field "endpoint" must be "any", "processing" or "connections"');
  }
  return fault;
}
