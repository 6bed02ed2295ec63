import type * as vscode from 'vscode';
import { onFirstUse } from '../../base/onFirstUse';
import { platform } from '../platform';
import { storeFilesOnFirstUse } from '../storeFilesOnFirstUse';
import type { Files } from '../types';

/**
 * The files under a folder of the extension's storage (see Files): node:fs on a local disk (with append, never through
 * a symbolic link), else vscode.workspace.fs (the browser: no append), each one's code loaded on first use.
 */
export function storageFiles(root: vscode.Uri): Files {
  if (root.scheme === 'file' && platform.files) return platform.files(root.fsPath);
  const files = onFirstUse(async () => (await import('./workspaceFiles')).workspaceFiles(root));
  return storeFilesOnFirstUse(files, { append: false });
}
