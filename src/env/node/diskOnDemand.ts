import { onFirstUse } from '../../base/onFirstUse';
import type { Files, PieceFile } from '../types';
import { storeFilesOnFirstUse } from '../storeFilesOnFirstUse';

/** nodeFiles(root) (src/env/node/files.ts: appends with O_APPEND), its code loaded on the first read or write. */
export function filesOnDemand(root: string): Files {
  return storeFilesOnFirstUse(
    onFirstUse(async () => (await import('./files')).nodeFiles(root)),
    { append: true },
  );
}

/** The code of a file written in pieces (an export), loaded on the first export. */
const pieceFiles = onFirstUse(() => import('./pieceFile'));

/** nodePieceFile (src/env/node/pieceFile.ts: an export), its code loaded on first use. */
export async function pieceFileOnDemand(path: string, replace: boolean, temp?: string): Promise<PieceFile> {
  return (await pieceFiles.get()).nodePieceFile(path, replace, temp);
}
