/**
 * The local disk's code (node:fs, never through a symbolic link): the extension's files in global storage, and exports.
 * Its own chunk (esbuild.js CHUNKS: disk), loaded by diskOnDemand.ts on the first read or write.
 */
export { nodeFiles } from './files';
export { nodePieceFile } from './pieceFile';
