/** The most items the lists of all services of one window may hold together first come (each answer is capped at MAX_ITEMS too). */
export const MAX_WINDOW_ITEMS = 200_000;

/**
 * One list of one service, as the window's budget counts it: what it holds now, and whether an answer would fit.
 * Made by WindowBudget.holder() or a service's ServiceBudget.holder(); ListRefresher tells it what the list holds after
 * every change.
 */
export interface ItemHolder {
  /** Whether an answer of `count` items fits: what this list holds now is given back first. */
  fits(count: number): boolean;
  /** The list now holds `count` items (0: nothing, after a reset or when disposed). */
  hold(count: number): void;
}

/** One service's part of the window's budget: the holders of its lists, and its fair share while it lives. */
export interface ServiceBudget {
  /** A new holder for one list of this service; it holds nothing until told. */
  holder(): ItemHolder;
  /** The service is gone: it no longer counts among the services that share the budget (its lists hold 0 by then). */
  dispose(): void;
}

/**
 * The items held across the services of one window (issues #28, #38): every list of every service holds its count
 * here. Pure; shared by every Explorer of one window.
 *
 * The rule: an answer fits when what the other lists hold now, plus the answer, is at most `limit` (first come), or
 * when what its service holds with it is at most the service's fair share, `limit / n` for the n services of the
 * window (ServiceBudget): one service holding the whole budget cannot refuse another's small answer, so a slow or
 * hostile service cannot blind the monitoring of the others. The list's own count is given back first, so an answer
 * no larger than what the list holds always fits. An answer that does not fit is refused and the list keeps what it
 * held, as for an answer over the per-answer cap; a list that shrinks, is reset or is disposed frees its room at once,
 * and a refused list takes it at its next attempt. First-come answers keep the total at most `limit`; the shares can
 * add to it at most `limit` more (the total stays under 2 × limit), and only while a service above its share keeps
 * what it holds: its next answer above its share is refused until the total is back under `limit`. Every step costs
 * the same however many services there are.
 */
export class WindowBudget {
  private total = 0;
  private services = 0;

  constructor(readonly limit: number = MAX_WINDOW_ITEMS) {}

  /** The items held now, over every list of every service. */
  get held(): number {
    return this.total;
  }

  /** Each service's fair share now: what an answer may bring its service to even when the window is full. */
  get share(): number {
    return this.services === 0 ? 0 : Math.floor(this.limit / this.services);
  }

  /** A new holder for one list counted on its own (no service: first come only); it holds nothing until told. */
  holder(): ItemHolder {
    return this.makeHolder(undefined);
  }

  /** One service's part: counted among the n services that share the budget until disposed. */
  service(): ServiceBudget {
    this.services++;
    const group = { held: 0 };
    let disposed = false;
    return {
      holder: () => this.makeHolder(group),
      dispose: () => {
        if (disposed) return;
        disposed = true;
        this.services--;
      },
    };
  }

  private makeHolder(group: { held: number } | undefined): ItemHolder {
    let count = 0;
    return {
      fits: (n) =>
        n <= count ||
        this.total - count + n <= this.limit ||
        (group !== undefined && group.held - count + n <= this.share),
      hold: (n) => {
        this.total += n - count;
        if (group) group.held += n - count;
        count = n;
      },
    };
  }
}
