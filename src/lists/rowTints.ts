import { Emitter, type Disposable, type Event } from '../base/events';
import { t } from '../base/l10n';

/**
 * The states that make a row stand out (besides its icon): a sync that reports errors (or a run that had them), a
 * sync past its flow's stuck threshold, a run longer than its flow's usual.
 */
export interface RowStates {
  readonly errors?: boolean;
  readonly stuck?: boolean;
  readonly longer?: boolean;
}

/**
 * How a row stands out: its label's colour (a theme colour id: every theme, high contrast included, draws it in its
 * own colours), a short badge and the words of both (the badge's tooltip; the row's description and accessible name
 * already say them: colour is never the only signal).
 */
export interface RowTint {
  readonly color: string;
  /** One or two letters: each state's, most severe first. */
  readonly badge: string;
  readonly words: string;
}

/** Each state, most severe first: its colour, its letter and its words. The one place rows are tinted. */
const STATES: ReadonlyArray<{ key: keyof RowStates; color: string; letter: () => string; words: () => string }> = [
  { key: 'errors', color: 'list.errorForeground', letter: () => t('E'), words: () => t('errors') },
  { key: 'stuck', color: 'list.warningForeground', letter: () => t('S'), words: () => t('stuck') },
  { key: 'longer', color: 'list.warningForeground', letter: () => t('L'), words: () => t('longer than usual') },
];

/** How a row in `states` stands out: the most severe state's colour, the first two states' letters; none in none. */
export function rowTint(states: RowStates): RowTint | undefined {
  const on = STATES.filter((s) => states[s.key] === true);
  if (on.length === 0) return undefined;
  return {
    color: on[0].color,
    badge: on[0].letter() + (on[1]?.letter() ?? ''),
    words: on.map((s) => s.words()).join(', '),
  };
}

/** The most rows remembered tinted (a view's rows: a list's cap is far below); the oldest set are forgotten first. */
const MAX_TINTED = 200_000;

/**
 * The tint of each row drawn, by the row's key (its decoration URI), and which rows' tints changed: what a decoration
 * provider answers from, and the rows whose decoration it says changed (only those, gathered over one turn: a poll
 * that redraws a hundred rows tells once). Only tinted rows are kept; a row drawn untinted is forgotten.
 */
export class RowTints implements Disposable {
  private readonly tints = new Map<string, RowTint>();
  private readonly pending = new Set<string>();
  private readonly changes = new Emitter<readonly string[]>();
  /** The keys of the rows whose tint changed (came, went or is another), once per turn. */
  readonly onDidChange: Event<readonly string[]> = this.changes.event;

  /**
   * `later`: runs the gathered changes after the current turn (a test runs them at once). queueMicrotask is called as
   * a function: kept as this object's method, a browser throws "Illegal invocation" (the web worker extension host).
   */
  constructor(private readonly later: (run: () => void) => void = (run) => queueMicrotask(run)) {}

  get(key: string): RowTint | undefined {
    return this.tints.get(key);
  }

  /** A row drawn in `states`: when its tint changed, its key is told with the turn's other changes. */
  set(key: string, states: RowStates): void {
    const tint = rowTint(states);
    if (sameTint(this.tints.get(key), tint)) return;
    this.tints.delete(key); // re-inserted last: the oldest set are forgotten first
    if (tint) this.tints.set(key, tint);
    while (this.tints.size > MAX_TINTED) this.tints.delete(this.tints.keys().next().value as string);
    this.pending.add(key);
    if (this.pending.size === 1) this.later(() => this.flush());
  }

  /** How many rows are tinted (for tests: memory stays bounded). */
  get size(): number {
    return this.tints.size;
  }

  dispose(): void {
    this.changes.dispose();
  }

  private flush(): void {
    const keys = [...this.pending];
    this.pending.clear();
    if (keys.length) this.changes.fire(keys);
  }
}

function sameTint(a: RowTint | undefined, b: RowTint | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.color === b.color && a.badge === b.badge);
}
