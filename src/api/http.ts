import { t } from '../base/l10n';
import { clampDelay } from '../base/clock';
import { platform as defaultPlatform } from '../env/platform';
import type { HttpAnswer, Platform } from '../env/types';
import { bounded, inert } from '../base/inert';
import { JsonCounter } from './jsonBounds';
import { ApiError, MAX_RETRY_AFTER_MS, UNAUTHORIZED_CODE, boundedRetryAfter, errorBodyOf, parseErrorBody, parseRetryAfter } from './errors';

export interface GetJsonOptions {
  apiKey: string;
  userAgent: string;
  timeoutMs: number;
  maxBytes: number;
  /** Objects and arrays an answer may hold, counted while it streams: JSON.parse's cost grows with them. */
  maxContainers: number;
  /** Commas an answer may hold (values in lists and objects), counted likewise: each value costs memory once parsed. */
  maxCommas: number;
  signal?: AbortSignal;
  now: () => number;
  /** Where HTTP comes from: Node or the browser, chosen at bundle time (src/env). */
  platform?: Platform;
  /**
   * The last answer to the same request (JsonResponse.answer). An answer with exactly its bytes is recognised while
   * it streams, by comparing (when the platform can: sameBytes), and takes its counts and fingerprint instead of
   * being counted and hashed again.
   */
  previous?: AnswerBytes;
}

export interface JsonResponse {
  status: number;
  body: unknown;
  bytes: number;
  /** SHA-1 of the body, so an unchanged answer can be recognised without comparing items. */
  fingerprint: string;
  /** The bytes read and what was counted in them: `previous` for the next request. */
  answer: AnswerBytes;
}

/** The bytes of an answer as read (the chunks, not copied), with their counts and fingerprint. */
export interface AnswerBytes {
  readonly chunks: readonly Uint8Array[];
  readonly bytes: number;
  readonly containers: number;
  readonly commas: number;
  readonly fingerprint: string;
}

/**
 * GET a JSON document. Never follows redirects, enforces a timeout and a body size cap, and turns every failure into
 * an ApiError. `label` names the endpoint in messages (e.g. "processing flow syncs"); the URL and key never appear.
 */
