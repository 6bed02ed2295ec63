import type { LocalFiles, PieceFile, StoreFiles } from '../types';
import { storeFilesOnFirstUse } from '../storeFilesOnFirstUse';

/** The disk's code, loaded on the first read or write (not at start); later calls find it in the module cache. */
const disk = () => import('./disk');

/** nodeFiles (src/env/node/files.ts), its code loaded on first use. */
export const filesOnDemand: LocalFiles = {
  readCapped: async (path, maxBytes) => (await disk()).nodeFiles.readCapped(path, maxBytes),
  replace: async (path, bytes) => (await disk()).nodeFiles.replace(path, bytes),
};

/** nodeStoreFiles(root) (src/env/node/historyFiles.ts: appends with O_APPEND), its code loaded on first use. */
export function storeFilesOnDemand(root: string): StoreFiles {
  return storeFilesOnFirstUse(async () => (await disk()).nodeStoreFiles(root), { append: true });
}

/** nodePieceFile (src/env/node/pieceFile.ts: Export History...), its code loaded on first use. */
export async function pieceFileOnDemand(path: string, replace: boolean): Promise<PieceFile> {
  return (await disk()).nodePieceFile(path, replace);
}
