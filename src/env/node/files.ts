import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { LocalFiles } from '../types';

/** O_NOFOLLOW where the system has it (not on Windows, where creating a symbolic link needs a privilege). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** A temporary name beside `target`: 128 random bits, so another local user or program cannot plant a file there. */
export function tempNameFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(16).toString('hex')}.tmp`);
}

/** Creates `file` with `bytes`; fails (EEXIST) when anything, a symbolic link included, is already there. */
export async function createExclusive(file: string, bytes: Uint8Array): Promise<void> {
  const handle = await fs.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o600);
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
}

/** The local disk of a Node extension host (see LocalFiles). */
export const nodeFiles: LocalFiles = {
  async readCapped(file, maxBytes) {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, constants.O_RDONLY | NO_FOLLOW);
    } catch (e) {
      if ((e as NodeJS.ErrnoException)?.code === 'ENOENT') return undefined;
      throw e;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new Error('not a regular file');
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
    } finally {
      await handle.close();
    }
  },

  async replace(file, bytes) {
    const temp = tempNameFor(file);
    await createExclusive(temp, bytes);
    try {
      await fs.rename(temp, file);
    } catch (e) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw e;
    }
  },
};
