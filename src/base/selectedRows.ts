import type { Disposable } from './events';

/** What SelectedRows reads of a tree view (VS Code's `TreeView` is one). */
export interface SelectionSource<T> {
  /** The selection the extension host answers now. */
  readonly selection: readonly T[];
  /** The workbench says the selection changed. */
  onDidChangeSelection(listener: (event: { readonly selection: readonly T[] }) => unknown): Disposable;
}

/**
 * A tree view's selection as the person sees it. VS Code's extension host answers `TreeView.selection` from the rows
 * it holds at that moment, and a refreshed view lets go of every row and takes them back as the workbench reads them
 * again (the root first, then each expanded row's children): for that moment the selection lacks rows that are still
 * selected on the screen. The rows the workbench last said were selected (`onDidChangeSelection`) stand in for them
 * then. When a selected row leaves the view the workbench says the selection changed, so what it said is never older
 * than the screen.
 */
export class SelectedRows<T> implements Disposable {
  private said: readonly T[] = [];
  private readonly subscription: Disposable;

  constructor(private readonly view: SelectionSource<T>) {
    this.subscription = view.onDidChangeSelection((event) => (this.said = event.selection));
  }

  /** The rows selected: the host's own (the rows as they are now) while it holds all of them, else those last said. */
  get rows(): readonly T[] {
    const held = this.view.selection;
    return held.length < this.said.length ? this.said : held;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
