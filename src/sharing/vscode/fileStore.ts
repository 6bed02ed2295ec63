import * as vscode from 'vscode';
import { TOO_LARGE, type StoredBytes } from '../../api/jsonBounds';
import type { SharedFile, SharedStore } from '../pollLease';
import { platform } from '../../env/platform';
import { makeNonce } from '../../activity/activityHtml';

/**
 * The files windows share (src/sharing/pollLease.ts) in the extension's global storage, with vscode.workspace.fs: the
 * same on desktop, remote and code-server (the folder is on the machine of the extension host every window of the
 * profile uses there), and no network port. globalStorage/coordination/<folder>/lease.json and snapshot.json; a write
 * goes to a temporary file first and is then renamed over the old one, so a reader sees either the old file or the
 * new one whole (see writeStorageFile). Changes are seen by a stat every second (WATCH_MS), which works on every file
 * system (a FileSystemWatcher outside the workspace is not reliable on every remote).
 */
export class FileSharedStore implements SharedStore {
  constructor(private readonly storage: vscode.Uri) {}

  read(folder: string, file: SharedFile, maxBytes: number): Promise<StoredBytes | undefined> {
    return readStorageFile(this.uri(folder, file), maxBytes);
  }

  async write(folder: string, file: SharedFile, bytes: Uint8Array): Promise<void> {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.storage, 'coordination', folder));
    await writeStorageFile(this.uri(folder, file), bytes);
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

/**
 * Reads a file of global storage (every such read goes through here): its bytes, undefined when it is missing, or
 * TOO_LARGE when it holds more than `maxBytes`, without reading them. On the local disk (Node, scheme `file`) the
 * size is checked on the open file, at most maxBytes + 1 bytes are read and a symbolic link is refused; elsewhere
 * (the browser's storage, which has no links) the size is checked with a stat before reading, and again after.
 */
export async function readStorageFile(uri: vscode.Uri, maxBytes: number): Promise<StoredBytes | undefined> {
  try {
    if (uri.scheme === 'file' && platform.files) return await platform.files.readCapped(uri.fsPath, maxBytes);
    if ((await vscode.workspace.fs.stat(uri)).size > maxBytes) return TOO_LARGE;
    const bytes = await vscode.workspace.fs.readFile(uri);
    return bytes.length > maxBytes ? TOO_LARGE : bytes;
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw e;
  }
}

/**
 * Replaces a file of global storage whole (every such write goes through here): a temporary file beside it, with a
 * random name (128 bits), then a rename over it. On the local disk the temporary file is created exclusively, so a
 * file or symbolic link planted at its name is never written through.
 */
export async function writeStorageFile(uri: vscode.Uri, bytes: Uint8Array): Promise<void> {
  if (uri.scheme === 'file' && platform.files) return platform.files.replace(uri.fsPath, bytes);
  const cut = uri.path.lastIndexOf('/');
  const temp = uri.with({ path: `${uri.path.slice(0, cut)}/.${uri.path.slice(cut + 1)}.${makeNonce()}.tmp` });
  await vscode.workspace.fs.writeFile(temp, bytes);
  await vscode.workspace.fs.rename(temp, uri, { overwrite: true });
}

function isMissing(e: unknown): boolean {
  return (
    (e instanceof vscode.FileSystemError && (e.code === 'FileNotFound' || e.code === 'EntryNotFound')) ||
    (e as { code?: string })?.code === 'ENOENT'
  );
}
