/** The most items the lists of all services of one window may hold together (each answer is capped at MAX_ITEMS too). */
export const MAX_WINDOW_ITEMS = 200_000;

/**
 * One list of one service, as the window's budget counts it: what it holds now, and whether an answer would fit.
 * Made by WindowBudget.holder(); ListRefresher tells it what the list holds after every change.
 */
export interface ItemHolder {
  /** Whether an answer of `count` items fits: what this list holds now is given back first. */
  fits(count: number): boolean;
  /** The list now holds `count` items (0: nothing, after a reset or when disposed). */
  hold(count: number): void;
}

/**
 * The items held across the services of one window (issue #28): every list of every service holds its count here,
 * and the total never goes over `limit`. Pure; shared by every Explorer of one window.
 *
 * The rule: an answer fits when what the other lists hold now, plus the answer, is at most `limit`; the list's own
 * count is given back first, so an answer no larger than what the list holds always fits. Counts are of what is held
 * (first come, first held): an answer that does not fit is refused and the list keeps what it held, as for an answer
 * over the per-answer cap; a list that shrinks, is reset or is disposed (a service removed) frees its room at once,
 * and a refused list takes it at its next attempt. Every step costs the same however many services there are.
 */
export class WindowBudget {
  private total = 0;

  constructor(readonly limit: number = MAX_WINDOW_ITEMS) {}

  /** The items held now, over every list of every service. */
  get held(): number {
    return this.total;
  }

  /** A new holder for one list of one service; it holds nothing until told. */
  holder(): ItemHolder {
    let count = 0;
    return {
      fits: (n) => this.total - count + n <= this.limit,
      hold: (n) => {
        this.total += n - count;
        count = n;
      },
    };
  }
}
