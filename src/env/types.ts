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
   * Optional (Node): the files under `root` (a folder path) on the local disk, for the extension's global storage when
   * its URI scheme is `file`: with append, and never through a symbolic link. Without it (the browser) the vscode
   * layer uses vscode.workspace.fs (src/env/vscode/storageFiles.ts).
   */
  files?(root: string): Files;
  /**
   * Optional (Node): a file on the local disk written in pieces (an export): the pieces go to a temporary file beside
   * `path` (temporaryName: a random name, created exclusively), which `commit` renames to `path`. With `replace` false, commit
   * fails with EEXIST when `path` exists (checked by the rename itself: a hard link, which never replaces a file).
   * Without it (the browser), the vscode layer uses vscode.workspace.fs. `temp`: the temporary file's path, when the
   * caller chose it (temporaryPath, beside `path`) to remember it before it exists.
   */
  pieceFile?(path: string, replace: boolean, temp?: string): Promise<PieceFile>;
}

/** A file written in pieces into a temporary file, which becomes the file only on `commit`. */
export interface PieceFile {
  write(text: string): Promise<void>;
  /** Makes the temporary file the target (refusing an existing target when opened so). */
  commit(): Promise<void>;
  /** Deletes the temporary file; the target is as it was. Never throws. */
  abort(): Promise<void>;
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

/** A file as listed: its name in its folder, its size (bytes) and when it last changed (ms). */
export interface FileInfo {
  readonly name: string;
  readonly size: number;
  readonly mtime: number;
}

/**
 * The one way the extension keeps files of its own (in its global storage): the files under one folder, by paths
 * relative to it with `/` ("<folder>/<file>"). Crash safe: a file is replaced whole (atomically) or appended to, never
 * rewritten in place, so a reader sees the old file or the new one, or a complete prefix; reads are bounded, so
 * nothing unbounded is parsed. On a local disk no symbolic link under the folder is followed (at a file or at a folder
 * on its way) and only regular files are read or appended to (src/env/node/files.ts). Made for a folder by
 * `platform.files` (Node) or, elsewhere, through vscode.workspace.fs (src/env/vscode/).
 */
export interface Files {
  /** The files (not folders) of a folder; [] when there is none. */
  list(dir: string): Promise<FileInfo[]>;
  /** The size and time of one file; undefined when there is no file there. */
  stat(path: string): Promise<FileInfo | undefined>;
  /**
   * Bytes [from, from + length) of a file (fewer at its end). On a local disk only those bytes are read; through
   * vscode.workspace.fs, which reads whole files, a file longer than from + length + READ_GROWTH_BYTES (1 MB) is
   * refused (checked by its size before the read and by its length after).
   */
  read(path: string, from: number, length: number): Promise<Uint8Array>;
  /**
   * A bounded read of a whole file: its bytes; 'tooLarge' when it holds more than `maxBytes` (checked before it is read;
   * at most maxBytes + 1 bytes are read); undefined when it is missing.
   */
  readCapped(path: string, maxBytes: number): Promise<Uint8Array | 'tooLarge' | undefined>;
  /**
   * An atomic replace: the bytes go to a temporary file beside it (temporaryName: a random name, created exclusively
   * where the platform can), which is then renamed over it. Makes its folder.
   */
  replace(path: string, bytes: Uint8Array): Promise<void>;
  /** Where the platform has it (not vscode.workspace.fs): adds bytes at the end of a file in one write, making the file. */
  append?(path: string, bytes: Uint8Array): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Deletes a file, or a folder with all it holds; nothing when there is none. */
  delete(path: string): Promise<void>;
  mkdir(dir: string): Promise<void>;
}
