import * as vscode from 'vscode';
import type { StoreFileInfo, StoreFiles } from '../storage';
import { makeNonce } from '../../activity/activityHtml';

/**
 * History's files through vscode.workspace.fs (the browser build, or a global storage that is not on a local disk).
 * No append there: the store rewrites a window's day file whole (write: a temporary file, then a rename over it).
 * Reads are whole files: the store checks a file's size before it asks.
 */
export function workspaceStoreFiles(root: vscode.Uri): StoreFiles {
  const fs = vscode.workspace.fs;
  const at = (p: string) => vscode.Uri.joinPath(root, ...p.split('/'));
  return {
    async list(dir) {
      let entries: [string, vscode.FileType][];
      try {
        entries = await fs.readDirectory(at(dir));
      } catch {
        return [];
      }
      const out: StoreFileInfo[] = [];
      for (const [name, type] of entries) {
        if (type !== vscode.FileType.File) continue;
        const s = await Promise.resolve(fs.stat(at(`${dir}/${name}`))).catch(() => undefined);
        if (s) out.push({ name, size: s.size, mtime: s.mtime });
      }
      return out;
    },
    async stat(p) {
      const s = await Promise.resolve(fs.stat(at(p))).catch(() => undefined);
      return s && s.type === vscode.FileType.File
        ? { name: p.slice(p.lastIndexOf('/') + 1), size: s.size, mtime: s.mtime }
        : undefined;
    },
    async read(p, from, length) {
      return (await fs.readFile(at(p))).subarray(from, from + length);
    },
    async write(p, bytes) {
      const temp = `${p}.tmp-${makeNonce()}`; // 128 random bits: a name nobody can plant a file or link at beforehand
      await fs.writeFile(at(temp), bytes);
      await fs.rename(at(temp), at(p), { overwrite: true });
    },
    async rename(from, to) {
      await fs.rename(at(from), at(to), { overwrite: true });
    },
    async delete(p) {
      await Promise.resolve(fs.delete(at(p))).catch(() => undefined);
    },
    async deleteDir(dir) {
      await Promise.resolve(fs.delete(at(dir), { recursive: true, useTrash: false })).catch(() => undefined);
    },
    async mkdir(dir) {
      await fs.createDirectory(at(dir));
    },
  };
}
