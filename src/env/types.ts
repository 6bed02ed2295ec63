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
   * Optional (Node): the local disk, for the extension's global storage when its URI scheme is `file`. Without it (the
   * browser) the vscode layer uses vscode.workspace.fs.
   */
  files?: LocalFiles;
  /**
   * Optional: History's files on a local disk under `root` (a folder path), with append and atomic writes. Without
   * it (the browser), History goes through vscode.workspace.fs.
   */
  historyFiles?(root: string): StoreFiles;
}

/** Reads and writes that never follow a symbolic link and never read more than they were asked for. */
export interface LocalFiles {
  /**
   * The file's bytes; 'tooLarge' when it holds more than `maxBytes` (its size is checked on the open file, and at most
   * maxBytes + 1 bytes are read); undefined when it is missing. A symbolic link at `path` is refused (an error).
   */
  readCapped(path: string, maxBytes: number): Promise<Uint8Array | 'tooLarge' | undefined>;
  /**
   * Replaces the file whole: writes a temporary file beside it (a random name, created exclusively, so never through
   * a file or link planted at that name), then renames it over `path` (a reader sees the old file or the new one).
   */
  replace(path: string, bytes: Uint8Array): Promise<void>;
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
