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
  /** The UTF-8 text of the chunks read (one chunk: decoded where it lies, not copied). */
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
  /**
   * Optional (Node): a file on the local disk written in pieces (Export History...): the pieces go to a temporary file
   * beside `path` (a random name, created exclusively), which `commit` renames to `path`. With `replace` false, commit
   * fails with EEXIST when `path` exists (checked by the rename itself: a hard link, which never replaces a file).
   * Without it (the browser), the vscode layer uses vscode.workspace.fs.
   */
  pieceFile?(path: string, replace: boolean): Promise<PieceFile>;
}

/** A file written in pieces into a temporary file, which becomes the file only on `commit`. */
export interface PieceFile {
  write(text: string): Promise<void>;
  /** Makes the temporary file the target (refusing an existing target when opened so). */
  commit(): Promise<void>;
  /** Deletes the temporary file; the target is as it was. Never throws. */
  abort(): Promise<void>;
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

export interface StoreFileInfo {
  readonly name: string;
  readonly size: number;
  readonly mtime: number;
}

/**
 * What the store needs from a file system, with paths relative to the History root ("<origin folder>/<file>").
 * `write` is atomic (a temporary file in the same folder, then a rename). `append`, where the platform has it, adds
 * bytes at the end, creating the file.
 */
export interface StoreFiles {
  /** The files (not folders) of a folder; [] when it does not exist. */
  list(dir: string): Promise<StoreFileInfo[]>;
  /** The size and time of one file, or undefined when there is none. */
  stat(path: string): Promise<StoreFileInfo | undefined>;
  /** Bytes [from, from + length) of a file (fewer at its end). */
  read(path: string, from: number, length: number): Promise<Uint8Array>;
  write(path: string, bytes: Uint8Array): Promise<void>;
  append?(path: string, bytes: Uint8Array): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  delete(path: string): Promise<void>;
  /** Deletes a folder and all it holds; nothing when there is none. */
  deleteDir(dir: string): Promise<void>;
  mkdir(dir: string): Promise<void>;
}
