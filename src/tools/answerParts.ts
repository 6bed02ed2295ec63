import { asSentence, timeAgo } from '../base/format';
import { parseFilter, MAX_FILTER_LENGTH, type Filter, type FilterView } from '../filter/filterQuery';
import type { ExplorerStatus } from '../lists/explorer';
import { MAX_WEB_URL_CHARS, expandWebUrl, type WebKind, type WebTemplates, type WebValues } from '../webPages/webUrl';
import { Answer, computed, quote, t, type Data, type Own } from './dataBlock';

/** The parts of an answer that several tools share: not set up, the service's line, a filter, a row's page, a query. */

/** The answer while the extension cannot load anything: how to set it up (for the service named, with several). */
export function notSetUpText(status: ExplorerStatus, detail?: string, hide?: string, service?: string): string {
  const a = serviceAnswer(service, hide);
  switch (status) {
    case 'noUrl':
      return a
        .say(
          t(
            'Flow Sync is not set up yet: no service URL is set. Ask the person to run "Flow Sync: Set Service URL..." and then "Flow Sync: Set API Key..." from the Command Palette.',
          ),
        )
        .text();
    case 'invalidUrl':
      a.say(
        t(
          'Flow Sync is not set up: the service URL in the settings cannot be used. Ask the person to run "Flow Sync: Set Service URL..." from the Command Palette.',
        ),
      );
      break;
    case 'noKey':
      return a
        .say(
          t(
            'Flow Sync is not set up yet: no API key is set. Ask the person to run "Flow Sync: Set API Key..." from the Command Palette.',
          ),
        )
        .text();
    case 'secretsUnavailable':
      a.say(
        t(
          'Flow Sync cannot read the API key from the system keyring. Ask the person to install or unlock a keyring and then run "Flow Sync: Set API Key...".',
        ),
      );
      break;
    case 'ready':
      return '';
  }
  if (detail !== undefined) {
    a.say(t('The reason is the "problem" line of the data block.')).note(
      t('problem: {0}', quote(asSentence(detail), hide, 300)),
    );
  }
  return a.text();
}

/** What a tool's answer reads of its service: whether it can load anything (why not), its key, its name. */
interface AnswerService {
  readonly status: ExplorerStatus;
  readonly detail?: string;
  readonly hide?: string;
  readonly service?: string;
}

/**
 * How one service's answer begins: while the service cannot load anything, the whole answer is how to set it up (a
 * string); else an Answer that says `header`, its block's "service" line naming the service (with several services).
 */
export function beginAnswer(s: AnswerService, header: Own): Answer | string {
  if (s.status !== 'ready') return notSetUpText(s.status, s.detail, s.hide, s.service);
  return serviceAnswer(s.service, s.hide).say(header);
}

/** An answer of one service: the block's "service" line names it (with several services). */
function serviceAnswer(service: string | undefined, hide: string | undefined): Answer {
  const a = new Answer();
  if (service !== undefined) a.note(serviceLine(service, hide));
  return a;
}

/** The block's "service" line: the name of the service its rows are from (settings text, so data). */
function serviceLine(service: string, hide?: string): Data {
  return t('service: {0}', quote(service, hide, 60));
}

/**
 * Reads a `filter` input for a view's language: it goes on the block's "filters" line (the caller's text: data); a
 * malformed one is answered with its problem sentence, as data, and nothing is listed (undefined).
 */
export function readFilter(a: Answer, input: string, view: FilterView, hide: string | undefined): Filter | undefined {
  a.filter(t('filter {0}', quote(input, hide, MAX_FILTER_LENGTH)));
  const parsed = parseFilter(input, view);
  if (parsed.filter) return parsed.filter;
  a.note(t('filter problem: {0}', quote(parsed.problem, hide, 300)));
  a.say(
    t(
      'The filter asked for (the "filters" line of the data block) cannot be read; the "filter problem" line of the data block says why. Nothing is listed: ask again with the filter corrected.',
    ),
  );
  return undefined;
}

/** A row's web page (Open in Browser), as data inside the block: none without a template for its kind. */
export function pageCell(
  pages: WebTemplates | undefined,
  kind: WebKind,
  values: WebValues,
  hide: string | undefined,
): Data[] {
  const template = pages?.[kind];
  const url = template && expandWebUrl(template, values);
  return url ? [t('url {0}', quote(url, hide, MAX_WEB_URL_CHARS + 100))] : [];
}

export function ago(at: number, now: number): Own {
  return computed(timeAgo(new Date(at).toISOString(), now));
}

/** "12" or "#12": a team or flow id. */
export function idQuery(query: string): string | undefined {
  const match = /^#?\s*(\d{1,18})$/.exec(query);
  return match ? String(BigInt(match[1])) : undefined;
}

/**
 * What answers a query for a flow or a team: an id query ("42", "#42") the same id; any other text a part of the name,
 * in any letter case. A name that is not known answers only an id query.
 */
export function matcher(query: string): (id: number | string, name: string | undefined) => boolean {
  const id = idQuery(query);
  const text = query.toLowerCase();
  return (itemId, name) =>
    id !== undefined ? String(itemId) === id : name !== undefined && name.toLowerCase().includes(text);
}
