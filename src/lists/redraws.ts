/**
 * What a list view renders again: the whole view, one service's row (and every row beneath it: VS Code fetches them
 * again), or one row of a service's tree.
 */
export type Redraw<N> =
  | { readonly kind: 'view' }
  | { readonly kind: 'service'; readonly service: string }
  | { readonly kind: 'row'; readonly service: string; readonly node: N };

/**
 * Which rows of a view render again, each at most once a turn (the code that runs before the host reads anything): one
 * answer changes a service's row (its count), the rows beneath it, and what History marks on them, each heard on its
 * own, and would otherwise render the row two or three times. The first change of a turn is said at once; a later one
 * of the same turn is said only when nothing said before covers it (the whole view covers every row, a service's row
 * every row beneath it, a row itself). VS Code reads what it is told to render only after the turn (the extension host
 * reads a row's item a microtask later, the rows beneath it when the workbench asks for them), so it reads what the
 * changes left unsaid changed. The turn ends at `endOfTurn` (a microtask in the view), which the first change asks for.
 */
export class TurnRedraws<N extends object> {
  /** What was said this turn; undefined between turns. */
  private said?: { view: boolean; services: Set<string>; rows: WeakSet<N> };

  constructor(
    private readonly draw: (redraw: Redraw<N>) => void,
    private readonly endOfTurn: (run: () => void) => void,
  ) {}

  /** The whole view renders again. */
  view(): void {
    const said = this.turn();
    if (said.view) return;
    said.view = true;
    this.draw({ kind: 'view' });
  }

  /** A service's row renders again, and every row beneath it. */
  service(service: string): void {
    const said = this.turn();
    if (said.view || said.services.has(service)) return;
    said.services.add(service);
    this.draw({ kind: 'service', service });
  }

  /** One row of a service's tree renders again (and the rows beneath it). */
  row(service: string, node: N): void {
    if (this.covers(service, node)) return;
    this.turn().rows.add(node);
    this.draw({ kind: 'row', service, node });
  }

  /** Whether what was said this turn already renders this row again (no row: the service's row). */
  covers(service: string, node?: N): boolean {
    const said = this.said;
    return !!said && (said.view || said.services.has(service) || (node !== undefined && said.rows.has(node)));
  }

  private turn(): NonNullable<TurnRedraws<N>['said']> {
    if (!this.said) {
      this.said = { view: false, services: new Set(), rows: new WeakSet() };
      this.endOfTurn(() => (this.said = undefined));
    }
    return this.said;
  }
}
