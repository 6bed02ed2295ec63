import * as vscode from 'vscode';
import type { SharedFile, SharedStore } from '../core/pollLease';

/**
 * The files windows share (src/core/pollLease.ts) in the extension's global storage, with vscode.workspace.fs: the
 * same on desktop, remote and code-server (the folder is on the machine of the extension host every window of the
 * profile uses there), and no network port. globalStorage/coordination/<folder>/lease.json and snapshot.json; a write
 * goes to a temporary file of this window first and is then renamed over the old one, so a reader sees either the old
 * file or the new one whole. Changes are seen by a stat every second (WATCH_MS), which works on every file system
 * (a FileSystemWatcher outside the workspace is not reliable on every remote).
 */
export class FileSharedStore implements SharedStore {
  constructor(
    private readonly storage: vscode.Uri,
    private readonly windowId: string,
  ) {}

  async read(folder: string, file: SharedFile): Promise<string | undefined> {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(this.uri(folder, file)));
    } catch (e) {
      if (isMissing(e)) return undefined;
      throw e;
    }
  }

  async write(folder: string, file: SharedFile, text: string): Promise<void> {
    const dir = vscode.Uri.joinPath(this.storage, 'coordination', folder);
    await vscode.workspace.fs.createDirectory(dir);
    const temp = vscode.Uri.joinPath(dir, `${file}.${this.windowId.replace(/[^\w-]/g, '')}.tmp`);
    await vscode.workspace.fs.writeFile(temp, new TextEncoder().encode(text));
    await vscode.workspace.fs.rename(temp, this.uri(folder, file), { overwrite: true });
  }

  async stamp(folder: string, file: SharedFile): Promise<string | undefined> {
    try {
      const stat = await vscode.workspace.fs.stat(this.uri(folder, file));
      return `${stat.mtime}:${stat.size}`;
    } catch (e) {
      if (isMissing(e)) return undefined;
      throw e;
    }
  }

  private uri(folder: string, file: SharedFile): vscode.Uri {
    return vscode.Uri.joinPath(this.storage, 'coordination', folder, `${file}.json`);
  }
}

function isMissing(e: unknown): boolean {
  return e instanceof vscode.FileSystemError && (e.code === 'FileNotFound' || e.code === 'EntryNotFound');
}
