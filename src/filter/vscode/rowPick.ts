import * as vscode from 'vscode';
import type { PickRow, PickRows, PickSearch, PickStep } from '../pickRows';

/** What a pick of loaded rows says and offers besides its rows. */
export interface RowPickOptions<R extends PickRow> {
  readonly title: string;
  readonly placeholder?: string;
  /** The placeholder when there is no row before anything is typed (the pick is shown all the same). */
  readonly emptyPlaceholder?: string;
  /** No row before anything is typed: the pick is not shown, this is called instead (it says why). */
  readonly nothing?: () => void;
  /** A row's buttons (e.g. Open in Browser), and what pressing one does: the pick stays open. */
  readonly buttons?: (row: R) => readonly vscode.QuickInputButton[] | undefined;
  readonly onButton?: (row: R) => void;
}

type Item<R> = vscode.QuickPickItem & { readonly row?: R };

/** Rows found after the first step of a text are shown at most this often (the list is not redrawn for every step). */
const SHOW_EVERY_MS = 100;

/**
 * A quick pick of loaded rows (the one way src makes one: test/unit/repo/picks.test.ts): the first rows at once, then
 * as the person types, the rows the text finds, a step at a time (src/filter/pickRows.ts): the first step in the
 * keystroke's own task, each next one in a later task, so no task of the extension host does more than a step. A
 * text typed before the last one's search is over drops it. At most PickRows.max rows are shown. The row picked,
 * or undefined when the pick was closed.
 */
export async function pickRow<R extends PickRow>(
  rows: PickRows<R>,
  options: RowPickOptions<R>,
): Promise<R | undefined> {
  let search = rows.search('');
  const first = search.step();
  if (first.done && first.rows.length === 0 && options.nothing) {
    options.nothing();
    return undefined;
  }
  const quickPick = createRowQuickPick(first, options);
  const show = rowShower(quickPick, options);
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The rows the text typed last has found so far. */
  let found = first.rows;
  /** Enter was pressed before the text's first row was shown: the first row found is the one picked. */
  let acceptFirst = false;
  let resolve!: (row: R | undefined) => void;
  const picked = new Promise<R | undefined>((r) => (resolve = r));
  const finish = (row: R | undefined) => {
    resolve(row);
    quickPick.hide();
  };

  const run = (current: PickSearch<R>, fresh: boolean) => {
    timer = undefined;
    const step = current.step();
    if (current !== search) return;
    found = step.rows;
    show(step, fresh);
    quickPick.busy = !step.done;
    if (acceptFirst && (step.rows.length > 0 || step.done)) finish(step.rows[0]);
    else if (!step.done) timer = setTimeout(() => run(current, false), 0);
  };

  show(first, true);
  quickPick.busy = !first.done;
  if (!first.done) timer = setTimeout(() => run(search, false), 0);
  const subscriptions = [
    quickPick.onDidChangeValue((value) => {
      if (timer !== undefined) clearTimeout(timer);
      search = rows.search(value);
      run(search, true);
    }),
    quickPick.onDidTriggerItemButton(({ item }) => {
      if (item.row) options.onButton?.(item.row);
    }),
    quickPick.onDidAccept(() => {
      const chosen = quickPick.selectedItems[0] ?? quickPick.activeItems[0];
      if (chosen?.row) finish(chosen.row);
      // Enter while the text's rows are still being found: the first row found is the one the person will see first.
      else if (quickPick.busy) acceptFirst = true;
      // Enter while the rows of the last keystroke replace those shown (no row is active yet): its first row.
      else finish(found[0]);
    }),
    quickPick.onDidHide(() => {
      if (timer !== undefined) clearTimeout(timer);
      for (const d of subscriptions) d.dispose();
      quickPick.dispose();
      resolve(undefined);
    }),
  ];
  quickPick.show();
  return picked;
}

/** The quick pick, not shown yet: its title, and the placeholder for the first rows (when there are none, its own). */
function createRowQuickPick<R extends PickRow>(
  first: PickStep<R>,
  options: RowPickOptions<R>,
): vscode.QuickPick<Item<R>> {
  const quickPick = vscode.window.createQuickPick<Item<R>>();
  quickPick.title = options.title;
  quickPick.matchOnDescription = true;
  quickPick.placeholder =
    first.done && first.rows.length === 0 && options.emptyPlaceholder !== undefined
      ? options.emptyPlaceholder
      : options.placeholder;
  return quickPick;
}

/**
 * Shows a step's rows in the quick pick: a new text's (`fresh`) and a last step's always, those a text adds between at
 * most every SHOW_EVERY_MS and only when the step found more rows. `now` is the clock (Date.now; a test's own).
 */
export function rowShower<R extends PickRow>(
  quickPick: Pick<vscode.QuickPick<Item<R>>, 'items' | 'keepScrollPosition'>,
  options: RowPickOptions<R>,
  now: () => number = Date.now,
): (step: PickStep<R>, fresh: boolean) => void {
  let shownAt = 0;
  let shownCount = -1;
  return (step, fresh) => {
    // A text's next steps: shown only when they found more rows, and then at most this often but for its last step.
    const due = step.done || now() - shownAt >= SHOW_EVERY_MS;
    if (!fresh && (step.rows.length === shownCount || !due)) return;
    // Rows added to those of the same text keep the person's place; a new text starts at its first row.
    quickPick.keepScrollPosition = !fresh;
    quickPick.items = items(step.rows, options);
    shownCount = step.rows.length;
    shownAt = now();
  };
}

/** The quick pick's items of rows: each always shown (the rows are what the text found), a separator per section. */
function items<R extends PickRow>(rows: readonly R[], options: RowPickOptions<R>): Item<R>[] {
  const out: Item<R>[] = [];
  let section: string | undefined;
  for (const row of rows) {
    if (row.section !== undefined && row.section !== section) {
      out.push({ label: row.section, kind: vscode.QuickPickItemKind.Separator });
    }
    section = row.section;
    out.push({
      label: row.label,
      description: row.description,
      alwaysShow: true,
      buttons: options.buttons?.(row),
      row,
    });
  }
  return out;
}
