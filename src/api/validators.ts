import { hasKeyPiece } from '../base/inert';

/**
 * An answer's validators (issue #38): the `ETag` and `Last-Modified` a service sent with it, sent back on the next
 * request for the same list, team filter and key as `If-None-Match` / `If-Modified-Since`, so that an unchanged list
 * costs the service a `304` without a body. They are service text that goes back into a request header: a value is
 * kept only within bounds (length, characters, form), else it is ignored and the next request is not conditional.
 */
export interface Validators {
  /** A strong or weak entity tag, quoted as the service sent it: `"…"` or `W/"…"`. */
  etag?: string;
  /** An HTTP date (IMF-fixdate), as the service sent it. */
  lastModified?: string;
}

/** The longest ETag kept (the quotes and any `W/` included); a longer one is ignored. */
const MAX_ETAG_CHARS = 200;

/** RFC 9110 entity-tag, visible ASCII only (no obs-text): `W/`, then a quoted string of any visible character but `"`. */
const ETAG = /^(?:W\/)?"[\x21\x23-\x7e]*"$/;
/** RFC 9110 IMF-fixdate, e.g. `Fri, 27 Nov 2026 09:00:00 GMT`: 29 characters, no other form. */
const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * The validators of an answer, within bounds; undefined when it has none that may be sent back. A value holding a
 * piece of `key` is not kept either (it would only go back to the same service, but it is kept nowhere).
 */
export function readValidators(header: (name: string) => string | null, key?: string): Validators | undefined {
  const etag = header('etag') ?? undefined;
  const lastModified = header('last-modified') ?? undefined;
  const v: Validators = {};
  if (etag !== undefined && etag.length <= MAX_ETAG_CHARS && ETAG.test(etag) && !hasKeyPiece(etag, key)) {
    v.etag = etag;
  }
  if (lastModified !== undefined && IMF_FIXDATE.test(lastModified) && Number.isFinite(Date.parse(lastModified))) {
    v.lastModified = lastModified;
  }
  return v.etag !== undefined || v.lastModified !== undefined ? v : undefined;
}

/** The request headers that make a request conditional on `v` (none without validators). */
export function conditionalHeaders(v: Validators | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (v?.etag !== undefined) headers['If-None-Match'] = v.etag;
  if (v?.lastModified !== undefined) headers['If-Modified-Since'] = v.lastModified;
  return headers;
}
