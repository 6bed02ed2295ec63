import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { HttpAnswer, Platform } from '../types';
import { filesOnDemand, pieceFileOnDemand } from './diskOnDemand';

/** Node (desktop, remote and code-server extension hosts): node-fetch, which goes through VS Code's proxy support. */
export const nodePlatform: Platform = {
  async httpGet(url, { headers, signal }): Promise<HttpAnswer> {
    // Loaded on the first request, not at activation: node-fetch and its parts are their own chunk (esbuild.js CHUNKS).
    const { fetch } = await import('./fetch');
    const response = await fetch(url, { method: 'GET', redirect: 'manual', signal, headers });
    const body = response.body as Readable | null;
    return {
      status: response.status,
      statusText: response.statusText,
      header: (name) => response.headers.get(name),
      body,
      cancel: () => body?.destroy(),
    };
  },
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
