import { own } from '../base/own';
import type { PieceFile } from '../env/types';
import type { HistoryEntry } from '../history/entry';
import {
  EXPORT_CHUNK_ROWS,
  exportChunks,
  exportRow,
  type ExportFormat,
  type ExportMask,
  type ExportRow,
} from './export';

/*
 * Export History... (issue #31), how a file is written: the rows of the services asked for (each under its filter),
 * streamed a chunk at a time into a temporary file beside the target, which becomes the target only when every chunk
 * is written. A cancelled or failed export deletes the temporary file: it leaves no partial file, and a file it would
 * have replaced is untouched. Pure: the file is a port (src/env: node:fs on a local disk, workspace.fs elsewhere).
 */

/** A file being written: a temporary file beside the target until `commit` renames it into place (src/env/types.ts). */
export type ExportSink = PieceFile;

/** Thrown by a sink's commit (or open) when the target exists and may not be replaced (tell it by `targetExists`). */
export function targetExistsError(): Error {
  return Object.assign(new Error('EEXIST: the file exists'), { targetExists: true });
}

/** Whether an error says the target exists (a sink opened not to replace one): ours, node:fs's EEXIST, workspace.fs's FileExists. */
export function isTargetExists(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { targetExists?: unknown; code?: unknown };
  return e.targetExists === true || e.code === 'EEXIST' || e.code === 'FileExists';
}

/** One service's runs as the export takes them: its name (the `service` column), its runs (newest first), its filter. */
export interface ExportSource {
  readonly service: string;
  readonly entries: readonly HistoryEntry[];
  /** The History view's filter, where one is set: only the runs it keeps are exported. */
  readonly filter?: (entry: HistoryEntry) => boolean;
}

/** The rows of every source, in order, each made when its chunk is written (never all at once). */
export function* exportRows(sources: readonly ExportSource[], mask: ExportMask): Generator<ExportRow> {
  // A mask of this export's own: the cells it remembers (see exportRow) are forgotten with it.
  const ownMask: ExportMask = (text, max) => mask(text, max);
  for (const { service, entries, filter } of sources) {
    for (const entry of entries) if (!filter || filter(entry)) yield exportRow(service, entry, ownMask);
  }
}

/** The most rows an export can have: every run of the sources (the filter may keep fewer). */
export function exportTotal(sources: readonly ExportSource[]): number {
  return sources.reduce((n, s) => n + s.entries.length, 0);
}

export type ExportOutcome = { readonly kind: 'done'; readonly rows: number } | { readonly kind: 'cancelled' };

export interface ExportRun {
  readonly format: ExportFormat;
  readonly sources: readonly ExportSource[];
  /** Masks service text for the file (the window's masking: the key and any piece of it removed, bounded). */
  readonly mask: ExportMask;
  /** Asked before each chunk: true stops the export (and deletes the temporary file). */
  readonly cancelled: () => boolean;
  /** Told after each chunk written: the rows written so far. */
  readonly progress?: (rows: number) => void;
}

/**
 * Writes the export into `open()`'s sink chunk by chunk, then commits it. Cancelled: the sink is aborted (no file).
 * Failed (a write or the commit threw): the sink is aborted and the error is thrown again.
 */
export async function writeExport(open: () => Promise<ExportSink>, run: ExportRun): Promise<ExportOutcome> {
  let rows = 0;
  const counted = (function* () {
    for (const row of exportRows(run.sources, run.mask)) {
      rows++;
      yield row;
    }
  })();
  if (run.cancelled()) return { kind: 'cancelled' };
  const sink = await open();
  try {
    let start = FILE_START[run.format];
    for (const chunk of exportChunks(run.format, counted)) {
      if (run.cancelled()) {
        await sink.abort();
        return { kind: 'cancelled' };
      }
      await sink.write(start + chunk);
      start = '';
      run.progress?.(rows);
    }
    if (run.cancelled()) {
      await sink.abort();
      return { kind: 'cancelled' };
    }
    await sink.commit();
  } catch (e) {
    await sink.abort();
    throw e;
  }
  return { kind: 'done', rows };
}

/**
 * What a file begins with. CSV: the UTF-8 byte order mark, so a spreadsheet (Excel above all, which reads a CSV without
 * it in the system's legacy code page) shows flow names with accents or in any script as they are; CSV is the
 * spreadsheet format of Export, and the mark is the one way a CSV says it is UTF-8. JSON Lines: nothing (RFC 8259
 * forbids the mark in JSON; scripts read it).
 */
const FILE_START: Readonly<Record<ExportFormat, string>> = { csv: '\ufeff', jsonl: '' };

/** The chunk size, for a progress bar: rows a step. */
export const EXPORT_STEP_ROWS = EXPORT_CHUNK_ROWS;

/** The argument form of the command, for tasks and key bindings: it asks nothing. */
export interface ExportArgument {
  readonly uri: string;
  readonly format: ExportFormat;
  readonly service?: string;
  readonly filter?: string;
}

/** Longest `uri`, `service` and `filter` accepted in the argument (a key binding's JSON is not trusted to be small). */
const MAX_URI = 4_096;
const MAX_SERVICE = 200;
const MAX_FILTER = 200;

/**
 * The command's argument: undefined when it was not given as an object with a `uri` of its own (a palette run, a
 * view's title button: the command asks; anything else given is refused before the command runs,
 * src/commands/commandArgs.ts); a problem sentence's key when it is malformed (the command says so and writes nothing).
 */
export function exportArgument(
  raw: unknown,
): ExportArgument | { readonly problem: 'format' | 'uri' | 'service' | 'filter' } | undefined {
  // Only the object's own fields (a polluted prototype adds none), each read once.
  const uri = own(raw, 'uri');
  if (uri === undefined) return undefined;
  const [format, service, filter] = [own(raw, 'format'), own(raw, 'service'), own(raw, 'filter')];
  if (typeof uri !== 'string' || !uri.trim() || uri.length > MAX_URI) return { problem: 'uri' };
  if (format !== 'csv' && format !== 'jsonl') return { problem: 'format' };
  if (service !== undefined && (typeof service !== 'string' || service.length > MAX_SERVICE)) {
    return { problem: 'service' };
  }
  if (filter !== undefined && (typeof filter !== 'string' || filter.length > MAX_FILTER)) {
    return { problem: 'filter' };
  }
  return {
    uri: uri.trim(),
    format,
    ...(typeof service === 'string' && service.trim() ? { service: service.trim() } : {}),
    ...(typeof filter === 'string' && filter.trim() ? { filter: filter.trim() } : {}),
  };
}
