import { createHash } from 'node:crypto';
import { onFirstUse } from '../../base/onFirstUse';
import type { Platform } from '../types';
import { filesOnDemand, pieceFileOnDemand } from './diskOnDemand';

/** node-fetch and its parts, loaded on the first request, not at activation (esbuild.js CHUNKS: fetch). */
const http = onFirstUse(() => import('./nodeHttp'));

/** Node (desktop, remote and code-server extension hosts): node-fetch, which goes through VS Code's proxy support. */
export const nodePlatform: Platform = {
  httpGet: async (url, options) => (await http.get()).httpGet(url, options),
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
  // node:fs code is its own chunk, loaded on the first read or write (esbuild.js CHUNKS: disk).
  files: filesOnDemand,
  pieceFile: pieceFileOnDemand,
};
