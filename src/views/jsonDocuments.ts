import * as vscode from 'vscode';
import type { Explorer } from '../core/explorer';
import { t } from '../l10n';

export const JSON_SCHEME = 'flowsync-json';

export type JsonKind = 'sync' | 'flow' | 'connection' | 'team';

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
      explorer.processing.onDidChange((c) => c.itemsChanged && this.fireOpen(['sync', 'flow'])),
      explorer.connections.onDidChange((c) => c.itemsChanged && this.fireOpen(['connection', 'team'])),
      vscode.workspace.onDidCloseTextDocument((doc) => this.lastContent.delete(doc.uri.toString())),
    ];
  }

  static uri(kind: JsonKind, id: number): vscode.Uri {
    const titles: Record<JsonKind, string> = {
      sync: t('Flow sync {0}', id),
      flow: t('Flow {0} syncs', id),
      connection: t('Connection {0}', id),
      team: t('Team {0} connections', id),
    };
    return vscode.Uri.from({ scheme: JSON_SCHEME, path: `/${titles[kind]}.json`, query: `kind=${kind}&id=${id}` });
  }

  async open(kind: JsonKind, id: number): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(JsonDocuments.uri(kind, id));
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const key = uri.toString();
    const params = new URLSearchParams(uri.query);
    const value = this.lookup(params.get('kind') as JsonKind, Number(params.get('id')));
    if (value === undefined) return this.lastContent.get(key) ?? '{}\n';
    const content = `${JSON.stringify(value, null, 2)}\n`;
    this.lastContent.set(key, content);
    return content;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private lookup(kind: JsonKind, id: number): unknown {
    const syncs = this.explorer.processing.state.items ?? [];
    const connections = this.explorer.connections.state.items ?? [];
    switch (kind) {
      case 'sync':
        return syncs.find((i) => i.value.id === id)?.raw;
      case 'flow':
        return orUndefined(syncs.filter((i) => i.value.flow_id === id).map((i) => i.raw));
      case 'connection':
        return connections.find((i) => i.value.id === id)?.raw;
      case 'team':
        return orUndefined(connections.filter((i) => i.value.team_id === id).map((i) => i.raw));
      default:
        return undefined;
    }
  }

  private fireOpen(kinds: JsonKind[]): void {
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === JSON_SCHEME && kinds.includes(new URLSearchParams(doc.uri.query).get('kind') as JsonKind)) {
        this.changeEmitter.fire(doc.uri);
      }
    }
  }
}

function orUndefined<T>(list: T[]): T[] | undefined {
  return list.length ? list : undefined;
}
