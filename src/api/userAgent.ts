/** The User-Agent of every request: this extension and its version, then the editor's (`VS Code 1.95.0`). */
export function userAgent(extensionVersion: string, editorVersion: string): string {
  return `flowsync-explorer/${extensionVersion} (VS Code ${editorVersion})`;
}
