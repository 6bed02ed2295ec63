/**
 * The one error family the API client throws. Callers switch on `kind`.
 * Messages are one line a person can act on and never contain the API key.
 */
export type ApiErrorKind =
  | 'unauthorized'
  | 'rateLimited'
  | 'http'
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'invalidResponse'
  | 'invalidUrl';

export interface ApiErrorDetails {
  /** HTTP status, when a response arrived. */
  status?: number;
  /** Error code from the body's `errors[].message` ("CODE: description"), when present. */
  code?: string;
  /** Description from the body's `errors[].message`, when present. */
  description?: string;
  /** Delay the service asked for (Retry-After), in milliseconds. */
  retryAfterMs?: number;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status?: number;
  readonly code?: string;
  readonly description?: string;
  readonly retryAfterMs?: number;

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    details: ApiErrorDetails = {},
  ) {
    super(message);
    this.status = details.status;
    this.code = details.code;
    this.description = details.description;
    this.retryAfterMs = details.retryAfterMs;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

export const UNAUTHORIZED_CODE = 'E_UNAUTHORIZED_ACCESS';

/** Parses the documented error body `{"errors":[{"message":"CODE: description"}]}`; undefined for any other shape. */
export function parseErrorBody(text: string): ErrorBody | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return errorBodyOf(body);
}

export interface ErrorBody {
  code?: string;
  description: string;
}

/** The documented error shape inside an already parsed body; undefined for any other value (arrays included). */
export function errorBodyOf(body: unknown): ErrorBody | undefined {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const message = (errors[0] as { message?: unknown } | null)?.message;
  if (typeof message !== 'string') return undefined;
  const match = /^\s*([A-Z][A-Z0-9_]*)\s*:\s*(.*)$/s.exec(message);
  return match ? { code: match[1], description: oneLine(match[2]) } : { description: oneLine(message) };
}

/**
 * Parses Retry-After (delta-seconds or HTTP-date) into milliseconds from `nowMs`.
 * Returns undefined for a missing or unparseable header; never negative.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header == null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Collapses whitespace and clips text so it fits a status line or notification. */
export function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Removes every occurrence of `secret` from `text` (belt and braces: messages are built without the key anyway). */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join('***');
}
