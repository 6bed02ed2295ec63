import { createHash } from 'node:crypto';
import type { Platform } from '../types';
import { nodeFiles } from './files';
import { httpGet } from './nodeHttp';
import { nodePieceFile } from './pieceFile';

/**
 * Node (desktop, remote and code-server extension hosts): node-fetch, which goes through VS Code's proxy support, and
 * node:fs. Part of the services' chunk (esbuild.js CHUNKS), which every configured start loads once activate() has
 * returned: the first request and the first read of History come within seconds of it.
 */
export const nodePlatform: Platform = {
  httpGet,
  createHasher() {
    const hash = createHash('sha1');
    return { update: (chunk) => hash.update(chunk), digest: () => hash.digest('base64') };
  },
  decodeUtf8: (chunks, totalBytes) =>
    (chunks.length === 1
      ? Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength)
      : Buffer.concat(chunks as Uint8Array[], totalBytes)
    ).toString('utf8'),
  sameBytes: (a, b) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b),
  files: nodeFiles,
  pieceFile: nodePieceFile,
};
