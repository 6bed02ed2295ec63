import { t } from '../base/l10n';
import { ApiError } from './errors';

/** The documented version prefix; every endpoint path starts with it. */
export const API_PREFIX = '/api/public/v1';

/** What only parseServiceUrl gives a ServiceUrl: a value of the type is a URL that passed its checks. */
declare const checked: unique symbol;

/** A service URL parsed and checked (parseServiceUrl): parsed once, then handed on as it is. */
export interface ServiceUrl {
  /** Normalised base, no trailing slash, path prefix kept: e.g. https://host/flowsync */
  readonly baseUrl: string;
  /** scheme://host[:port], the origin the API key is bound to. */
  readonly origin: string;
  readonly [checked]: true;
}

/** A configured service URL as read once: none set, usable, or why not (a sentence that says what to fix). */
export type ServiceUrlRead =
  | { readonly kind: 'none' }
  | { readonly kind: 'ok'; readonly service: ServiceUrl }
  | { readonly kind: 'problem'; readonly message: string };

/** True when two reads of a service URL read the same (a new read of an unchanged setting changes nothing). */
export function sameServiceUrlRead(a: ServiceUrlRead | undefined, b: ServiceUrlRead | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === 'ok') return b.kind === 'ok' && a.service.baseUrl === b.service.baseUrl;
  return a.kind === 'none' || (b.kind === 'problem' && a.message === b.message);
}

export interface UrlPolicy {
  /** Allow plain http to hosts other than loopback. */
  allowHttp?: boolean;
}

/**
 * True for hosts that never leave this machine: `localhost` itself, 127.0.0.0/8 and ::1. Not other `*.localhost`
 * names: whether those resolve to loopback depends on the resolver, and a proxy may send them anywhere.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host === '::1' ||
    /^127\.(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){2}$/.test(host)
  );
}

/**
 * Validates and normalises a service URL typed by a person. Throws ApiError('invalidUrl') with a message that says
 * what to fix. A pasted endpoint URL (…/api/public/v1/…) is cut back to its base.
 */
export function parseServiceUrl(input: string, policy: UrlPolicy = {}): ServiceUrl {
  const text = input.trim();
  if (!text) {
    throw new ApiError(
      'invalidUrl',
      t('No service URL is set. Enter the address of your Flow Sync service, e.g. https://flowsync.example.com.'),
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ApiError(
      'invalidUrl',
      t('"{0}" is not a URL. Enter an address such as https://flowsync.example.com.', clip(text)),
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ApiError('invalidUrl', t('The service URL must start with https:// (got {0}).', url.protocol));
  }
  if (url.username || url.password) {
    throw new ApiError(
      'invalidUrl',
      t('The service URL must not contain a user name or password; the API key is entered separately.'),
    );
  }
  if (url.search || url.hash) {
    throw new ApiError('invalidUrl', t('The service URL must not contain a query (?…) or fragment (#…).'));
  }
  if (url.protocol === 'http:' && !policy.allowHttp && !isLoopbackHost(url.hostname)) {
    throw new ApiError(
      'invalidUrl',
      t(
        'Plain http to {0} would send your API key unencrypted. Use https://, or enable the "flowsync.allowHttp" setting.',
        url.hostname,
      ),
    );
  }
  let path = url.pathname.replace(/\/+$/, '');
  const apiAt = path.indexOf(API_PREFIX);
  if (apiAt >= 0) path = path.slice(0, apiAt);
  return { baseUrl: `${url.origin}${path}`, origin: url.origin } as ServiceUrl;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
