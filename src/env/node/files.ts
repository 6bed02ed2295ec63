import { constants, promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { FileInfo, Files } from '../types';
import { tempNameFor } from './tempNameFor';

/** O_NOFOLLOW where the system has it (not on Windows, where creating a symbolic link needs a privilege). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
/**
 * O_NONBLOCK where the system has it (not on Windows): open() of a FIFO (or a device) planted at a file's name returns
 * at once, and is then refused as not a regular file, instead of waiting forever for the other end (and holding one of
 * libuv's few threads meanwhile). On a regular file it changes nothing.
 */
const NO_BLOCK = constants.O_NONBLOCK ?? 0;
const READ = constants.O_RDONLY | NO_FOLLOW | NO_BLOCK;

/** Refuses what an open() found that is not a regular file (a FIFO, a device, a socket): it is not the extension's. */
async function regularFile(handle: fs.FileHandle): Promise<import('node:fs').Stats> {
  const stat = await handle.stat();
  if (!stat.isFile()) throw new Error('not a regular file');
  return stat;
}

/** Creates `file` with `bytes`, flushed to the disk; fails (EEXIST) when anything, a symbolic link included, is there. */
export async function createExclusive(file: string, bytes: Uint8Array): Promise<void> {
  const handle = await fs.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Refuses `p` when a folder on its way under `root` (not its last name) is a symbolic link or not a folder. */
async function noLinkedFolderUnder(root: string, p: string): Promise<void> {
  let folder = root;
  const folders = p.split('/');
  folders.pop(); // the last name: O_NOFOLLOW's (a delete deletes a link there itself)
  for (const name of folders) {
    if (name === '' || name === '.') continue;
    folder = join(folder, name);
    const s = await fs.lstat(folder).catch((e: NodeJS.ErrnoException) => {
      if (e?.code === 'ENOENT') return undefined;
      throw e;
    });
    if (!s) return; // not there (yet): nothing under it to follow
    if (s.isSymbolicLink()) throw Object.assign(new Error(`${name} is a symbolic link`), { code: 'ELOOP' });
    if (!s.isDirectory()) throw Object.assign(new Error(`${name} is not a folder`), { code: 'ENOTDIR' });
  }
}

/** Up to `length` bytes of an open regular file from `from` (fewer at its end). */
async function readRange(handle: fs.FileHandle, from: number, length: number): Promise<Uint8Array> {
  await regularFile(handle);
  const buffer = Buffer.alloc(Math.max(0, length));
  let got = 0;
  while (got < length) {
    const { bytesRead } = await handle.read(buffer, got, length - got, from + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buffer.subarray(0, got);
}

/** The whole of an open regular file, or 'tooLarge' past `maxBytes` (also when it grows while read). */
async function readWhole(handle: fs.FileHandle, maxBytes: number): Promise<Uint8Array | 'tooLarge'> {
  const stat = await regularFile(handle);
  if (stat.size > maxBytes) return 'tooLarge';
  // The file may grow between the stat and the reads: never more than maxBytes + 1 bytes are read.
  let buffer = new Uint8Array(Math.min(stat.size, maxBytes) + 1);
  let length = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
    if (bytesRead === 0) break;
    length += bytesRead;
    if (length > maxBytes) return 'tooLarge';
    if (length === buffer.length) {
      const grown = new Uint8Array(Math.min(2 * buffer.length, maxBytes + 1));
      grown.set(buffer);
      buffer = grown;
    }
  }
  return buffer.subarray(0, length);
}

/** Uses an open file, then closes it (also when `use` fails). */
async function withHandle<T>(handle: fs.FileHandle, use: (handle: fs.FileHandle) => Promise<T>): Promise<T> {
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

/** Replaces `target` whole: a temporary file created exclusively beside it (tempNameFor), then renamed over it. */
async function replaceWhole(target: string, bytes: Uint8Array): Promise<void> {
  await fs.mkdir(dirname(target), { recursive: true });
  const temp = tempNameFor(target);
  await createExclusive(temp, bytes);
  try {
    await fs.rename(temp, target);
  } catch (e) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/**
 * The files under `root` on the local disk of a Node extension host (see Files): appends with O_APPEND (one write
 * call per append), replaces a file whole through a temporary file created exclusively beside it (tempNameFor), reads
 * ranges and whole files within a bound. No symbolic link under `root` is followed: a link planted at a file is
 * neither read nor written through (O_NOFOLLOW; a replace puts a file in its place), and a path through a folder that
 * is a link is refused (each folder under `root` is checked with lstat before the operation: O_NOFOLLOW covers only
 * the last name; a link planted between the check and the operation is not caught). A link at the last name of a
 * delete is deleted itself, never what it points to. `root` itself is VS Code's, and may be reached through a link.
 */
export function nodeFiles(root: string): Files {
  const at = (p: string) => join(root, ...p.split('/'));
  const noLinkedFolder = (p: string) => noLinkedFolderUnder(root, p);
  return {
    list: (dir) => listFiles(at(dir), () => noLinkedFolder(`${dir}/.`)), // the folder itself too

    async stat(p) {
      const s = await noLinkedFolder(p)
        .then(() => fs.lstat(at(p)))
        .catch((e: NodeJS.ErrnoException) => {
          if (e?.code === 'ENOENT' || e?.code === 'ENOTDIR' || e?.code === 'ELOOP') return undefined;
          throw e;
        });
      return s?.isFile() ? fileInfo(basename(at(p)), s) : undefined;
    },
    async read(p, from, length) {
      await noLinkedFolder(p);
      return withHandle(await fs.open(at(p), READ), (handle) => readRange(handle, from, length));
    },
    async readCapped(p, maxBytes) {
      let handle: fs.FileHandle;
      try {
        await noLinkedFolder(p);
        handle = await fs.open(at(p), READ);
      } catch (e) {
        if ((e as NodeJS.ErrnoException)?.code === 'ENOENT') return undefined;
        throw e;
      }
      return withHandle(handle, (h) => readWhole(h, maxBytes));
    },
    async replace(p, bytes) {
      await noLinkedFolder(p);
      await replaceWhole(at(p), bytes);
    },
    async append(p, bytes) {
      await noLinkedFolder(p);
      // (a FIFO with no reader: ENXIO at once; with one: refused before anything is written)
      const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW | NO_BLOCK;
      await withHandle(await fs.open(at(p), flags, 0o600), async (handle) => {
        await regularFile(handle);
        await handle.writeFile(bytes);
      });
    },
    async rename(from, to) {
      await noLinkedFolder(from);
      await noLinkedFolder(to);
      await fs.rename(at(from), at(to));
    },
    async delete(p) {
      await noLinkedFolder(p);
      await fs.rm(at(p), { recursive: true, force: true });
    },
    async mkdir(dir) {
      await noLinkedFolder(`${dir}/.`); // the folder itself too: a link there would be taken for it
      await fs.mkdir(at(dir), { recursive: true });
    },
  };
}

/** A file's name, size and time of its last change (whole milliseconds). */
function fileInfo(name: string, s: { size: number; mtimeMs: number }): FileInfo {
  return { name, size: s.size, mtime: Math.round(s.mtimeMs) };
}

/**
 * The regular files of `folder` (no link, no folder), once `checked` (no linked folder on the way) holds; none when it
 * cannot be read.
 */
async function listFiles(folder: string, checked: () => Promise<void>): Promise<FileInfo[]> {
  let names: import('node:fs').Dirent[];
  try {
    await checked();
    names = await fs.readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const stats = await Promise.all(
    names
      .filter((d) => d.isFile())
      .map(async (d) => [d.name, await fs.lstat(join(folder, d.name)).catch(() => undefined)] as const),
  );
  return stats.flatMap(([name, s]) => (s?.isFile() ? [fileInfo(name, s)] : []));
}
