import { isTemporaryName } from '../env/temporaryName';
import type { ExportSink } from './exportRun';
import { STATE_KEYS } from '../base/stateKeys';

/*
 * An export's temporary file is remembered (VS Code's globalState) from before it exists until its commit or abort, so
 * one left by a killed export (the window closed, the extension host ended) is removed at the next start. Pure: the
 * memory and the files are ports, time is given.
 */

/** The globalState key of the temporary files being written: [{ where, at }]. */
export const LEFTOVERS_STATE_KEY = STATE_KEYS.exportTemporaryFiles;
/** A temporary file touched within this long may be another window's export still being written: looked at again. */
export const LEFTOVER_QUIET_MS = 60_000;
/** The most temporary files remembered (several windows exporting at once; a bound on what globalState holds). */
const MAX_REMEMBERED = 20;
const MAX_WHERE = 8_192;

export interface LeftoverMemory {
  get(): unknown;
  update(value: readonly Leftover[]): PromiseLike<void>;
}

/** A temporary file remembered: where (a URI), and when its export began (ms). */
export interface Leftover {
  readonly where: string;
  readonly at: number;
}

/** What the start needs of the files: a file's last change (undefined: none there), and its deletion. */
export interface LeftoverFiles {
  modifiedAt(where: string): Promise<number | undefined>;
  remove(where: string): Promise<void>;
}

/** The temporary files remembered, read as untrusted: only temporary names of ours (temporaryName.ts), bounded. */
export function rememberedLeftovers(raw: unknown): Leftover[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter(
      (e): e is Leftover =>
        typeof e === 'object' &&
        e !== null &&
        typeof (e as Leftover).where === 'string' &&
        (e as Leftover).where.length <= MAX_WHERE &&
        isTemporaryName((e as Leftover).where.replace(/^.*[/\\]/, '')) &&
        Number.isFinite((e as Leftover).at),
    )
    .slice(-MAX_REMEMBERED);
}

/**
 * A sink whose temporary file `where` is remembered before `open` makes it, and forgotten once it is committed or
 * aborted (a failed open forgets it too).
 */
export async function rememberedSink(
  memory: LeftoverMemory,
  where: string,
  now: number,
  open: () => Promise<ExportSink>,
): Promise<ExportSink> {
  await memory.update([...rememberedLeftovers(memory.get()).filter((e) => e.where !== where), { where, at: now }]);
  const forget = () => memory.update(rememberedLeftovers(memory.get()).filter((e) => e.where !== where));
  let sink: ExportSink;
  try {
    sink = await open();
  } catch (e) {
    await forget();
    throw e;
  }
  return {
    write: (text) => sink.write(text),
    async commit() {
      await sink.commit();
      await forget();
    },
    async abort() {
      await sink.abort();
      await forget();
    },
  };
}

/**
 * At the start: removes every temporary file a killed export left, and forgets it. One changed within
 * LEFTOVER_QUIET_MS (or not made yet, its export begun that recently) may be another window's export: it is kept, and
 * `again` says in how many ms to look once more.
 */
export async function removeLeftovers(
  memory: LeftoverMemory,
  files: LeftoverFiles,
  now: number,
): Promise<{ removed: number; again?: number }> {
  const seen = rememberedLeftovers(memory.get());
  const kept = new Set<string>();
  let removed = 0;
  for (const leftover of seen) {
    const modified = await files.modifiedAt(leftover.where).catch(() => undefined);
    const last = Math.max(leftover.at, modified ?? -Infinity);
    if (now - last < LEFTOVER_QUIET_MS && leftover.at <= now) {
      kept.add(leftover.where);
      continue;
    }
    if (modified !== undefined) {
      await files.remove(leftover.where).then(
        () => removed++,
        () => undefined,
      );
    }
  }
  // forgets what it removed (or found gone); what another window remembered meanwhile stays
  const done = new Set(seen.filter((e) => !kept.has(e.where)).map((e) => e.where));
  if (done.size) await memory.update(rememberedLeftovers(memory.get()).filter((e) => !done.has(e.where)));
  return kept.size ? { removed, again: LEFTOVER_QUIET_MS } : { removed };
}
