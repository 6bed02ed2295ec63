import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { StoreFileInfo, StoreFiles } from '../../core/history/log';

/**
 * History's files on a local disk (node:fs), under `root`: appends with O_APPEND (one write call per append), writes
 * a whole file atomically (a temporary file in the same folder, flushed, then renamed over it), reads ranges.
 */
export function nodeStoreFiles(root: string): StoreFiles {
  const at = (p: string) => path.join(root, ...p.split('/'));
  const info = (name: string, s: { size: number; mtimeMs: number }): StoreFileInfo => ({ name, size: s.size, mtime: Math.round(s.mtimeMs) });
  return {
    async list(dir) {
      let names: import('node:fs').Dirent[];
      try {
        names = await fs.readdir(at(dir), { withFileTypes: true });
      } catch {
        return [];
      }
      const stats = await Promise.all(names.filter((d) => d.isFile()).map(async (d) => [d.name, await fs.stat(path.join(at(dir), d.name)).catch(() => undefined)] as const));
      return stats.flatMap(([name, s]) => (s ? [info(name, s)] : []));
    },
    async stat(p) {
      const s = await fs.stat(at(p)).catch(() => undefined);
      return s?.isFile() ? info(path.basename(p), s) : undefined;
    },
    async read(p, from, length) {
      const handle = await fs.open(at(p), 'r');
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
      await fs.appendFile(at(p), bytes);
    },
    async write(p, bytes) {
      const target = at(p);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
      const handle = await fs.open(temp, 'w');
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
