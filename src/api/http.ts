import { t } from '../base/l10n';
import { clampDelay } from '../base/clock';
import { platform as defaultPlatform } from '../env/platform';
import type { HttpAnswer, Platform } from '../env/types';
import { bounded, inert } from '../base/inert';
import { JsonCounter, countsOver } from './jsonBounds';
import { countsAfterEdit, fingerprintBlocks, joinChunks, sharedEnds, type AnswerBytes } from './answerBytes';
import { conditionalHeaders, readValidators, type Validators } from './validators';
import { ApiError } from './errors';
import {
  MAX_RETRY_AFTER_MS,
  UNAUTHORIZED_CODE,
  boundedRetryAfter,
  errorBodyOf,
  parseErrorBody,
  parseRetryAfter,
} from './errorAnswers';

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
   * The last answer to the same request (JsonResponse.answer). When the platform can compare bytes natively
   * (sameBytes), an answer is compared with it, and counted and hashed only where it differs (answerBytes.ts).
   */
  previous?: AnswerBytes;
  /**
   * The validators of the last answer to the same request (JsonResponse.validators): sent as If-None-Match /
   * If-Modified-Since, and a 304 is then the same answer (NotModified). Without them a 304 is refused like any 3xx.
   */
  conditional?: Validators;
}

/** The service said the answer is the one it last sent (304 to a conditional request): no body was read. */
export interface NotModified {
  status: 304;
  notModified: true;
  bytes: 0;
}

export interface JsonResponse {
  status: number;
  body: unknown;
  bytes: number;
  /** SHA-1 of the body, so an unchanged answer can be recognised without comparing items. */
  fingerprint: string;
  /** The bytes read and what was counted in them: `previous` for the next request. */
  answer: AnswerBytes;
  /** Its ETag / Last-Modified, within bounds (src/api/validators.ts): `conditional` for the next request. */
  validators?: Validators;
  notModified?: undefined;
}

export type { AnswerBytes } from './answerBytes';

/**
 * GET a JSON document. Never follows redirects, enforces a timeout and a body size cap, and turns every failure into
 * an ApiError. `label` names the endpoint in messages (e.g. "processing flow syncs"); the URL and key never appear.
 * With `conditional`, a 304 resolves to NotModified (its body, if any, is not read).
 */
