import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { StoreFileInfo, StoreFiles } from '../types';

/**
 * History's files on a local disk (node:fs), under `root`: appends with O_APPEND (one write call per append), writes
 * a whole file atomically (a temporary file in the same folder, flushed, then renamed over it), reads ranges. Like
 * every file of global storage on a local disk (src/env/node/files.ts), nothing follows a symbolic link: a link planted
 * at a History file is neither read nor written through, and the temporary name is random (128 bits) and created
 * exclusively.
 */
export function nodeStoreFiles(root: string): StoreFiles {
  const at = (p: string) => join(root, ...p.split('/'));
  const info = (name: string, s: { size: number; mtimeMs: number }): StoreFileInfo => ({
    name,
    size: s.size,
    mtime: Math.round(s.mtimeMs),
  });
  return {
    async list(dir) {
      let names: import('node:fs').Dirent[];
      try {
        names = await fs.readdir(at(dir), { withFileTypes: true });
      } catch {
        return [];
      }
      const stats = await Promise.all(
        names
          .filter((d) => d.isFile())
          .map(async (d) => [d.name, await fs.lstat(join(at(dir), d.name)).catch(() => undefined)] as const),
      );
      return stats.flatMap(([name, s]) => (s?.isFile() ? [info(name, s)] : []));
    },
    async stat(p) {
      const s = await fs.lstat(at(p)).catch(() => undefined);
      return s?.isFile() ? info(basename(p), s) : undefined;
    },
    async read(p, from, length) {
      const handle = await fs.open(at(p), constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        const buffer = Buffer.alloc(Math.max(0, length));
        let got = 0;
        while (got < length) {
          const { bytesRead } = await handle.read(buffer, got, length - got, from + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        return buffer.subarray(0, got);
      } finally {
        await handle.close();
      }
    },
    async append(p, bytes) {
      const handle = await fs.open(
        at(p),
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
        0o600,
      );
      try {
        await handle.writeFile(bytes);
      } finally {
        await handle.close();
      }
    },
    async write(p, bytes) {
      const target = at(p);
      await fs.mkdir(dirname(target), { recursive: true });
      const temp = `${target}.tmp-${randomBytes(16).toString('hex')}`;
      const handle = await fs.open(
        temp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, target);
    },
    async rename(from, to) {
      await fs.rename(at(from), at(to));
    },
    async delete(p) {
      await fs.rm(at(p), { force: true });
    },
    async deleteDir(dir) {
      await fs.rm(at(dir), { recursive: true, force: true });
    },
    async mkdir(dir) {
      await fs.mkdir(at(dir), { recursive: true });
    },
  };
}