export async function getJson(url: string, label: string, options: GetJsonOptions): Promise<JsonResponse> {
  if (options.signal?.aborted) throw cancelled(label);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, clampDelay(options.timeoutMs));
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const failure = (e: unknown) => toApiError(e, label, { timedOut, timeoutMs: options.timeoutMs });
  const platform = options.platform ?? defaultPlatform;
  try {
    let response: HttpAnswer;
    try {
      response = await platform.httpGet(url, {
        signal: controller.signal,
        headers: {
          Authorization: `Bearer ${options.apiKey}`,
          Accept: 'application/json',
          'User-Agent': options.userAgent,
        },
      });
    } catch (e) {
      throw failure(e);
    }
    if (response.status >= 300 && response.status < 400) {
      response.cancel();
      throw new ApiError(
        'invalidResponse',
        t('The service redirected the request for {0} (HTTP {1}). Redirects are not followed so your key stays with the configured service; check the service URL.', label, response.status),
        { status: response.status },
      );
    }
    let text: string;
    let answer: AnswerBytes;
    try {
      ({ text, answer } = await readCapped(response, options, platform, label));
    } catch (e) {
      throw e instanceof ApiError || timedOut || options.signal?.aborted ? failure(e) : brokenBody(e, label);
    }
    if (response.status < 200 || response.status > 299) throw errorForStatus(response, text, label, options);
    const contentType = response.header('content-type') ?? '';
    if (contentType && !/\bjson\b/i.test(contentType)) {
      throw new ApiError(
        'invalidResponse',
        t('The service answered {0} with {1} instead of JSON. Check that the service URL points at the Flow Sync API.', label, describeType(contentType, options.apiKey)),
        { status: response.status },
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ApiError('invalidResponse', t('The service answered {0} with malformed JSON ({1}).', label, formatBytes(answer.bytes)), {
        status: response.status,
      });
    }
    const errorBody = Array.isArray(body) ? undefined : errorBodyOf(body, options.apiKey);
    if (errorBody?.code === UNAUTHORIZED_CODE) throw unauthorized(response.status, errorBody.description);
    return { status: response.status, body, bytes: answer.bytes, fingerprint: answer.fingerprint, answer };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Reads the body up to `maxBytes`, `maxContainers` and `maxCommas`, hashing it chunk by chunk while it arrives (no
 * second pass over the text). Containers and values are counted by JsonCounter (src/api/jsonBounds.ts, which counts
 * the files read from global storage too), so a hostile answer is refused before JSON.parse spends seconds and a
 * gigabyte on it. A leading byte-order mark is dropped.
 *
 * While the bytes are those of `previous` (compared natively, chunk by chunk), they are neither counted nor hashed:
 * counts within an identical prefix cannot exceed the previous answer's, which were within the same caps. At the
 * first difference (or a shorter answer) the bytes read so far are counted and hashed, so the caps and the
 * fingerprint are exactly what a full count and hash would give.
 */
async function readCapped(
  response: HttpAnswer,
  { maxBytes, maxContainers, maxCommas, previous }: Pick<GetJsonOptions, 'maxBytes' | 'maxContainers' | 'maxCommas' | 'previous'>,
  platform: Platform,
  label: string,
): Promise<{ text: string; answer: AnswerBytes }> {
  const tooLarge = () =>
    new ApiError('invalidResponse', t('The answer for {0} is larger than the {1} limit; it was not loaded.', label, formatBytes(maxBytes)), {
      status: response.status,
    });
  const tooComplex = () =>
    new ApiError(
      'invalidResponse',
      t('The answer for {0} holds too many nested objects or arrays (more than {1}); it was not loaded.', label, maxContainers.toLocaleString('en-US')),
      { status: response.status },
    );
  const tooManyValues = () =>
    new ApiError('invalidResponse', t('The answer for {0} holds too many values (more than {1}); it was not loaded.', label, maxCommas.toLocaleString('en-US')), {
      status: response.status,
    });
  const declared = Number(response.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  const hash = platform.createHasher();
  let total = 0;
  const counter = new JsonCounter({ maxContainers, maxCommas });
  if (!response.body) return { text: '', answer: { chunks, bytes: 0, containers: 0, commas: 0, fingerprint: hash.digest() } };
  const matches =
    previous && platform.sameBytes && previous.containers <= maxContainers && previous.commas <= maxCommas
      ? prefixMatcher(previous.chunks, platform.sameBytes.bind(platform))
      : undefined;
  let same = matches !== undefined;
  let counted = 0; // chunks[0..counted) are counted and hashed
  const countAndHash = () => {
    for (; counted < chunks.length; counted++) {
      const chunk = chunks[counted];
      const over = counter.count(chunk);
      if (over) {
        response.cancel();
        throw over === 'containers' ? tooComplex() : tooManyValues();
      }
      hash.update(chunk);
    }
  };
  for await (const chunk of response.body) {
    total += chunk.length;
    if (total > maxBytes) {
      response.cancel();
      throw tooLarge();
    }
    chunks.push(chunk);
    if (same) same = matches!(chunk);
    if (!same) countAndHash();
  }
  const identical = same && total === previous!.bytes;
  if (!identical) countAndHash();
  const answer: AnswerBytes = identical
    ? { chunks, bytes: total, containers: previous!.containers, commas: previous!.commas, fingerprint: previous!.fingerprint }
    : { chunks, bytes: total, containers: counter.containers, commas: counter.commas, fingerprint: hash.digest() };
  const text = platform.decodeUtf8(chunks, total);
  return { text: text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text, answer };
}

/**
 * Compares the chunks of an answer, in order, with the bytes of an earlier one (chunk boundaries may differ): true
 * while every byte so far is the same.
 */
function prefixMatcher(previous: readonly Uint8Array[], sameBytes: (a: Uint8Array, b: Uint8Array) => boolean): (chunk: Uint8Array) => boolean {
  let index = 0;
  let offset = 0;
  return (chunk) => {
    for (let at = 0; at < chunk.length; ) {
      const before = previous[index];
      if (!before) return false;
      const n = Math.min(before.length - offset, chunk.length - at);
      if (!sameBytes(chunk.subarray(at, at + n), before.subarray(offset, offset + n))) return false;
      at += n;
      offset += n;
      if (offset === before.length) {
        index++;
        offset = 0;
      }
    }
    return true;
  };
}

const BYTE_ORDER_MARK = 0xfeff;

function errorForStatus(response: HttpAnswer, text: string, label: string, { now, apiKey }: Pick<GetJsonOptions, 'now' | 'apiKey'>): ApiError {
  const status = response.status;
  const parsed = parseErrorBody(text, apiKey);
  if (parsed?.code === UNAUTHORIZED_CODE || status === 401 || status === 403) {
    return unauthorized(status, parsed?.description);
  }
  const askedMs = parseRetryAfter(response.header('retry-after'), now());
  if (status === 429 || (status === 503 && askedMs !== undefined)) {
    // The message states the wait that is actually used, never an absurd one the service asked for.
    const retryAfterMs = askedMs === undefined ? undefined : boundedRetryAfter(askedMs);
    const message =
      askedMs === undefined
        ? t('The service is limiting requests (HTTP {0}).', status)
        : askedMs > MAX_RETRY_AFTER_MS
          ? t('The service is limiting requests (HTTP {0}) and asked to wait longer than {1}; retrying in {1}.', status, formatDelay(MAX_RETRY_AFTER_MS))
          : t('The service is limiting requests (HTTP {0}) and asked to wait {1}.', status, formatDelay(retryAfterMs!));
    return new ApiError('rateLimited', message, { status, retryAfterMs });
  }
  const reason = parsed ? `: ${parsed.code ? `${parsed.code}: ` : ''}${parsed.description}` : statusText(response, apiKey);
  return new ApiError('http', inert(t('The service answered {0} with HTTP {1}{2}', label, status, reason)), {
    status,
    code: parsed?.code,
    description: parsed?.description,
  });
}

function unauthorized(status: number, description?: string): ApiError {
  return new ApiError(
    'unauthorized',
    t('The service rejected the API key (HTTP {0}{1}). Set a valid key with "Flow Sync: Set API Key...".', status, description ? `: ${description}` : ''),
    { status, code: UNAUTHORIZED_CODE, description },
  );
}

/** The headers arrived but the body did not: the connection dropped halfway. */
function brokenBody(e: unknown, label: string): ApiError {
  const code = (e as { code?: string })?.code;
  return new ApiError('network', t('The connection to the service broke while loading {0}{1}.', label, code ? ` (${code})` : ''));
}

function cancelled(label: string): ApiError {
  return new ApiError('cancelled', t('The request for {0} was cancelled.', label));
}

/** Maps node-fetch / socket failures to the error family. Messages name the cause, never the URL or headers. */
function toApiError(e: unknown, label: string, state: { timedOut: boolean; timeoutMs: number }): ApiError {
  if (e instanceof ApiError) return e;
  const err = e as { name?: string; code?: string; erroredSysCall?: string; type?: string };
  if (err?.name === 'AbortError' || err?.type === 'aborted') {
    return state.timedOut
      ? new ApiError('timeout', t('The service did not answer {0} within {1}.', label, formatDelay(state.timeoutMs)))
      : cancelled(label);
  }
  const code = err?.code ?? '';
  const cause = NETWORK_CAUSES[code]?.() ?? (/CERT|SSL|TLS/.test(code) ? t('a TLS/certificate problem') : undefined);
  if (cause) return new ApiError('network', t('Could not reach the service for {0}: {1} ({2}).', label, cause, code));
  if (code === 'ERR_STREAM_PREMATURE_CLOSE' || err?.type === 'system' || err?.name === 'FetchError') return brokenBody(e, label);
  return new ApiError('network', t('Could not load {0}: {1}', label, inert(String((e as Error)?.message ?? e), 120)));
}

const NETWORK_CAUSES: Record<string, () => string> = {
  ECONNREFUSED: () => t('the connection was refused'),
  ENOTFOUND: () => t('the host name could not be resolved'),
  EAI_AGAIN: () => t('the host name could not be resolved (DNS is unavailable)'),
  ECONNRESET: () => t('the connection was reset'),
  EPIPE: () => t('the connection was closed'),
  ETIMEDOUT: () => t('the connection timed out'),
  EHOSTUNREACH: () => t('the host is unreachable'),
  ENETUNREACH: () => t('the network is unreachable'),
};

function statusText(response: HttpAnswer, hide: string): string {
  return response.statusText ? ` (${inert(response.statusText, 80, hide)})` : '';
}

function describeType(contentType: string, hide: string): string {
  // The key is hidden from the whole header first: split at ';' before it, a key holding ';' would show in part.
  const type = bounded(inert(contentType, 200, hide).split(';')[0].trim().toLowerCase(), 80, hide);
  return type === 'text/html' ? t('an HTML page') : t('content of type {0}', type);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return t('{0} bytes', bytes);
}

export function formatDelay(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
}