export async function getJson(
  url: string,
  label: string,
  options: GetJsonOptions & { conditional?: undefined },
): Promise<JsonResponse>;
export async function getJson(url: string, label: string, options: GetJsonOptions): Promise<JsonResponse | NotModified>;
export async function getJson(
  url: string,
  label: string,
  options: GetJsonOptions,
): Promise<JsonResponse | NotModified> {
  if (options.signal?.aborted) throw cancelled(label);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, clampDelay(options.timeoutMs));
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const failure = (e: unknown) => toApiError(e, label, { timedOut, timeoutMs: options.timeoutMs, url });
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
          ...conditionalHeaders(options.conditional),
        },
      });
    } catch (e) {
      throw failure(e);
    }
    if (response.status === 304 && options.conditional) {
      response.cancel();
      return { status: 304, notModified: true, bytes: 0 };
    }
    if (response.status >= 300 && response.status < 400) {
      response.cancel();
      throw new ApiError(
        'invalidResponse',
        t(
          'The service redirected the request for {0} (HTTP {1}). Redirects are not followed so your key stays with the configured service; check the service URL.',
          label,
          response.status,
        ),
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
    return answerOf(response, text, answer, label, options);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** A read answer as JSON: an error status, another content type, malformed JSON and the unauthorized body refused. */
function answerOf(
  response: HttpAnswer,
  text: string,
  answer: AnswerBytes,
  label: string,
  options: GetJsonOptions,
): JsonResponse {
  if (response.status < 200 || response.status > 299) throw errorForStatus(response, text, label, options);
  const contentType = response.header('content-type') ?? '';
  if (contentType && !/\bjson\b/i.test(contentType)) {
    throw new ApiError(
      'invalidResponse',
      t(
        'The service answered {0} with {1} instead of JSON. Check that the service URL points at the Flow Sync API.',
        label,
        describeType(contentType, options.apiKey),
      ),
      { status: response.status },
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(
      'invalidResponse',
      t('The service answered {0} with malformed JSON ({1}).', label, formatBytes(answer.bytes)),
      {
        status: response.status,
      },
    );
  }
  const errorBody = Array.isArray(body) ? undefined : errorBodyOf(body, options.apiKey);
  if (errorBody?.code === UNAUTHORIZED_CODE) throw unauthorized(response.status, errorBody.description);
  return {
    status: response.status,
    body,
    bytes: answer.bytes,
    fingerprint: answer.fingerprint,
    answer,
    validators: readValidators((name) => response.header(name), options.apiKey),
  };
}

/**
 * Reads the body up to `maxBytes`, `maxContainers` and `maxCommas`. Containers and values are counted by JsonCounter's
 * rule (src/api/jsonBounds.ts, which counts the files read from global storage too), so a hostile answer is refused
 * before JSON.parse spends seconds and a gigabyte on it. A leading byte-order mark is dropped.
 *
 * Without `previous` (or without sameBytes: the browser), the bytes are counted while they stream and refused at the
 * first chunk over a cap. With it, the answer is read whole (up to `maxBytes`) and compared with `previous`: only the
 * bytes between the ends they share are counted (exact: the previous answer's counts, less its bytes that went, plus
 * the bytes that came) and only the fingerprint's blocks around them are hashed (fingerprintBlocks), so an answer that
 * renames one item costs about what an identical one does. The caps are checked on the exact counts before parsing.
 */
async function readCapped(
  response: HttpAnswer,
  {
    maxBytes,
    maxContainers,
    maxCommas,
    previous,
  }: Pick<GetJsonOptions, 'maxBytes' | 'maxContainers' | 'maxCommas' | 'previous'>,
  platform: Platform,
  label: string,
): Promise<{ text: string; answer: AnswerBytes }> {
  const tooLarge = () => capError('bytes', label, { maxBytes, maxContainers, maxCommas }, response.status);
  const checkCaps = (over: 'containers' | 'commas' | undefined) => {
    if (!over) return;
    response.cancel();
    throw capError(over, label, { maxBytes, maxContainers, maxCommas }, response.status);
  };
  const declared = Number(response.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.cancel();
    throw tooLarge();
  }
  const same = previous && platform.sameBytes?.bind(platform);
  const counter = new JsonCounter({ maxContainers, maxCommas });
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body ?? []) {
    total += chunk.length;
    if (total > maxBytes) {
      response.cancel();
      throw tooLarge();
    }
    chunks.push(chunk);
    if (!same) checkCaps(counter.count(chunk));
  }
  const data = joinChunks(chunks, total);
  const createHasher = () => platform.createHasher();
  let answer: AnswerBytes;
  if (same) {
    const { prefix, suffix } = sharedEnds(previous.data, data, same);
    const identical = prefix === total && total === previous.bytes;
    const counts = identical ? previous : countsAfterEdit(previous, data, prefix, suffix);
    checkCaps(countsOver(counts, { maxContainers, maxCommas }));
    const blocks = identical ? previous : fingerprintBlocks(data, createHasher, { previous, prefix, suffix });
    answer = {
      data,
      bytes: total,
      containers: counts.containers,
      commas: counts.commas,
      blockEnds: blocks.blockEnds,
      digests: blocks.digests,
      fingerprint: blocks.fingerprint,
    };
  } else {
    answer = {
      data,
      bytes: total,
      containers: counter.containers,
      commas: counter.commas,
      ...fingerprintBlocks(data, createHasher),
    };
  }
  const text = total ? platform.decodeUtf8([data], total) : '';
  return { text: text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text, answer };
}

/** The error of an answer over one of its caps (`over`: which), naming the list (`label`) and the cap. */
function capError(
  over: 'bytes' | 'containers' | 'commas',
  label: string,
  caps: { maxBytes: number; maxContainers: number; maxCommas: number },
  status: number,
): ApiError {
  const message =
    over === 'bytes'
      ? t('The answer for {0} is larger than the {1} limit; it was not loaded.', label, formatBytes(caps.maxBytes))
      : over === 'containers'
        ? t(
            'The answer for {0} holds too many nested objects or arrays (more than {1}); it was not loaded.',
            label,
            caps.maxContainers.toLocaleString('en-US'),
          )
        : t(
            'The answer for {0} holds too many values (more than {1}); it was not loaded.',
            label,
            caps.maxCommas.toLocaleString('en-US'),
          );
  return new ApiError('invalidResponse', message, { status });
}

const BYTE_ORDER_MARK = 0xfeff;

function errorForStatus(
  response: HttpAnswer,
  text: string,
  label: string,
  { now, apiKey }: Pick<GetJsonOptions, 'now' | 'apiKey'>,
): ApiError {
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
          ? t(
              'The service is limiting requests (HTTP {0}) and asked to wait longer than {1}; retrying in {1}.',
              status,
              formatDelay(MAX_RETRY_AFTER_MS),
            )
          : t('The service is limiting requests (HTTP {0}) and asked to wait {1}.', status, formatDelay(retryAfterMs!));
    return new ApiError('rateLimited', message, { status, retryAfterMs });
  }
  const reason = parsed
    ? `: ${parsed.code ? `${parsed.code}: ` : ''}${parsed.description}`
    : statusText(response, apiKey);
  return new ApiError('http', inert(t('The service answered {0} with HTTP {1}{2}', label, status, reason)), {
    status,
    code: parsed?.code,
    description: parsed?.description,
  });
}

function unauthorized(status: number, description?: string): ApiError {
  return new ApiError(
    'unauthorized',
    t(
      'The service rejected the API key (HTTP {0}{1}). Set a valid key with "Flow Sync: Set API Key...".',
      status,
      description ? `: ${description}` : '',
    ),
    { status, code: UNAUTHORIZED_CODE, description },
  );
}

/** The headers arrived but the body did not: the connection dropped halfway. */
function brokenBody(e: unknown, label: string): ApiError {
  const code = (e as { code?: string })?.code;
  return new ApiError(
    'network',
    t('The connection to the service broke while loading {0}{1}.', label, code ? ` (${code})` : ''),
  );
}

function cancelled(label: string): ApiError {
  return new ApiError('cancelled', t('The request for {0} was cancelled.', label));
}

/**
 * Maps node-fetch / socket failures to the error family. Messages name the cause, never the URL's path or the headers
 * (a certificate error names the host whose certificate was refused).
 */
function toApiError(e: unknown, label: string, state: { timedOut: boolean; timeoutMs: number; url: string }): ApiError {
  if (e instanceof ApiError) return e;
  const err = e as { name?: string; code?: string; erroredSysCall?: string; type?: string };
  if (err?.name === 'AbortError' || err?.type === 'aborted') {
    return state.timedOut
      ? new ApiError('timeout', t('The service did not answer {0} within {1}.', label, formatDelay(state.timeoutMs)))
      : cancelled(label);
  }
  const code = err?.code ?? '';
  if (CERTIFICATE_CODE.test(code)) return untrustedCertificate(code, state.url);
  const cause = NETWORK_CAUSES[code]?.() ?? (/CERT|SSL|TLS/.test(code) ? t('a TLS/certificate problem') : undefined);
  if (cause) return new ApiError('network', t('Could not reach the service for {0}: {1} ({2}).', label, cause, code));
  if (code === 'ERR_STREAM_PREMATURE_CLOSE' || err?.type === 'system' || err?.name === 'FetchError') {
    return brokenBody(e, label);
  }
  return new ApiError('network', t('Could not load {0}: {1}', label, inert(String((e as Error)?.message ?? e), 120)));
}

/** Node's codes for a server certificate the TLS handshake refused (OpenSSL's verify errors and the host name check). */
const CERTIFICATE_CODE = /^(?:[A-Z_]*CERT[A-Z_]*|UNABLE_TO_(?:GET|VERIFY)_[A-Z_]+|HOSTNAME_MISMATCH)$/;

const CERTIFICATE_CAUSES: Record<string, () => string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: () => t('it is self-signed'),
  CERT_HAS_EXPIRED: () => t('it has expired'),
  CERT_NOT_YET_VALID: () => t('it is not valid yet'),
  CERT_REVOKED: () => t('it was revoked'),
  ERR_TLS_CERT_ALTNAME_INVALID: () => t('it was issued for another host name'),
  HOSTNAME_MISMATCH: () => t('it was issued for another host name'),
};

/**
 * The TLS handshake refused the service's certificate: nothing was sent (the key included). Not tried again on its own
 * (retryDelay): the same certificate fails the same way until the person trusts its authority or the service fixes it.
 */
function untrustedCertificate(code: string, url: string): ApiError {
  let host = '';
  try {
    host = new URL(url).host;
  } catch {
    // a URL that fetch could use always parses; keep the message without a host otherwise
  }
  const cause =
    CERTIFICATE_CAUSES[code]?.() ?? t('it was issued by a certificate authority this machine does not trust');
  return new ApiError(
    'certificate',
    t(
      "The certificate of {0} is not trusted: {1} ({2}). Nothing was sent. To trust your company's own certificate authority, see Troubleshooting in the README.",
      inert(host, 260),
      cause,
      code,
    ),
  );
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
