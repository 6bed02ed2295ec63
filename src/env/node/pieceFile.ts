import { constants, promises as fs } from 'node:fs';
import type { PieceFile } from '../types';
import { tempNameFor } from './tempNameFor';

/** O_NOFOLLOW where the system has it (not on Windows). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * A file on the local disk written in pieces (see Platform.pieceFile): a temporary file beside `target` (a random
 * name, created exclusively, never through a link), written piece by piece, then renamed to `target` on commit. Not
 * replacing: a hard link to `target` (which fails with EEXIST when anything is there: no check-then-write race), then
 * the temporary name is removed; where the file system has no hard links, a rename after a check. `temp` (a temporary
 * name of temporaryName.ts beside `target`) is given by a caller that remembers it before it exists (an export).
 */
export async function nodePieceFile(
  target: string,
  replace: boolean,
  temp: string = tempNameFor(target),
): Promise<PieceFile> {
  const handle = await fs.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o600);
  let open = true;
  const close = async () => {
    if (!open) return;
    open = false;
    await handle.close();
  };
  return {
    async write(text) {
      await handle.write(text, null, 'utf8');
    },
    async commit() {
      await handle.sync().catch(() => undefined);
      await close();
      if (replace) {
        await fs.rename(temp, target);
        return;
      }
      try {
        await fs.link(temp, target);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException)?.code;
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw e;
        // no hard links here (a FAT drive, some network shares): a check, then the rename
        if (
          await fs.lstat(target).then(
            () => true,
            () => false,
          )
        ) {
          throw Object.assign(new Error('EEXIST: the file exists'), { code: 'EEXIST' });
        }
        await fs.rename(temp, target);
        return;
      }
      await fs.rm(temp, { force: true });
    },
    async abort() {
      await close().catch(() => undefined);
      await fs.rm(temp, { force: true }).catch(() => undefined);
    },
  };
}
