import { inert } from '../base/inert';

/*
 * What an error answer of the service says: its documented body and its Retry-After, read within bounds (the request
 * code, src/api/http.ts, and the refreshers' backoff, src/lists/refresh.ts).
 */

export const UNAUTHORIZED_CODE = 'E_UNAUTHORIZED_ACCESS';

/** Parses the documented error body `{"errors":[{"message":"CODE: description"}]}`; undefined for any other shape. */
export function parseErrorBody(text: string, hide?: string): ErrorBody | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return errorBodyOf(body, hide);
}

export interface ErrorBody {
  code?: string;
  description: string;
}

/**
 * The documented error shape inside an already parsed body; undefined for any other value (arrays included). The
 * description is service text: made inert, with `hide` (the key, should the service echo it) removed.
 */
export function errorBodyOf(body: unknown, hide?: string): ErrorBody | undefined {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const message = (errors[0] as { message?: unknown } | null)?.message;
  if (typeof message !== 'string') return undefined;
  const match = /^\s*([A-Z][A-Z0-9_]{0,63})\s*:\s*(.*)$/s.exec(message);
  if (!match || (hide && match[1].includes(hide))) return { description: inert(message, undefined, hide) };
  return { code: match[1], description: inert(match[2], undefined, hide) };
}

/** The longest wait a Retry-After can impose: a broken or hostile header must not stop refreshing for days. */
export const MAX_RETRY_AFTER_MS = 60 * 60_000;
/** The shortest: an answer of "0" still waits a second, so a misbehaving service is not hammered. */
const MIN_RETRY_AFTER_MS = 1_000;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT". */
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** Obsolete RFC 850 date: "Sunday, 06-Nov-94 08:49:37 GMT". */
const RFC850_DATE = new RegExp(
  `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
);
/** asctime(): "Sun Nov  6 08:49:37 1994" (UTC). */
const ASCTIME_DATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** The three HTTP-date forms of RFC 9110 §5.6.7, as milliseconds since the epoch; undefined for anything else. */
function parseHttpDate(value: string, nowMs: number): number | undefined {
  let parts: [year: number, month: string, day: string, h: string, m: string, s: string] | undefined;
  let match = IMF_FIXDATE.exec(value);
  if (match) parts = [Number(match[3]), match[2], match[1], match[4], match[5], match[6]];
  else if ((match = RFC850_DATE.exec(value))) {
    // Two-digit year: the century that puts it at most 50 years into the future (RFC 9110).
    const nowYear = new Date(nowMs).getUTCFullYear();
    let year = Math.floor(nowYear / 100) * 100 + Number(match[3]);
    if (year > nowYear + 50) year -= 100;
    parts = [year, match[2], match[1], match[4], match[5], match[6]];
  } else if ((match = ASCTIME_DATE.exec(value))) {
    parts = [Number(match[6]), match[1], match[2].trim(), match[3], match[4], match[5]];
  }
  if (!parts) return undefined;
  const [year, month, day, h, m, s] = parts;
  const ms = Date.UTC(year, MONTHS.indexOf(month), Number(day), Number(h), Number(m), Number(s));
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * Parses Retry-After into milliseconds from `nowMs`: delta-seconds (digits only) or an HTTP-date, nothing else.
 * Undefined for a missing or malformed header (the caller falls back to ordinary backoff); never negative.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header == null) return undefined;
  const value = header.trim();
  if (/^\d{1,10}$/.test(value)) return Number(value) * 1000;
  const date = parseHttpDate(value, nowMs);
  return date === undefined ? undefined : Math.max(0, date - nowMs);
}

/** The wait actually used for a Retry-After: within MIN_RETRY_AFTER_MS and MAX_RETRY_AFTER_MS. */
export function boundedRetryAfter(ms: number): number {
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(MIN_RETRY_AFTER_MS, ms));
}
