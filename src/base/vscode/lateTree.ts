import * as vscode from 'vscode';
import type { SelectionMoments } from '../selectedRows';

/**
 * A tree view registered at start whose rows come later: activate() makes each view over one of these (VS Code may ask
 * a shown view for its rows at once), and the view's own code, made with the services' chunk after activate() returns,
 * hands it the provider that holds the rows (`use`). Until then a question of the rows waits for that provider, so a
 * shown view says it is loading, not that it is empty. `fail()`: the provider could not be made; what waits, and what
 * is asked until a provider comes, is answered with no rows, and a provider that comes later is shown at once.
 */
export class LateTreeData<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private provider?: vscode.TreeDataProvider<T>;
  private readonly changes = new vscode.EventEmitter<T | T[] | undefined | null | void>();
  readonly onDidChangeTreeData = this.changes.event;
  private readonly answers = new vscode.EventEmitter<void>();
  /** A level of rows was handed to VS Code (the answer of `getChildren`): the host holds them once this turn is over. */
  readonly onDidAnswer = this.answers.event;
  private forwarding?: vscode.Disposable;
  private arrive!: (provider: vscode.TreeDataProvider<T> | undefined) => void;
  private arrived = this.waitForProvider();
  /** Whether the provider could not be made (fail()): asked, the view has no rows until one comes. */
  private failed = false;

  /**
   * Shows the rows of `provider` from now on (one at a time); disposing what it returns lets it go (a product made in
   * part, or disposed): the view then waits for the next one.
   */
  use(provider: vscode.TreeDataProvider<T>): vscode.Disposable {
    if (this.provider) throw new Error('a view takes one provider of its rows at a time');
    this.provider = provider;
    this.forwarding = provider.onDidChangeTreeData?.((rows) => this.changes.fire(rows));
    this.arrive(provider);
    if (this.failed) this.changes.fire(undefined); // it was answered with no rows: asked again
    this.failed = false;
    let released = false;
    return {
      dispose: () => {
        if (released) return;
        released = true;
        this.forwarding?.dispose();
        this.forwarding = this.provider = undefined;
        this.arrived = this.waitForProvider();
        this.changes.fire(undefined); // its rows are gone
      },
    };
  }

  /**
   * When the selection of the view over this is read again from the extension host (src/base/selectedRows.ts): as its
   * rows change (before the host lets go of them), and in the turn after a level of rows was handed to the host.
   */
  selectionMoments(): SelectionMoments {
    return {
      rowsChanged: (listener) => this.onDidChangeTreeData(listener),
      rowsAnswered: (listener) => this.onDidAnswer(listener),
      later: (fn) => void setTimeout(fn, 0),
    };
  }

  /** The provider could not be made: what waits for it, and what is asked until one comes, has no rows. */
  fail(): void {
    if (this.provider) return;
    this.failed = true;
    this.arrive(undefined);
  }

  getChildren(element?: T): vscode.ProviderResult<T[]> {
    if (this.provider) return this.answered(this.provider.getChildren(element));
    if (this.failed) return [];
    return this.arrived.then((provider) => (provider ? this.answered(provider.getChildren(element)) : []));
  }

  /** Only its provider's rows exist: VS Code asks of no other. */
  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    if (!this.provider) throw new Error('a row of a view whose rows are not made yet');
    return this.provider.getTreeItem(element);
  }

  getParent(element: T): vscode.ProviderResult<T> {
    return this.provider?.getParent?.(element);
  }

  resolveTreeItem(
    item: vscode.TreeItem,
    element: T,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<vscode.TreeItem> {
    const provider = this.provider;
    return provider?.resolveTreeItem ? provider.resolveTreeItem(item, element, token) : item;
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changes.dispose();
    this.answers.dispose();
    this.arrive(undefined);
  }

  /** `rows`, once said to the listeners of onDidAnswer (when they are there: a promise's rows once it resolves). */
  private answered(rows: vscode.ProviderResult<T[]>): vscode.ProviderResult<T[]> {
    if (rows && typeof (rows as Thenable<T[]>).then === 'function') {
      return (rows as Thenable<T[] | null | undefined>).then((answer) => {
        this.answers.fire();
        return answer;
      });
    }
    this.answers.fire();
    return rows;
  }

  private waitForProvider(): Promise<vscode.TreeDataProvider<T> | undefined> {
    return new Promise((resolve) => (this.arrive = resolve));
  }
}

/** A tree view made at start and the provider its rows will come through. */
export interface LateTreeView<T> extends vscode.Disposable {
  readonly view: vscode.TreeView<T>;
  readonly data: LateTreeData<T>;
}

/** Registers the tree view `viewId` (several rows can be selected; Collapse All) over a provider to come. */
export function lateTreeView<T>(viewId: string): LateTreeView<T> {
  const data = new LateTreeData<T>();
  const view = vscode.window.createTreeView(viewId, {
    treeDataProvider: data,
    showCollapseAll: true,
    canSelectMany: true,
  });
  return {
    view,
    data,
    dispose: () => {
      view.dispose();
      data.dispose();
    },
  };
}
