import { isLoopbackHost } from '../api/url';
import { inert } from '../base/inert';
import { t } from '../base/l10n';

/**
 * Where the service's own web pages are (Open in Browser): the person's templates per kind of row, from
 * `flowsync.webUrl` and each `flowsync.services` entry's `webUrl` (user settings only). Pure: a template is parsed and
 * checked once per settings change (parseWebTemplates), and expanded per click with the API's integers only
 * (expandWebUrl). The API key is never part of it: the templates are the person's text, the values the row's ids.
 */

/** The kinds of rows a template may be given for (a History run is a sync). */
const WEB_KINDS = ['sync', 'flow', 'connection', 'team'] as const;
export type WebKind = (typeof WEB_KINDS)[number];

/** The placeholders a template may hold, each filled with one of the API's integers. */
const PLACEHOLDERS = ['id', 'flow_id', 'team_id'] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];

/** The longest template (characters). */
export const MAX_WEB_URL_CHARS = 2000;

/** Schemes named in the warning: never opened, whatever the template says. */
const REFUSED_SCHEMES: readonly string[] = ['javascript:', 'command:', 'file:', 'data:', 'vscode:', 'vscode-insiders:'];

/** One template, checked: its text and the origin every expansion must keep. */
export interface WebTemplate {
  readonly text: string;
  readonly origin: string;
}

/** A service's templates, by kind (a kind without one: Open in Browser is not offered for it). */
export type WebTemplates = Readonly<Partial<Record<WebKind, WebTemplate>>>;

/** The values of a row: the API's integers (anything else is refused at expansion). */
export type WebValues = Readonly<Partial<Record<Placeholder, unknown>>>;

/** The settings section of the templates: each service's (by service id), read with the services' section. */
export interface WebSection {
  readonly webUrls: ReadonlyMap<string, WebTemplates>;
}

/** The rows' context values (menus) of each kind: `flowsync.<kind>` (a History run: `flowsync.historyEntry`, a sync). */
const KIND_OF_CONTEXT: Readonly<Record<string, WebKind>> = {
  'flowsync.sync': 'sync',
  'flowsync.historyEntry': 'sync',
  'flowsync.flow': 'flow',
  'flowsync.connection': 'connection',
  'flowsync.team': 'team',
};

/**
 * What a row's context value ends with when its service has a template for its kind (`context`: its context value
 * without marks): `.web`, the part the menu's Open in Browser looks for; else nothing.
 */
export function webContextSuffix(context: string, templates: WebTemplates | undefined): string {
  const kind = Object.hasOwn(KIND_OF_CONTEXT, context) ? KIND_OF_CONTEXT[context] : undefined;
  return kind && templates?.[kind] ? '.web' : '';
}

/** A placeholder: `{name}`. */
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** A checked template, or the sentence that says why it is refused. */
export function parseWebTemplate(raw: unknown): WebTemplate | { problem: string } {
  if (typeof raw !== 'string') return { problem: t('it must be a text, an address with placeholders.') };
  const text = raw.trim();
  if (!text) return { problem: t('it is empty.') };
  if (text.length > MAX_WEB_URL_CHARS) {
    return { problem: t('it is longer than {0} characters.', MAX_WEB_URL_CHARS.toLocaleString('en-US')) };
  }
  const scheme = /^\s*([a-z][a-z0-9+.-]*:)/i.exec(text)?.[1].toLowerCase();
  if (scheme && REFUSED_SCHEMES.includes(scheme)) {
    return { problem: t('a {0} address is never opened; give an https: address.', scheme) };
  }
  for (const [, name] of text.matchAll(PLACEHOLDER)) {
    if (!(PLACEHOLDERS as readonly string[]).includes(name)) {
      return {
        problem: t(
          'it has the unknown placeholder {0}; the known ones are {1}.',
          `{${inert(name, 40)}}`,
          '{id}, {flow_id}, {team_id}',
        ),
      };
    }
  }
  if (/[{}]/.test(text.replace(PLACEHOLDER, ''))) return { problem: t('it has a brace that is not a placeholder.') };
  const first = checkedUrl(text.replace(PLACEHOLDER, '0'));
  if ('problem' in first) return first;
  const second = checkedUrl(text.replace(PLACEHOLDER, '1'));
  if ('problem' in second || second.origin !== first.origin) {
    return { problem: t('a placeholder may not be part of its host.') };
  }
  return Object.freeze({ text, origin: first.origin });
}

