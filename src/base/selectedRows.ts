import type { Disposable } from './events';

/** What SelectedRows reads of a tree view (VS Code's `TreeView` is one). */
export interface SelectionSource<T> {
  /** The selection the extension host answers now. */
  readonly selection: readonly T[];
  /** The workbench says the selection changed. */
  onDidChangeSelection(listener: (event: { readonly selection: readonly T[] }) => unknown): Disposable;
}

/**
 * The moments SelectedRows reads the host's own selection at, besides the workbench's word (in VS Code: the view's
 * provider's events, and a timer).
 */
export interface SelectionMoments {
  /** The view's rows changed: the host lets go of them in a later turn, never in this one. */
  readonly rowsChanged: (listener: () => unknown) => Disposable;
  /** A level of rows was handed to the host: it holds them, under their handles, once this turn is over. */
  readonly rowsAnswered: (listener: () => unknown) => Disposable;
  /** Runs `fn` in a later turn of the event loop. */
  readonly later: (fn: () => void) => void;
}

/**
 * A tree view's selection as the person sees it. VS Code's extension host answers `TreeView.selection` from the rows
 * it holds at that moment, and a refreshed view lets go of every row and takes them back as the workbench reads them
 * again (the root first, then each expanded row's children): for that moment the selection lacks rows that are still
 * selected on the screen. The rows the workbench last said were selected (`onDidChangeSelection`) stand in for them
 * then. When a selected row leaves the view the workbench says the selection changed, so what it said is never older
 * than the screen.
 *
 * What the workbench says is itself read through the rows the host holds: said while the host had let go of them, it
 * carries none of them, and the host says nothing when it reads them back (the selection did not change). So the
 * host's own selection is read again where it holds its rows, and taken when it holds more than was said: when the
 * rows change (before the host lets go of them), and in the turn after a level of rows was handed to it (once it holds
 * them again: the host may let go of them next on a refresh of its own, which it puts off by up to 200 ms after a
 * change). What the host holds is always selected: it keeps the handles the workbench said, and reads them through its
 * rows.
 */
export class SelectedRows<T> implements Disposable {
  private said: readonly T[] = [];
  private readonly subscriptions: Disposable[];
  /** A read of the host's selection is asked for a later turn (at most one at a time). */
  private readingLater = false;
  private disposed = false;

  constructor(
    private readonly view: SelectionSource<T>,
    moments: SelectionMoments,
  ) {
    this.subscriptions = [
      view.onDidChangeSelection((event) => (this.said = event.selection)),
      moments.rowsChanged(() => this.readHeld()),
      moments.rowsAnswered(() => {
        if (this.readingLater) return;
        this.readingLater = true;
        moments.later(() => {
          this.readingLater = false;
          if (!this.disposed) this.readHeld();
        });
      }),
    ];
  }

  /** The rows selected: the host's own (the rows as they are now) while it holds all of them, else those last said. */
  get rows(): readonly T[] {
    const held = this.view.selection;
    return held.length < this.said.length ? this.said : held;
  }

  dispose(): void {
    this.disposed = true;
    this.subscriptions.forEach((s) => s.dispose());
  }

  /** Takes the host's own selection when it holds more of it than was said. */
  private readHeld(): void {
    this.said = this.rows;
  }
}
