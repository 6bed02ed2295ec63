import * as vscode from 'vscode';
import type { FileInfo, Files } from '../types';
import { temporaryPath } from '../temporaryName';

/**
 * How much longer than the end of a range (from + length) a file read for that range may be: workspace.fs reads only
 * whole files, and a file may grow a little between the caller's stat and the read (another window's appends).
 */
const READ_GROWTH_BYTES = 1024 * 1024;

/**
 * The files under `root` through vscode.workspace.fs (the browser build, or a global storage that is not on a local
 * disk; see Files). No append there: a caller rewrites a file whole (replace: a temporary file beside it, named by
 * the one rule, then a rename over it). Reads read the whole file, so every read is bounded by its size, checked with
 * a stat before and by the length after: readCapped by its maxBytes, read by the end of its range plus
 * READ_GROWTH_BYTES (a file longer is refused).
 */
export function workspaceFiles(root: vscode.Uri): Files {
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
      const out: FileInfo[] = [];
      for (const [name, type] of entries) {
        if (type !== vscode.FileType.File) continue;
        const s = await Promise.resolve(fs.stat(at(`${dir}/${name}`))).catch(() => undefined);
        if (s) out.push({ name, size: s.size, mtime: s.mtime });
      }
      return out;
    },
    async stat(p) {
      const s = await statOf(at(p));
      return s && s.type === vscode.FileType.File
        ? { name: p.slice(p.lastIndexOf('/') + 1), size: s.size, mtime: s.mtime }
        : undefined;
    },
    read: (p, from, length) => readRange(at(p), p, from, length),
    readCapped: (p, maxBytes) => readWhole(at(p), maxBytes),
    async replace(p, bytes) {
      const folder = p.replace(/\/?[^/]*$/, '');
      if (folder) await fs.createDirectory(at(folder));
      const temp = at(temporaryPath(p));
      await fs.writeFile(temp, bytes);
      try {
        await fs.rename(temp, at(p), { overwrite: true });
      } catch (e) {
        await Promise.resolve(fs.delete(temp)).catch(() => undefined);
        throw e;
      }
    },
    async rename(from, to) {
      await fs.rename(at(from), at(to), { overwrite: true });
    },
    async delete(p) {
      try {
        await fs.delete(at(p), { recursive: true, useTrash: false });
      } catch (e) {
        if (!isMissing(e)) throw e;
      }
    },
    async mkdir(dir) {
      await fs.createDirectory(at(dir));
    },
  };
}

/** A file's stat; undefined when it is not there. */
async function statOf(uri: vscode.Uri): Promise<vscode.FileStat | undefined> {
  try {
    return await vscode.workspace.fs.stat(uri);
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw e;
  }
}

/** `length` bytes from `from` of the file (`p` names it in the error): read whole, refused past the range's bound. */
async function readRange(uri: vscode.Uri, p: string, from: number, length: number): Promise<Uint8Array> {
  const bound = from + length + READ_GROWTH_BYTES;
  const tooLarge = () => new Error(`${p} is larger than ${bound} bytes: not read`);
  const s = await vscode.workspace.fs.stat(uri);
  if (s.size > bound) throw tooLarge();
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.length > bound) throw tooLarge();
  return bytes.subarray(from, from + length);
}

/** The whole file, 'tooLarge' past `maxBytes`, undefined when it is not there. */
async function readWhole(uri: vscode.Uri, maxBytes: number): Promise<Uint8Array | 'tooLarge' | undefined> {
  // (no symbolic links here) the size is checked with a stat before reading, and again after
  const s = await statOf(uri);
  if (!s) return undefined;
  if (s.size > maxBytes) return 'tooLarge';
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (e) {
    if (isMissing(e)) return undefined;
    throw e;
  }
  return bytes.length > maxBytes ? 'tooLarge' : bytes;
}

function isMissing(e: unknown): boolean {
  return (
    (e instanceof vscode.FileSystemError && (e.code === 'FileNotFound' || e.code === 'EntryNotFound')) ||
    (e as { code?: string })?.code === 'ENOENT'
  );
}
