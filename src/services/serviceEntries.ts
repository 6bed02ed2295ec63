import { ApiError } from '../api/errors';
import { parseServiceUrl, type ServiceUrl, type UrlPolicy } from '../api/url';
import { inert } from '../base/inert';
import { lazyRegExp } from '../base/lazyRegExp';
import { MAX_SERVICE_NAME } from '../base/serviceSet';
import { t } from '../base/l10n';
import { teamIdOf } from '../settings/settingValues';
import { parseWebTemplates, withTeamFilter, type WebTemplates } from '../webPages/webUrl';
import type { ServiceEntryLike } from './serviceTargets';

/** At most this many services are shown; later entries are skipped with a warning. */
export const MAX_SERVICES = 20;
/** The longest name of a service (where every name is shown, src/base/serviceSet.ts). */
export { MAX_SERVICE_NAME };

/**
 * At most this many warnings (each one is a notification): one per skipped entry while they fit, the last one counting
 * the rest. A list of 10,000 entries is 20 services and ten warnings, not 10,000 notifications.
 */
export const MAX_SERVICE_WARNINGS = 10;

/**
 * What tells two service names apart: the name as a person sees it (inert: invisible and bidi characters removed,
 * controls and runs of spaces as one space), in compatibility form (NFKC: a full-width "Ｐ" is a "P"), with the
 * Cyrillic and Greek letters that look like Latin ones read as those (a Cyrillic "о" is an "o", a Greek "Α" an "A":
 * see `skeleton`) and in any letter case. Names with the same key are one name: two services a person cannot tell
 * apart in a pick, a row or a link would let one of them get the key meant for the other. No key is masked here
 * (`''`): a name is compared as written.
 */
export function serviceNameKey(name: string): string {
  return skeleton(inert(name.normalize('NFKC'), MAX_SERVICE_NAME * 4, '').normalize('NFKC')).toLowerCase();
}

/**
 * True when a word of `name` mixes letters of the Latin, Cyrillic and Greek scripts ("Prоduction" with a Cyrillic
 * "о"): such a word is made to look like another. Words of one script each ("Москва Production") are fine.
 */
export function mixesScripts(name: string): boolean {
  for (const word of inert(name.normalize('NFKC'), MAX_SERVICE_NAME * 4, '').match(WORD()) ?? []) {
    const scripts = SCRIPTS.filter((script) => script().test(word));
    if (scripts.length > 1) return true;
  }
  return false;
}
const WORD = lazyRegExp('[\\p{L}\\p{M}]+', 'gu');
const SCRIPTS = ['Latin', 'Cyrillic', 'Greek'].map((script) => lazyRegExp(`\\p{Script=${script}}`, 'u'));

/**
 * `text` with each Cyrillic or Greek letter that looks like a Latin one replaced by that letter, accents kept
 * ("Ё" reads as "Ë"): a small table of the confusables (Unicode TR 39) between these scripts, enough that a name
 * written in look-alike letters has the key of the Latin name it imitates.
 */
function skeleton(text: string): string {
  const { latinOf, pattern } = lookAlikes();
  return text
    .normalize('NFD')
    .replace(pattern, (c) => latinOf[c] ?? c)
    .normalize('NFC');
}

/**
 * Look-alike letter → the Latin letter it looks like, in the same case, and the pattern that finds them: made when a
 * name is first compared (a start without `flowsync.services` compares none), then kept.
 */
function lookAlikes(): { readonly latinOf: Readonly<Record<string, string>>; readonly pattern: RegExp } {
  if (!lookAlikeTable) {
    const latinOf: Readonly<Record<string, string>> = Object.freeze(
      Object.fromEntries([
        // Cyrillic capitals and small letters
        ...pairs('АВЕКМНОРСТХУЅІЈԚԜҮӀԌ', 'ABEKMHOPCTXYSIJQWYIG'),
        ...pairs('аеорсхуѕіјԁԛԝһүӏкԍ', 'aeopcxysijdqwhylkg'),
        // Greek capitals and small letters
        ...pairs('ΑΒΕΖΗΙΚΜΝΟΡΤΥΧϜϺ', 'ABEZHIKMNOPTYXFM'),
        ...pairs('αοικνρυχϲϳ', 'aoikvpuxcj'),
      ]),
    );
    lookAlikeTable = { latinOf, pattern: new RegExp(`[${Object.keys(latinOf).join('')}]`, 'gu') };
  }
  return lookAlikeTable;
}
let lookAlikeTable: ReturnType<typeof lookAlikes> | undefined;

function pairs(from: string, to: string): Array<[string, string]> {
  const letters = [...from];
  return letters.map((c, i) => [c, to[i]]);
}

