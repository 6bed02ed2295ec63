import type { ListState } from '../lists/refresh';
import type { ExplorerStatus } from '../lists/explorer';
import type { FilterLive } from '../filter/filterMatch';
import type { WebTemplates } from '../webPages/webUrl';
import type { Item } from '../api/types';
import { asSentence } from '../base/format';
import { Answer, computed, quote, t, type Data, type Own } from './dataBlock';
import { ago, beginAnswer } from './answerParts';

/**
 * What the list tools' answers (flowsync_processing, flowsync_connections) share: a list's snapshot, its scope, its
 * freshness, its rows. Pure.
 */

/** What a result is built from: a snapshot of what the extension holds for one list. */
export interface ToolSnapshot<T> {
  status: ExplorerStatus;
  /** Why the status is not 'ready', when known. */
  detail?: string;
  state: Readonly<ListState<T>>;
  /** The team filter the lists were loaded with ('' = all teams). */
  teamId: string;
  /** Teams seen so far: to name the team filter and to find a team by name. */
  teams: readonly { id: string; name: string }[];
  now: number;
  /**
   * The API key of the current service, when the caller has it: removed from every text of the result (inert's
   * `hide`), should the service echo it in a name or message. A result goes to a language model, often a remote one.
   */
  hide?: string;
  /** The service's name, with several services: the "service" line of the answer's block (settings text: data). */
  service?: string;
  /** What History knows of a processing sync for a filter (is:stuck, is:watched, is:longer, its age). */
  live?(value: T, now: number): FilterLive;
  /** The service's web page templates (Open in Browser): a row of a kind with one carries its `url`. */
  pages?: WebTemplates;
}

/**
 * An answer that starts with `header`; the name of the team the lists were loaded with goes into the block. How to
 * set it up instead (the whole answer) while the service cannot load anything.
 */
export function scoped(s: ToolSnapshot<unknown>, header: Own): Answer | string {
  const a = beginAnswer(s, header);
  if (typeof a === 'string') return a;
  const id = teamIdText(s.teamId);
  const name = s.teamId ? s.teams.find((team) => team.id === s.teamId)?.name : undefined;
  if (id && name) a.note(t('name of team #{0}: {1}', id, quote(name, s.hide)));
  return a;
}

/** "all teams" or the team the lists were loaded with, by its id: `team #3` (its name is a note of the block). */
export function scopeText(s: ToolSnapshot<unknown>): Own {
  if (!s.teamId) return t('all teams');
  const id = teamIdText(s.teamId);
  return id ? t('team #{0}', id) : t('one team');
}

/** The team filter's id as own text: the settings allow digits only, and anything else is not written. */
export function teamIdText(teamId: string): Own | undefined {
  return /^\d{1,18}$/.test(teamId) ? computed(teamId) : undefined;
}

/**
 * Adds the lines about freshness and trouble (the error message is a note of the block); false when there is nothing
 * to list (never loaded, or the load failed before any data arrived), the lines then say why.
 */
export function loadedOrExplained(s: ToolSnapshot<unknown>, label: Own, a: Answer): boolean {
  const { state, now } = s;
  if (state.error) {
    a.note(t('last error: {0}', quote(asSentence(state.error.message), s.hide, 500)));
    if (!state.items) {
      a.say(t('The {0} could not be loaded. The message is the "last error" line of the data block.', label));
      return false;
    }
    a.say(
      t(
        'The last refresh failed (its message is the "last error" line of the data block). The data below is from {0}.',
        ago(state.loadedAt ?? now, now),
      ),
    );
  }
  if (!state.items) {
    a.say(t('The {0} are not loaded yet. Try again in a moment.', label));
    return false;
  }
  if (!state.error && state.loadedAt !== undefined) a.say(t('Loaded {0}.', ago(state.loadedAt, now)));
  if (state.dropped > 0) {
    a.say(t('{0} item(s) from the service were left out because they did not have the expected shape.', state.dropped));
  }
  return true;
}

/** The counts line, the rows (only those listed are formatted) and the "N more" line. */
export function finish<T>(
  a: Answer,
  matching: readonly Item<T>[],
  total: number,
  max: number,
  row: (item: Item<T>) => Data,
  order: Own,
): string {
  if (a.hasFilters()) {
    a.say(t('Filters (the "filters" line of the data block): {0} of {1} match.', matching.length, total));
  } else a.say(t('{0} in all.', total));
  if (matching.length === 0) return a.say(t('Nothing to list.')).text();
  const shown = matching.slice(0, max);
  a.say(t('Listed {0}, {1}.', shown.length, order));
  for (const item of shown) a.row(row(item));
  return a.more(matching.length - shown.length).text();
}
