import * as vscode from 'vscode';
import { webChunkLoader, type ChunkExports } from '../browser/webChunks';

/**
 * The chunks of the web bundle, read beside it (dist/web/) at the extension's URI: by `fetch`, as VS Code's web worker
 * extension host reads the bundle itself (its `fetch` turns a `file:` or `vscode-remote:` URI into the browser's URL
 * first, the same `asBrowserUri` it uses for the bundle). Only the web bundle calls this: esbuild.js makes every
 * import() of a module of WEB_CHUNKS a call of what it returns, with the extension's id, VS Code's `require` and the
 * bundle's modules that the chunks share (index -> module).
 */
export function webChunks(
  extensionId: string,
  hostRequire: (id: string) => unknown,
  shared: () => readonly unknown[],
): (file: string) => Promise<ChunkExports> {
  return webChunkLoader({
    async read(file) {
      const extension = vscode.extensions.getExtension(extensionId);
      if (!extension) throw new Error(`the extension ${extensionId} is not installed`);
      const uri = vscode.Uri.joinPath(extension.extensionUri, 'dist', 'web', file);
      const response = await fetch(uri.toString());
      if (!response.ok) throw new Error(`${uri.toString()}: ${response.status} ${response.statusText}`);
      return { text: await response.text(), url: uri.toString() };
    },
    require: (id) => (id === '../extension.js' ? shared() : hostRequire(id)),
  });
}
