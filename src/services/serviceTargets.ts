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
   * What History, teams, watches and leases are kept under (dataScope). The one service of `flowsync.baseUrl`: its
   * origin, as ever (nothing moves on upgrade). One of several: its base URL, since two services may share an origin
   * with different path prefixes. For a service at the root of its origin the two are the same. Its key is kept for its
   * exact base URL either way (serviceScope).
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
export function serviceTargets(
  settings: { baseUrl: string; teamId: string },
  entries: readonly ServiceEntryLike[],
): ServiceTarget[] {
  if (entries.length === 0) {
    return [{ id: SINGLE_SERVICE_ID, baseUrl: settings.baseUrl, teamId: settings.teamId, bind: 'origin' }];
  }
  return entries.map((e) => ({
    id: e.id,
    name: e.name,
    baseUrl: e.url.baseUrl,
    teamId: e.teamId ?? '',
    bind: 'baseUrl',
  }));
}

/**
 * The slot a target's key is kept in: its exact base URL, for the one service of `flowsync.baseUrl` too, so a key typed
 * for https://host/tenantA is never read for https://host or https://host/tenantB (a key is sent only where it was
 * entered, or explicitly moved). Undefined while its URL is not usable.
 */
export function serviceScope(target: Pick<ServiceTarget, 'baseUrl' | 'bind'>, allowHttp: boolean): string | undefined {
  return parsed(target.baseUrl, allowHttp)?.baseUrl;
}

/** What a target's History, teams, watches and leases are kept under (see `bind`); undefined while its URL is not usable. */
export function dataScope(target: Pick<ServiceTarget, 'baseUrl' | 'bind'>, allowHttp: boolean): string | undefined {
  const url = parsed(target.baseUrl, allowHttp);
  return url && (target.bind === 'origin' ? url.origin : url.baseUrl);
}

/**
 * What a target's History, watches and Clear History marker are kept under: one per entry. An entry with a team filter:
 * its base URL and team (two entries of one URL, one per team, each have their own; serviceEntries refuses two of one
 * URL and one team). An entry without one, and the one service of `flowsync.baseUrl` whatever its team filter: dataScope,
 * where they were kept before (nothing is lost on upgrade). Undefined while the URL is not usable.
 */
export function historyScope(
  target: Pick<ServiceTarget, 'baseUrl' | 'bind' | 'teamId'>,
  allowHttp: boolean,
): string | undefined {
  const scope = dataScope(target, allowHttp);
  return scope && target.bind === 'baseUrl' && target.teamId ? `${scope}#team=${target.teamId}` : scope;
}

/**
 * Earlier versions kept the key of the one service of `flowsync.baseUrl` for its origin. Where it moves to, once: its
 * base URL (undefined at the root of a host, where the slot is the same, or while the URL is not usable).
 */
export function legacyKeyMove(baseUrl: string, allowHttp: boolean): { from: string; to: string } | undefined {
  const url = parsed(baseUrl, allowHttp);
  return url && url.baseUrl !== url.origin ? { from: url.origin, to: url.baseUrl } : undefined;
}

function parsed(baseUrl: string, allowHttp: boolean): ServiceUrl | undefined {
  if (!baseUrl.trim()) return undefined;
  try {
    return parseServiceUrl(baseUrl, { allowHttp });
  } catch (e) {
    if (e instanceof ApiError) return undefined;
    throw e;
  }
}
