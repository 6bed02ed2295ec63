/**
 * A tree view's selection as the person sees it. VS Code's extension host answers `TreeView.selection` from the rows
 * it holds at that moment, and a refreshed view lets go of every row and takes them back as the workbench reads them
 * again (the root first, then each expanded row's children): for that moment the selection lacks rows that are still
 * selected on the screen. The rows the workbench last said were selected (`onDidChangeSelection`) stand in for them
 * then. When a selected row leaves the view the workbench says the selection changed, so what it said is never older
 * than the screen.
 */
export class SelectedRows<T> {
  private said: readonly T[] = [];

  /** `held`: the selection the host answers now (`TreeView.selection`). */
  constructor(private readonly held: () => readonly T[]) {}

  /** The workbench said the selection changed (`onDidChangeSelection`): these rows. */
  changed(rows: readonly T[]): void {
    this.said = rows;
  }

  /** The rows selected: the host's own (the rows as they are now) while it holds all of them, else those last said. */
  get rows(): readonly T[] {
    const held = this.held();
    return held.length < this.said.length ? this.said : held;
  }
}
