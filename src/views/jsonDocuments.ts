import * as vscode from 'vscode';
import type { Item } from '../api/types';
import type { Explorer } from '../core/explorer';
import { LISTS, listById, type ListId } from '../lists';

export const JSON_SCHEME = 'flowsync-json';

/** What a JSON document shows: one item of a list, or a group of it (its items as an array). */
export interface JsonTarget {
  list: ListId;
  kind: 'item' | 'group';
  id: number;
}

/**
 * Read-only JSON documents of items exactly as the API returned them (a group shows its items). Open documents follow
 * refreshes; an item that is no longer listed keeps its last content.
 */
export class JsonDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;
  private readonly lastContent = new Map<string, string>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly explorer: Explorer) {
    this.disposables = [
      this.changeEmitter,
      ...LISTS.map((list) => explorer.refresher(list.id).onDidChange((c) => c.itemsChanged && this.fireOpen(list.id))),
      vscode.workspace.onDidCloseTextDocument((doc) => this.lastContent.delete(doc.uri.toString())),
    ];
  }

  static uri(target: JsonTarget): vscode.Uri {
    const list = listById(target.list)!;
    const title = target.kind === 'item' ? list.json.itemTitle(target.id) : list.json.groupTitle(target.id);
    return vscode.Uri.from({ scheme: JSON_SCHEME, path: `/${title}.json`, query: `list=${target.list}&kind=${target.kind}&id=${target.id}` });
  }

  async open(target: JsonTarget): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(JsonDocuments.uri(target));
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const key = uri.toString();
    const target = parseTarget(uri);
    const value = target && this.lookup(target);
    if (value === undefined) return this.lastContent.get(key) ?? '{}\n';
    const content = `${JSON.stringify(value, null, 2)}\n`;
    this.lastContent.set(key, content);
    return content;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private lookup(target: JsonTarget): unknown {
    const list = listById(target.list);
    if (!list) return undefined;
    const items = (this.explorer.refresher(target.list).state.items ?? []) as readonly Item<{ id: number }>[];
    if (target.kind === 'item') return items.find((i) => i.value.id === target.id)?.raw;
    const members = items.filter((i) => list.groupKeyOf(i.value) === target.id).map((i) => i.raw);
    return members.length ? members : undefined;
  }

  private fireOpen(list: ListId): void {
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === JSON_SCHEME && parseTarget(doc.uri)?.list === list) this.changeEmitter.fire(doc.uri);
    }
  }
}

function parseTarget(uri: vscode.Uri): JsonTarget | undefined {
  const params = new URLSearchParams(uri.query);
  const list = listById(params.get('list') ?? '');
  const kind = params.get('kind');
  const id = Number(params.get('id'));
  if (!list || (kind !== 'item' && kind !== 'group') || !Number.isSafeInteger(id)) return undefined;
  return { list: list.id, kind, id };
}