/** The key of a name without the look-alike letters read as Latin: two names with the same one are the same name. */
function plainKey(name: string): string {
  return inert(name.normalize('NFKC'), MAX_SERVICE_NAME * 4, '')
    .normalize('NFKC')
    .toLowerCase();
}

/** A valid entry of `flowsync.services`. */
export type ServiceEntry = ServiceEntryLike;

/**
 * Why an entry's name is refused (a sentence), or undefined: none, too long, scripts mixed in one word, or one that
 * reads like the name of an entry taken before it (`taken`: the name of each entry taken, by its key).
 */
function nameProblem(name: string, key: string, taken: ReadonlyMap<string, string>): string | undefined {
  if (!key) return t('it has no name.');
  if (name.length > MAX_SERVICE_NAME) return t('its name is longer than {0} characters.', MAX_SERVICE_NAME);
  if (mixesScripts(name)) {
    return t(
      'its name mixes letters of different scripts in one word (such as a Cyrillic "о" in a Latin word), so it can look like another name.',
    );
  }
  const alike = taken.get(key);
  if (alike === undefined) return undefined;
  return plainKey(alike) === plainKey(name)
    ? t('another service has the same name.')
    : t('its name looks like the name of another service ("{0}").', inert(alike, MAX_SERVICE_NAME + 1));
}

/**
 * Reads the raw value of `flowsync.services` (from the user settings: anything at all) into the valid entries, in
 * order, and one warning per skipped entry (see ServiceEntriesRead.choose). Never throws.
 */
export function parseServiceEntries(
  raw: unknown,
  policy: UrlPolicy,
  nameKey: (name: string) => string = serviceNameKey,
): { entries: ServiceEntry[]; warnings: string[] } {
  return new ServiceEntriesRead(raw, policy).choose(nameKey);
}

/** What an item of `flowsync.services` says of itself, read once: its URL and team filter, or why it is skipped. */
type ItemTarget = { readonly url: ServiceUrl; readonly teamId: string } | { readonly problem: string };

/**
 * `flowsync.services` as read once per settings change: each item's URL, team filter and web pages parsed at most once,
 * when first needed, however often the entries are chosen (the settings' read at start, and the registry's again with
 * the full look-alike table once the services' code is loaded: src/services/confusables.ts). The settings snapshot
 * hands it on (ServicesSection.servicesRead), as it hands on a ServiceUrl parsed.
 */
export class ServiceEntriesRead {
  private readonly targets = new Map<number, ItemTarget>();
  private readonly webPages = new Map<number, ReturnType<typeof parseWebTemplates>>();

  constructor(
    private readonly raw: unknown,
    private readonly policy: UrlPolicy,
  ) {}

