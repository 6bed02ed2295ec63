import type { ExportSink } from './exportRun';
import { targetExistsError } from './exportRun';

/*
 * An export through a file system that cannot append (vscode.workspace.fs: the browser, a remote or virtual folder):
 * the chunks are held, then written at once to a temporary name beside the target and renamed over it. What it holds is
 * bounded: a write past WHOLE_FILE_BYTES is refused (the export stops and says so), so the heap holds at most the bound
 * twice (the chunks, then the file made of them, each chunk let go as it is copied). Pure: the file system is a port.
 */

/** The most bytes an export through workspace.fs holds (about 220,000 runs of CSV). */
export const WHOLE_FILE_BYTES = 32 * 1024 * 1024;

/** What a whole-file sink needs of its file system: the target, and the temporary file beside it. */
export interface WholeFilePort {
  /** Whether the target exists. */
  exists(): Promise<boolean>;
  /** Writes the temporary file whole. */
  writeTemporary(bytes: Uint8Array): Promise<void>;
  /** Renames the temporary file to the target (`replace`: over an existing one). */
  renameToTarget(replace: boolean): Promise<void>;
  /** Deletes the temporary file (never throws). */
  removeTemporary(): Promise<void>;
}

/** Thrown by a write past the bound: `tooLarge` is the bound in bytes (tell it by isTooLarge). */
function tooLargeError(limit: number): Error {
  return Object.assign(new Error(`the export is larger than ${limit} bytes`), { tooLarge: limit });
}

/** Whether an error says the export went past a whole-file sink's bound. */
export function isTooLarge(error: unknown): boolean {
  return typeof error === 'object' && error !== null && typeof (error as { tooLarge?: unknown }).tooLarge === 'number';
}

/** A sink that holds the whole file until its commit, at most `limit` bytes. */
export function wholeFileSink(port: WholeFilePort, replace: boolean, limit = WHOLE_FILE_BYTES): ExportSink {
  let chunks: Uint8Array[] = [];
  let size = 0;
  const encoder = new TextEncoder();
  let written = false;
  return {
    async write(text) {
      const bytes = encoder.encode(text);
      if (size + bytes.length > limit) {
        chunks = [];
        throw tooLargeError(limit);
      }
      chunks.push(bytes);
      size += bytes.length;
    },
    async commit() {
      if (!replace && (await port.exists())) throw targetExistsError();
      const all = new Uint8Array(size);
      let at = 0;
      for (let i = 0; i < chunks.length; i++) {
        all.set(chunks[i], at);
        at += chunks[i].length;
        chunks[i] = EMPTY; // let go as copied
      }
      chunks = [];
      written = true;
      await port.writeTemporary(all);
      await port.renameToTarget(replace);
      written = false;
    },
    async abort() {
      chunks = [];
      if (written) await port.removeTemporary().catch(() => undefined);
    },
  };
}

const EMPTY = new Uint8Array(0);
