import type { StoreFiles } from '../core/history/log';

/**
 * What the HTTP client needs from the platform it runs on. The Node implementation (src/env/node) uses node-fetch
 * and node:crypto; the browser one (src/env/browser) the global fetch and a small hash. src/env/platform.ts picks
 * the Node one; the browser bundle swaps that module for src/env/platform.browser.ts at bundle time (esbuild.js).
 */
export interface Platform {
  /** A GET that never follows redirects: a 3xx answer comes back as it is. */
  httpGet(url: string, init: { headers: Record<string, string>; signal: AbortSignal }): Promise<HttpAnswer>;
  /** An incremental hash of the body, to recognise an identical answer (not a security measure). */
  createHasher(): Hasher;
  /** The UTF-8 text of the chunks read. */
  decodeUtf8(chunks: readonly Uint8Array[], totalBytes: number): string;
  /**
   * Optional: whether two byte ranges of the same length are equal, natively (memcmp). With it, an answer with the
   * same bytes as the last one is recognised by comparing instead of counting and hashing it (see readCapped).
   */
  sameBytes?(a: Uint8Array, b: Uint8Array): boolean;
  /**
   * Optional: History's files on a local disk under `root` (a folder path), with append and atomic writes. Without
   * it (the browser), History goes through vscode.workspace.fs.
   */
  historyFiles?(root: string): StoreFiles;
}

export interface HttpAnswer {
  status: number;
  statusText: string;
  header(name: string): string | null;
  /** The body as it arrives; null when there is none. */
  body: AsyncIterable<Uint8Array> | null;
  /** Stops reading the body and releases the connection. */
  cancel(): void;
}

export interface Hasher {
  update(chunk: Uint8Array): void;
  digest(): string;
}