  /**
   * The valid entries, in order, and one warning per skipped entry, naming it by its position and, when it has one,
   * its name (inert: settings text is data). An entry is skipped when it is not an object, has no name or a name over
   * 60 characters, repeats a name (as `nameKey` compares them: "Staging" and "staging" would be told apart by nobody),
   * has no URL or a URL the service rules refuse, has a team id that is not digits, or has the URL and team filter of
   * an earlier entry (each entry has its own History, watches and Clear History, kept by its URL and team filter: two
   * entries of one URL and one team would show the same data twice and share them); beyond 20 entries the rest are
   * skipped. Skipping one never costs the others. Its `webUrl` (Open in Browser) is read with webPages' rules: a
   * refused template is a warning naming it, and the entry is kept without it. At most MAX_SERVICE_WARNINGS warnings,
   * the last counting the rest. Never throws. `nameKey` compares names: serviceNameKey at start; the services' code
   * passes the full look-alike skeleton (src/services/confusables.ts, its own chunk) and refuses what only that tells
   * apart before it makes a service.
   *
   * An entry's id is its name and its base URL: what views, documents and links know a service by. Renaming a service
   * or pointing it elsewhere makes it a new one (its rows, documents and poller start again); its key is kept by base
   * URL, so a rename keeps the key.
   */
  choose(nameKey: (name: string) => string = serviceNameKey): { entries: ServiceEntry[]; warnings: string[] } {
    const { raw } = this;
    const entries: ServiceEntry[] = [];
    const warnings: string[] = [];
    if (raw === undefined || raw === null) return { entries, warnings };
    if (!Array.isArray(raw)) {
      warnings.push(
        t(
          'flowsync.services must be a list of services, each {0}; it is ignored until fixed.',
          '{ "name": …, "url": … }',
        ),
      );
      return { entries, warnings };
    }
    /** The name of each entry taken, by its key. */
    const taken = new Map<string, string>();
    /** The name of the entry of each base URL and team filter: one entry each (its own History, watches and Clear). */
    const places = new Map<string, string>();
    raw.forEach((item: unknown, index) => {
      const position = index + 1;
      const rawName = typeof item === 'object' && item !== null ? (item as { name?: unknown }).name : undefined;
      const name = typeof rawName === 'string' ? rawName.trim() : '';
      const label = name
        ? t('service {0} ("{1}")', position, inert(name, MAX_SERVICE_NAME + 1))
        : t('service {0}', position);
      const skip = (why: string) => warnings.push(t('Skipped {0} of flowsync.services: {1}', label, why));
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        return skip(t('it is not an object with a name and a url.'));
      }
      if (entries.length >= MAX_SERVICES) return skip(t('at most {0} services are shown.', MAX_SERVICES));
      const key = nameKey(name);
      const nameRefused = nameProblem(name, key, taken);
      if (nameRefused !== undefined) return skip(nameRefused);
      const target = this.targetOf(index, item);
      if ('problem' in target) return skip(target.problem);
      const place = `${target.url.baseUrl}\u0000${target.teamId}`;
      const same = places.get(place);
      if (same !== undefined) {
        return skip(
          t(
            'it has the same url and team filter as "{0}" (one entry per team of a service).',
            inert(same, MAX_SERVICE_NAME + 1),
          ),
        );
      }
      places.set(place, name);
      taken.set(key, name);
      // Its web pages: a refused template is a warning of its own and never costs the entry.
      const web = this.decidedWebPages(index, item, label, target.teamId);
      warnings.push(...web.warnings);
      entries.push(entryOf(name, target, item, web.templates));
    });
    return { entries, warnings: capped(warnings) };
  }

  /** An entry's web pages, `{team_id}` decided by its team filter (webPages/webUrl.ts withTeamFilter), and warnings. */
  private decidedWebPages(
    index: number,
    item: object,
    label: string,
    teamId: string,
  ): ReturnType<typeof withTeamFilter> {
    const setting = t('flowsync.services ({0}): webUrl', label);
    const parsed = this.webPagesOf(index, item, setting);
    const web = withTeamFilter(parsed.templates, teamId, setting);
    return { templates: web.templates, warnings: [...parsed.warnings, ...web.warnings] };
  }

  /** An item's URL and team filter (an object's), read the first time they are needed. */
  private targetOf(index: number, item: object): ItemTarget {
    let target = this.targets.get(index);
    if (!target) this.targets.set(index, (target = readTarget(item, this.policy)));
    return target;
  }

  /** An item's web pages (an entry's), read the first time they are needed; `setting` names it in a warning. */
  private webPagesOf(index: number, item: object, setting: string): ReturnType<typeof parseWebTemplates> {
    let web = this.webPages.get(index);
    if (!web) {
      web = parseWebTemplates((item as { webUrl?: unknown }).webUrl, setting);
      this.webPages.set(index, web);
    }
    return web;
  }
}

/** The entry of an item that passed every check: its id is its name and its base URL. */
function entryOf(
  name: string,
  target: { readonly url: ServiceUrl; readonly teamId: string },
  item: object,
  web: WebTemplates,
): ServiceEntry {
  return {
    id: `${name}\u0000${target.url.baseUrl}`,
    name,
    url: target.url,
    ...(target.teamId ? { teamId: target.teamId } : {}),
    ...((item as { teamHistory?: unknown }).teamHistory === false ? { teamHistory: false as const } : {}),
    ...(Object.keys(web).length ? { web } : {}),
  };
}

/** At most MAX_SERVICE_WARNINGS warnings, the last counting the rest (in place). */
function capped(warnings: string[]): string[] {
  if (warnings.length > MAX_SERVICE_WARNINGS) {
    const rest = warnings.length - (MAX_SERVICE_WARNINGS - 1);
    warnings.splice(
      MAX_SERVICE_WARNINGS - 1,
      rest,
      t('Skipped {0} more entries of flowsync.services.', rest.toLocaleString('en-US')),
    );
  }
  return warnings;
}

/** An item's URL, parsed by the service rules, and its team filter: digits only. */
function readTarget(item: object, policy: UrlPolicy): ItemTarget {
  const url = (item as { url?: unknown }).url;
  if (typeof url !== 'string' || !url.trim()) return { problem: t('it has no url.') };
  let parsed: ServiceUrl;
  try {
    parsed = parseServiceUrl(url, policy);
  } catch (e) {
    return { problem: e instanceof ApiError ? e.message : t('its url is not usable.') };
  }
  const teamId = teamIdOf((item as { teamId?: unknown }).teamId);
  if (teamId === undefined) return { problem: t('its teamId must be digits only, such as 42.') };
  return { url: parsed, teamId };
}
