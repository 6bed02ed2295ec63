import * as vscode from 'vscode';
import type { StoredBytes } from '../../api/jsonBounds';
import type { SharedFile, SharedStore } from '../pollLease';
import { storageFiles } from '../../env/vscode/storageFiles';
import type { Files } from '../../env/types';

/**
 * The files windows share (src/sharing/pollLease.ts) in the extension's global storage, through the storage port
 * (src/env/types.ts Files: node:fs on a local disk, else vscode.workspace.fs): the same on desktop, remote and
 * code-server (the folder is on the machine of the extension host every window of the profile uses there), and no
 * network port. globalStorage/coordination/<folder>/lease.json, snapshot.json, heartbeat.json and failure.json; a
 * write replaces the file whole (a temporary file, then a rename over it), so a reader sees either the old file or the
 * new one; a read is bounded (TOO_LARGE, unread, over its bound). Changes are seen by a stat every second (WATCH_MS),
 * which works on every file system (a FileSystemWatcher outside the workspace is not reliable on every remote).
 */
export class FileSharedStore implements SharedStore {
  private readonly files: Files;

  constructor(storage: vscode.Uri) {
    this.files = storageFiles(vscode.Uri.joinPath(storage, 'coordination'));
  }

  read(folder: string, file: SharedFile, maxBytes: number): Promise<StoredBytes | undefined> {
    return this.files.readCapped(`${folder}/${file}.json`, maxBytes);
  }

  write(folder: string, file: SharedFile, bytes: Uint8Array): Promise<void> {
    return this.files.replace(`${folder}/${file}.json`, bytes);
  }

  async stamp(folder: string, file: SharedFile): Promise<string | undefined> {
    const stat = await this.files.stat(`${folder}/${file}.json`);
    return stat && `${stat.mtime}:${stat.size}`;
  }
}
