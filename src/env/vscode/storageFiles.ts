import type * as vscode from 'vscode';
import { platform } from '../platform';
import type { Files } from '../types';
import { workspaceFiles } from './workspaceFiles';

/**
 * The files under a folder of the extension's storage (see Files): node:fs on a local disk (with append, never through
 * a symbolic link), else vscode.workspace.fs (the browser: no append).
 */
export function storageFiles(root: vscode.Uri): Files {
  return root.scheme === 'file' && platform.files ? platform.files(root.fsPath) : workspaceFiles(root);
}
