import { ApiError } from '../api/errors';
import { parseServiceUrl, type ServiceUrl, type ServiceUrlRead } from '../api/url';
import type { ExplorerConfig } from '../lists/explorer';
import { field, sameFields, type Field } from '../lists/rowFields';
import { teamKey, type SettingValues } from '../settings/settingValues';
import type { WebTemplates } from '../webPages/webUrl';

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
  /** false when its entry says `"teamHistory": false`: its runs are neither sent to the team's store nor merged. */
  readonly teamHistory?: boolean;
}

/** The id of the one service of `flowsync.baseUrl`. */
export const SINGLE_SERVICE_ID = 'default';

/** A valid entry of `flowsync.services` (see serviceEntries.ts). */
export interface ServiceEntryLike {
  readonly id: string;
  readonly name: string;
  readonly url: ServiceUrl;
  readonly teamId?: string;
  /** false: its History is not shared with the team (`"teamHistory": false`). */
  readonly teamHistory?: false;
  /** Its web pages (its `webUrl`, checked): not part of its target, so a change never makes the service again. */
  readonly web?: WebTemplates;
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
    ...(e.teamHistory === false ? { teamHistory: false } : {}),
  }));
}

/**
 * Every field of a target, declared once (a Record over its keys: a new field that is not declared here does not
 * compile). sameTarget is derived from them, so a service whose entry changes in any field is retargeted.
 */
const TARGET_FIELDS: { readonly [K in keyof Required<ServiceTarget>]: Field<ServiceTarget> } = {
  id: field((t) => t.id),
  name: field((t) => t.name),
  baseUrl: field((t) => t.baseUrl),
  teamId: field((t) => t.teamId),
  bind: field((t) => t.bind),
  teamHistory: field((t) => t.teamHistory),
};

/** True when the settings describe a service the same way in every field (else it is retargeted). */
export const sameTarget: (a: ServiceTarget, b: ServiceTarget) => boolean = sameFields(Object.values(TARGET_FIELDS));

/** The settings of the whole window that each service's settings are made from. */
export type WindowSettings = Pick<SettingValues, 'autoRefresh' | 'refreshIntervalSeconds' | 'requestTimeoutSeconds'> & {
  readonly allowHttp: boolean;
};

/**
 * One service's settings, the one value every reader of them uses: its Explorer (client, polls, where its data is
 * kept), the sharing of its polls and the tools (each reads its Explorer's). Made by serviceSettings from its target
 * and the window's settings, its URL parsed once. A per-service setting is added here: to ServiceTarget when an entry
 * of flowsync.services may set it, and to serviceSettings, which applies it.
 */
export type ServiceSettings = Readonly<Omit<ExplorerConfig, 'apiKey' | 'secretsError' | 'userAgent'>>;

/**
 * A service's settings (see ServiceSettings): what its Explorer is configured with, but its key. The URL of an entry of
 * `flowsync.services` is taken as the settings parsed it (`services`: the snapshot's entries), never parsed again.
 */
export function serviceSettings(
  target: ServiceTarget,
  settings: WindowSettings & { readonly services?: readonly ServiceEntryLike[] },
): ServiceSettings {
  const { allowHttp } = settings;
  const entry = settings.services?.find((e) => e.id === target.id && e.url.baseUrl === target.baseUrl);
  const service: ServiceUrlRead = entry ? { kind: 'ok', service: entry.url } : readUrl(target.baseUrl, allowHttp);
  return {
    baseUrl: target.baseUrl,
    service,
    ...scopesOf(service.kind === 'ok' ? service.service : undefined, target),
    teamId: target.teamId,
    allowHttp,
    timeoutMs: settings.requestTimeoutSeconds * 1000,
    autoRefresh: settings.autoRefresh,
    refreshIntervalMs: settings.refreshIntervalSeconds * 1000,
  };
}

/**
 * Where a target's things are kept, from its URL parsed once (each undefined while the URL is not usable):
 * - `keySlot`: its key, kept for its exact base URL, for the one service of `flowsync.baseUrl` too, so a key typed for
 *   https://host/tenantA is never read for https://host or https://host/tenantB (a key is sent only where it was
 *   entered, or explicitly moved);
 * - `scope`: its History, teams, watches and leases (see `bind`);
 * - `historyScope`: its History, watches and Clear History marker: one per entry. An entry with a team filter: its base
 *   URL and team (two entries of one URL, one per team, each have their own; serviceEntries refuses two of one URL and
 *   one team). An entry without one, and the one service of `flowsync.baseUrl` whatever its team filter: `scope`,
 *   where they were kept before (nothing is lost on upgrade).
 */
export function scopes(
  target: Pick<ServiceTarget, 'baseUrl' | 'bind' | 'teamId'>,
  allowHttp: boolean,
): { keySlot?: string; scope?: string; historyScope?: string } {
  return scopesOf(parsed(target.baseUrl, allowHttp), target);
}

/** The scopes of a target (see `scopes`) from its URL as parsed (undefined while not usable). */
function scopesOf(
  url: ServiceUrl | undefined,
  target: Pick<ServiceTarget, 'bind' | 'teamId'>,
): { keySlot?: string; scope?: string; historyScope?: string } {
  const scope = url && (target.bind === 'origin' ? url.origin : url.baseUrl);
  return {
    keySlot: url?.baseUrl,
    scope,
    historyScope:
      scope && target.bind === 'baseUrl' && target.teamId ? `${scope}#team=${teamKey(target.teamId)}` : scope,
  };
}

/** The slot a target's key is kept in (see `scopes`); undefined while its URL is not usable. */
export function serviceScope(target: Pick<ServiceTarget, 'baseUrl' | 'bind'>, allowHttp: boolean): string | undefined {
  return scopes({ ...target, teamId: '' }, allowHttp).keySlot;
}

/** What a target's History, teams, watches and leases are kept under (see `bind`); undefined while its URL is not usable. */
export function dataScope(target: Pick<ServiceTarget, 'baseUrl' | 'bind'>, allowHttp: boolean): string | undefined {
  return scopes({ ...target, teamId: '' }, allowHttp).scope;
}

/** What a target's History, watches and Clear History marker are kept under (see `scopes`). */
export function historyScope(
  target: Pick<ServiceTarget, 'baseUrl' | 'bind' | 'teamId'>,
  allowHttp: boolean,
): string | undefined {
  return scopes(target, allowHttp).historyScope;
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
  const read = readUrl(baseUrl, allowHttp);
  return read.kind === 'ok' ? read.service : undefined;
}

/** Reads a configured URL, once: none, usable, or the sentence that says what to fix. */
function readUrl(baseUrl: string, allowHttp: boolean): ServiceUrlRead {
  if (!baseUrl.trim()) return { kind: 'none' };
  try {
    return { kind: 'ok', service: parseServiceUrl(baseUrl, { allowHttp }) };
  } catch (e) {
    if (e instanceof ApiError) return { kind: 'problem', message: e.message };
    throw e;
  }
}
