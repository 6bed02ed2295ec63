import { Emitter, type Event } from '../base/events';
import { isEmptyFilter, parseFilter, type Filter, type FilterView } from './filterQuery';

/** The three views a filter applies to, in the order of their views. */
export const FILTER_VIEWS: readonly FilterView[] = ['processing', 'connections', 'history'];

/** Where the filters are kept (the workspace's memento): read once, written on each change. */
export interface FilterMemory {
  get(): unknown;
  update(value: Record<string, string>): void | PromiseLike<void>;
}

/**
 * The filter of each view, kept per workspace: set from the input box, a link or a test; cleared by an empty input or
 * Clear Filter. A view's filter never touches another view's. What is kept is the text as typed; on restore each is
 * parsed again (the language may have changed since): one that no longer reads is dropped. Pure.
 */
export class ViewFilters {
  private readonly filters = new Map<FilterView, Filter>();
  private readonly changeEmitter = new Emitter<FilterView>();
  /** Fires the view whose filter changed. */
  readonly onDidChange: Event<FilterView> = this.changeEmitter.event;

  constructor(private readonly memory?: FilterMemory) {
    const kept = memory?.get();
    if (typeof kept !== 'object' || kept === null) return;
    for (const view of FILTER_VIEWS) {
      const text = (kept as Record<string, unknown>)[view];
      if (typeof text !== 'string') continue;
      const { filter } = parseFilter(text, view);
      if (filter && !isEmptyFilter(filter)) this.filters.set(view, filter);
    }
  }

  /** The view's filter; undefined while none is on. */
  get(view: FilterView): Filter | undefined {
    return this.filters.get(view);
  }

  /** The views with a filter on. */
  active(): FilterView[] {
    return FILTER_VIEWS.filter((view) => this.filters.has(view));
  }

  /**
   * Sets the view's filter from text: an empty one clears it. A malformed one changes nothing and gives its problem
   * sentence (the input box shows it; a link says it in its own words).
   */
  set(view: FilterView, input: string): { problem?: string } {
    const parsed = parseFilter(input, view);
    if (parsed.problem !== undefined) return { problem: parsed.problem };
    this.use(parsed.filter);
    return {};
  }

  /** Sets the filter's view to a filter already read (the input box read it as it was typed): an empty one clears it. */
  use(filter: Filter): void {
    this.apply(filter.view, isEmptyFilter(filter) ? undefined : filter);
  }

  clear(view: FilterView): void {
    this.apply(view, undefined);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  private apply(view: FilterView, filter: Filter | undefined): void {
    const before = this.filters.get(view);
    if (before?.source === filter?.source) return;
    if (filter) this.filters.set(view, filter);
    else this.filters.delete(view);
    void this.memory?.update(Object.fromEntries([...this.filters].map(([v, f]) => [v, f.source])));
    this.changeEmitter.fire(view);
  }
}
