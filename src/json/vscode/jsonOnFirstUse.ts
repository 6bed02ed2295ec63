import * as vscode from 'vscode';
import { onFirstUse, type OnFirstUse } from '../../base/onFirstUse';
import type { ServiceSet } from '../../base/serviceSet';
import { JSON_SCHEME } from '../jsonScheme';
import type { JsonDocuments, JsonService, JsonTarget } from './jsonDocuments';

/** The JSON documents as the start registers them: their provider now, their code with the first document. */
export interface JsonOnFirstUse extends vscode.Disposable {
  /** The documents, made when the first is opened or restored. */
  readonly documents: OnFirstUse<JsonDocuments>;
  /** Opens a document (loading the documents' code first, once). */
  readonly json: Pick<JsonDocuments, 'open'>;
}

/**
 * Registers the content provider of the JSON documents at start (VS Code asks it for a restored document at once),
 * with its change event; the documents' code (esbuild.js CHUNKS: json) is loaded, and they are made, with the first.
 */
export function registerJsonDocuments(
  /** The services, once they are made (after activate() returned). */
  services: () => Promise<ServiceSet<JsonService>>,
  onError: (error: unknown) => void,
): JsonOnFirstUse {
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const documents = onFirstUse(
    async () => {
      const [{ JsonDocuments }, made] = await Promise.all([import('./jsonDocuments'), services()]);
      return new JsonDocuments(made, changed);
    },
    {
      dispose: (made) => made.dispose(),
      onError,
    },
  );
  const provider = vscode.workspace.registerTextDocumentContentProvider(JSON_SCHEME, {
    onDidChange: changed.event,
    provideTextDocumentContent: async (uri) => (await documents.get()).provideTextDocumentContent(uri),
  });
  return {
    documents,
    json: { open: async (target: JsonTarget) => (await documents.get()).open(target) },
    dispose: () => {
      provider.dispose();
      documents.dispose();
      changed.dispose();
    },
  };
}
