import * as vscode from 'vscode';
import { RowTints, type RowStates } from '../rowTints';

/** The scheme of the rows' decoration URIs: a provider answers for it alone (never for a file). */
const ROW_SCHEME = 'flowsync-row';

/** Gives a drawn row its decoration URI and tells its states (the Processing and History views' rows). */
export interface RowMarker {
  mark(item: vscode.TreeItem, view: string, states: RowStates): void;
}

/**
 * Tints the rows of a view that stand out (src/lists/rowTints.ts says which and how: stuck, with errors, longer than
 * usual): a label colour of the theme and a short badge, through a FileDecorationProvider, as GitHub Pull Requests
 * does. A row gets a `resourceUri` of its own scheme that names it (`flowsync-row:/processing/<its tree item id>`: ids
 * and our words only); the view tells its states as it draws it, and the provider says changed only for the rows whose
 * tint changed, once per turn. Its description and accessible name say the same in words. Each tinted view (Processing,
 * History) makes its own with its rows, in the services' chunk (esbuild.js CHUNKS), before it draws the first one: a
 * provider answers only for the rows it was told of.
 */
export class RowTintDecorations implements vscode.FileDecorationProvider, RowMarker, vscode.Disposable {
  private readonly tints = new RowTints();
  readonly onDidChangeFileDecorations: vscode.Event<vscode.Uri[]>;
  private readonly registration: vscode.Disposable;
  private readonly changes = new vscode.EventEmitter<vscode.Uri[]>();

  constructor() {
    this.onDidChangeFileDecorations = this.changes.event;
    this.tints.onDidChange((keys) => this.changes.fire(keys.map((key) => vscode.Uri.parse(key))));
    this.registration = vscode.window.registerFileDecorationProvider(this);
  }

  mark(item: vscode.TreeItem, view: string, states: RowStates): void {
    if (!item.id) return;
    const uri = vscode.Uri.from({ scheme: ROW_SCHEME, path: `/${view}/${encodeURIComponent(item.id)}` });
    item.resourceUri = uri;
    this.tints.set(uri.toString(), states);
  }

  provideFileDecoration(uri: vscode.Uri): vscode.ProviderResult<vscode.FileDecoration> {
    if (uri.scheme !== ROW_SCHEME) return undefined;
    const tint = this.tints.get(uri.toString());
    return tint && new vscode.FileDecoration(tint.badge, tint.words, new vscode.ThemeColor(tint.color));
  }

  dispose(): void {
    this.registration.dispose();
    this.tints.dispose();
    this.changes.dispose();
  }
}
