import * as vscode from 'vscode';
import { onFirstUse } from '../../base/onFirstUse';
import type { RowStates, RowTints } from '../rowTints';

/** The scheme of the rows' decoration URIs: the provider answers for it alone (never for a file). */
const ROW_SCHEME = 'flowsync-row';

/** Gives a drawn row its decoration URI and tells its states (the Processing and History views' rows). */
export interface RowMarker {
  mark(item: vscode.TreeItem, view: string, states: RowStates): void;
}

/**
 * Tints the rows that stand out (src/lists/rowTints.ts says which and how: stuck, with errors, longer than usual): a
 * label colour of the theme and a short badge, through a FileDecorationProvider, as GitHub Pull Requests does. A row
 * gets a `resourceUri` of its own scheme that names it (`flowsync-row:/processing/<its tree item id>`: ids and our
 * words only); the views tell its states as they draw it, and the provider says changed only for the rows whose tint
 * changed, once per turn. Its description and accessible name say the same in words. The tints' code is loaded with
 * the first row marked (its own chunk, esbuild.js CHUNKS): the rows marked until then are told to it once it is.
 */
export class RowTintDecorations implements vscode.FileDecorationProvider, RowMarker, vscode.Disposable {
  private readonly tints = onFirstUse(async () => this.made(new (await import('../rowTints')).RowTints()), {
    dispose: (tints) => tints.dispose(),
  });
  /** The rows marked before the tints' code was loaded, in order. */
  private waiting: [string, RowStates][] = [];
  readonly onDidChangeFileDecorations: vscode.Event<vscode.Uri[]>;
  private readonly registration: vscode.Disposable;
  private readonly changes = new vscode.EventEmitter<vscode.Uri[]>();

  constructor() {
    this.onDidChangeFileDecorations = this.changes.event;
    this.registration = vscode.window.registerFileDecorationProvider(this);
  }

  mark(item: vscode.TreeItem, view: string, states: RowStates): void {
    if (!item.id) return;
    const uri = vscode.Uri.from({ scheme: ROW_SCHEME, path: `/${view}/${encodeURIComponent(item.id)}` });
    item.resourceUri = uri;
    const tints = this.tints.made;
    if (tints) tints.set(uri.toString(), states);
    else {
      this.waiting.push([uri.toString(), states]);
      void this.tints.get().catch(() => undefined);
    }
  }

  provideFileDecoration(uri: vscode.Uri): vscode.ProviderResult<vscode.FileDecoration> {
    if (uri.scheme !== ROW_SCHEME) return undefined;
    const decoration = (tints: RowTints) => {
      const tint = tints.get(uri.toString());
      return tint && new vscode.FileDecoration(tint.badge, tint.words, new vscode.ThemeColor(tint.color));
    };
    const tints = this.tints.made;
    return tints ? decoration(tints) : this.tints.get().then(decoration, () => undefined);
  }

  dispose(): void {
    this.registration.dispose();
    this.tints.dispose();
    this.changes.dispose();
  }

  /** The tints, once loaded: told the rows marked so far, their changes forwarded as the provider's. */
  private made(tints: RowTints): RowTints {
    tints.onDidChange((keys) => this.changes.fire(keys.map((key) => vscode.Uri.parse(key))));
    for (const [key, states] of this.waiting) tints.set(key, states);
    this.waiting = [];
    return tints;
  }
}
