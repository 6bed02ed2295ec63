/**
 * The one error family the API client throws. Callers switch on `kind`.
 * Messages are one line a person can act on and never contain the API key. What an error answer says (its body,
 * Retry-After) is read in errorAnswers.ts.
 */
export const API_ERROR_KINDS = [
  'unauthorized',
  'rateLimited',
  'http',
  'network',
  'certificate',
  'timeout',
  'cancelled',
  'invalidResponse',
  'invalidUrl',
] as const;
export type ApiErrorKind = (typeof API_ERROR_KINDS)[number];

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