/** The URL's origin when it may be opened: https:, or http: to this machine; no user name or password. */
function checkedUrl(text: string): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: t('it is not an address (such as https://app.example.com/flows/{0}).', '{id}') };
  }
  if (REFUSED_SCHEMES.includes(url.protocol)) {
    return { problem: t('a {0} address is never opened; give an https: address.', url.protocol) };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return {
      problem: t('plain http: is allowed only for this machine (localhost, 127.0.0.1, ::1); give an https: address.'),
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { problem: t('a {0} address is never opened; give an https: address.', inert(url.protocol, 40)) };
  }
  if (url.username || url.password) return { problem: t('it must not hold a user name or password.') };
  return { origin: url.origin };
}

/**
 * Reads one setting's object of templates (`flowsync.webUrl`, or an entry's `webUrl`): the kinds it gives a usable
 * template for, and one warning per template refused, naming the setting (`setting`, e.g. "flowsync.webUrl") and the
 * kind. Never throws; undefined and null give none.
 */
export function parseWebTemplates(raw: unknown, setting: string): { templates: WebTemplates; warnings: string[] } {
  const templates: Partial<Record<WebKind, WebTemplate>> = {};
  const warnings: string[] = [];
  if (raw === undefined || raw === null) return { templates, warnings };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    warnings.push(
      t(
        '{0} is ignored: it must be an object of addresses per kind, such as {1}.',
        setting,
        '{ "sync": "https://…/{id}" }',
      ),
    );
    return { templates, warnings };
  }
  for (const [kind, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!(WEB_KINDS as readonly string[]).includes(kind)) {
      warnings.push(t('{0}.{1} is ignored: the kinds are {2}.', setting, inert(kind, 40), WEB_KINDS.join(', ')));
      continue;
    }
    const parsed = parseWebTemplate(value);
    if ('problem' in parsed) warnings.push(t('{0}.{1} is ignored: {2}', setting, kind, parsed.problem));
    else templates[kind as WebKind] = parsed;
  }
  return { templates: Object.freeze(templates), warnings };
}

/** The kinds whose rows carry no team in the API (a flow sync, its flow): their {team_id} is the service's team filter. */
const TEAMLESS_KINDS: readonly WebKind[] = ['sync', 'flow'];

/**
 * A service's templates with `{team_id}` decided before any click: in a sync's or a flow's template it is the
 * service's team filter (`teamId`, digits), written in; without a team filter such a template is not offered, and a
 * warning names the setting (`setting`), the kind and why. Other kinds keep `{team_id}`: their rows carry their team.
 */
export function withTeamFilter(
  templates: WebTemplates,
  teamId: string,
  setting: string,
): { templates: WebTemplates; warnings: string[] } {
  let decided: Partial<Record<WebKind, WebTemplate>> | undefined;
  const warnings: string[] = [];
  for (const kind of TEAMLESS_KINDS) {
    const template = templates[kind];
    if (!template?.text.includes('{team_id}')) continue;
    decided ??= { ...templates };
    if (/^\d+$/.test(teamId)) {
      // Digits only, and never in the host (parseWebTemplate): the origin stays the template's.
      decided[kind] = Object.freeze({ text: template.text.replaceAll('{team_id}', teamId), origin: template.origin });
      continue;
    }
    delete decided[kind];
    warnings.push(
      t(
        '{0}.{1} is not offered while its service has no team filter: a {1} carries no team to fill {2}. Filter by team, or take {2} out of the address.',
        setting,
        kind,
        '{team_id}',
      ),
    );
  }
  return { templates: decided ? Object.freeze(decided) : templates, warnings };
}

/**
 * The address of one row: the template with each placeholder filled with the row's value, each a safe non-negative
 * integer (the API's ids), percent-encoded; the result parsed again and kept only when it has the template's origin
 * and no user name or password. Undefined when a value is missing or not such an integer.
 */
export function expandWebUrl(template: WebTemplate, values: WebValues): string | undefined {
  let missing = false;
  const text = template.text.replace(PLACEHOLDER, (_, name: Placeholder) => {
    const value = values[name];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      missing = true;
      return '';
    }
    return encodeURIComponent(String(value));
  });
  if (missing) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.origin !== template.origin || url.username || url.password) return undefined;
  return url.href;
}
