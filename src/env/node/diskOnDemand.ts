import type { Files, PieceFile } from '../types';
import { storeFilesOnFirstUse } from '../storeFilesOnFirstUse';

/** The disk's code, loaded on the first read or write (not at start); later calls find it in the module cache. */
const disk = () => import('./disk');

/** nodeFiles(root) (src/env/node/files.ts: appends with O_APPEND), its code loaded on first use. */
export function filesOnDemand(root: string): Files {
  return storeFilesOnFirstUse(async () => (await disk()).nodeFiles(root), { append: true });
}

/** nodePieceFile (src/env/node/pieceFile.ts: an export), its code loaded on first use. */
export async function pieceFileOnDemand(path: string, replace: boolean, temp?: string): Promise<PieceFile> {
  return (await disk()).nodePieceFile(path, replace, temp);
}
