import { t } from '../base/l10n';

/** How long the window must have been without the focus before news is held for one summary (ms). */
export const AWAY_MS = 5 * 60_000;

/** The kinds of news a person is told of as it happens, and summed up after an absence. */
export type NewsKind = 'finished' | 'stuck' | 'errors' | 'slower';

/** The most services a summary names; the rest are counted. */
const MAX_NAMED = 3;

/** What the summary of an absence says: the text, and whether it has news (always, when it is made). */
export interface AwayText {
  readonly text: string;
}

/**
 * "While you were away": news (finished, stuck, errors, slower) is said as it happens while the window has the focus or
 * lost it less than AWAY_MS ago; after that it is held, counted per kind (and the services it came from), and said as
 * one summary when the window has the focus again, instead of a burst of notifications. Pure: the time is the
 * caller's (`now`), the focus is told (`focus`). Bounded: counts and at most 20 service names.
 */
export class AwaySummary {
  private unfocusedSince: number | undefined;
  private readonly held = new Map<NewsKind, number>();
  private readonly services = new Set<string>();

  constructor(private readonly now: () => number) {}

  /**
   * Whether news of `kind` (`count` syncs or flows, of the service named `service` when there are several) is said
   * now; false: it is held for the summary.
   */
  offer(kind: NewsKind, count: number, service?: string): boolean {
    if (this.unfocusedSince === undefined || this.now() - this.unfocusedSince <= AWAY_MS) return true;
    const n = Number.isSafeInteger(count) && count > 0 ? count : 1;
    this.held.set(kind, Math.min((this.held.get(kind) ?? 0) + n, 1_000_000));
    if (service !== undefined && this.services.size < 20) this.services.add(service);
    return false;
  }

  /** The window gained (true) or lost (false) the focus; the summary to say now, when news was held. */
  focus(focused: boolean): AwayText | undefined {
    if (!focused) {
      this.unfocusedSince ??= this.now();
      return undefined;
    }
    this.unfocusedSince = undefined;
    if (this.held.size === 0) return undefined;
    const text = summaryText(this.held, [...this.services]);
    this.held.clear();
    this.services.clear();
    return { text };
  }
}

/** "While you were away: 3 flow syncs finished, 1 became stuck, 2 reported errors, 1 flow ran slower than usual." */
function summaryText(held: ReadonlyMap<NewsKind, number>, services: readonly string[]): string {
  const parts: string[] = [];
  const finished = held.get('finished');
  if (finished) parts.push(finished === 1 ? t('1 flow sync finished') : t('{0} flow syncs finished', finished));
  const stuck = held.get('stuck');
  if (stuck) parts.push(stuck === 1 ? t('1 sync became stuck') : t('{0} syncs became stuck', stuck));
  const errors = held.get('errors');
  if (errors) parts.push(errors === 1 ? t('1 sync reported errors') : t('{0} syncs reported errors', errors));
  const slower = held.get('slower');
  if (slower) {
    parts.push(slower === 1 ? t('1 flow ran slower than usual') : t('{0} flows ran slower than usual', slower));
  }
  const named = services.filter((_, i) => i < MAX_NAMED).join(', '); // names from the user's settings
  const more = services.length - MAX_NAMED;
  const where = services.length === 0 ? '' : more > 0 ? t(' ({0} and {1} more)', named, more) : ` (${named})`;
  return t('While you were away{0}: {1}.', where, parts.join(', '));
}
