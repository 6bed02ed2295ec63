import { ApiError } from '../api/errors';
import { parseServiceUrl, type ServiceUrl } from '../api/url';

/**
 * One service a window shows: the one of `flowsync.baseUrl` (while `flowsync.services` is empty, exactly as before
 * there were several), or one entry of `flowsync.services`. Pure: the settings snapshot in, the targets out.
 */
export interface ServiceTarget {
  /** Stable while the entry keeps its URL and name: what the views, documents and links know a service by. */
  readonly id: string;
  /** The name shown, with several services; undefined for the one service of `flowsync.baseUrl`. */
  readonly name?: string;
  /** The URL as configured (the Explorer validates it and says what is wrong). */
  readonly baseUrl: string;
  readonly teamId: string;
  /**
   * What the key, History, teams, watches and leases are kept under. The one service of `flowsync.baseUrl`: its origin,
   * as ever (nothing moves on upgrade). One of several: its base URL, since two services may share an origin with
   * different path prefixes and each has its own key. For a service at the root of its origin the two are the same.
   */
  readonly bind: 'origin' | 'baseUrl';
}

/** The id of the one service of `flowsync.baseUrl`. */
export const SINGLE_SERVICE_ID = 'default';

/** A valid entry of `flowsync.services` (see serviceEntries.ts). */
export interface ServiceEntryLike {
  readonly id: string;
  readonly name: string;
  readonly url: ServiceUrl;
  readonly teamId?: string;
}

/** The services to show: the entries when there are any, else the one of `flowsync.baseUrl`. */
export function serviceTargets(settings: { baseUrl: string; teamId: string }, entries: readonly ServiceEntryLike[]): ServiceTarget[] {
  if (entries.length === 0) return [{ id: SINGLE_SERVICE_ID, baseUrl: settings.baseUrl, teamId: settings.teamId, bind: 'origin' }];
  return entries.map((e) => ({ id: e.id, name: e.name, baseUrl: e.url.baseUrl, teamId: e.teamId ?? '', bind: 'baseUrl' }));
}

/**
 * Where a target's key is kept (and its History, teams, watches and leases): its origin or its base URL (see `bind`);
 * undefined while its URL is not usable.
 */
export function serviceScope(target: Pick<ServiceTarget, 'baseUrl' | 'bind'>, allowHttp: boolean): string | undefined {
  if (!target.baseUrl.trim()) return undefined;
  try {
    const url = parseServiceUrl(target.baseUrl, { allowHttp });
    return target.bind === 'origin' ? url.origin : url.baseUrl;
  } catch (e) {
    if (e instanceof ApiError) return undefined;
    throw e;
  }
}
