import * as vscode from 'vscode';
import { DisposableStore } from '../../base/events';
import type { ServiceSet } from '../../base/serviceSet';
import type { JsonDocuments, JsonService, JsonTarget } from './jsonDocuments';

/**
 * The JSON documents as the start wires them: the content provider of their scheme, whose code (JsonDocuments, its own
 * chunk: esbuild.js CHUNKS) is loaded and made when the first document is opened or restored. Until then there is no
 * document to keep up to date, so nothing is lost by waiting.
 */
export class JsonDocumentsOnDemand implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;
  private readonly disposables = new DisposableStore();
  private documents?: Promise<JsonDocuments>;
  private disposed = false;

  constructor(private readonly services: ServiceSet<JsonService>) {
    this.disposables.add(this.changeEmitter);
  }

  async open(target: JsonTarget): Promise<void> {
    await (await this.load()).open(target);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    return (await this.load()).provideTextDocumentContent(uri);
  }

  dispose(): void {
    this.disposed = true;
    this.disposables.dispose();
  }

  private load(): Promise<JsonDocuments> {
    return (this.documents ??= import('./jsonDocuments').then(({ JsonDocuments }) => {
      if (this.disposed) throw new Error('the JSON documents were disposed');
      const documents = new JsonDocuments(this.services);
      this.disposables.add(
        documents,
        documents.onDidChange((uri) => this.changeEmitter.fire(uri)),
      );
      return documents;
    }));
  }
}
