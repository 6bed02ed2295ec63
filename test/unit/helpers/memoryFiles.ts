import type { FileInfo, Files } from '../../../src/history/log';

/**
 * History's files in memory, for the unit tests: a map of path → bytes and mtime (from `now`). Counts the bytes each
 * call read and wrote. `append: false` behaves like workspace.fs (no append).
 */
export class MemoryFiles implements Files {
  readonly data = new Map<string, { bytes: Uint8Array; mtime: number }>();
  bytesRead = 0;
  bytesWritten = 0;
  readonly append?: (path: string, bytes: Uint8Array) => Promise<void>;
  /**
   * A fault for the next appends and writes: how many of their bytes reach the file before the call fails (no space
   * left on the device; a write, atomic, leaves nothing), or undefined: no fault.
   */
  fault: ((path: string, bytes: Uint8Array) => number | undefined) | undefined;

  constructor(
    private readonly now: () => number,
    { append = true } = {},
  ) {
    if (append) {
      this.append = async (path, whole) => {
        const cut = this.fault?.(path, whole);
        const bytes = cut === undefined ? whole : whole.subarray(0, cut);
        const old = this.data.get(path)?.bytes ?? new Uint8Array();
        const next = new Uint8Array(old.length + bytes.length);
        next.set(old);
        next.set(bytes, old.length);
        this.bytesWritten += bytes.length;
        this.data.set(path, { bytes: next, mtime: this.now() });
        if (cut !== undefined) throw noSpace();
      };
    }
  }

  text(path: string): string {
    return new TextDecoder().decode(this.data.get(path)?.bytes);
  }

  put(path: string, text: string, mtime = this.now()): void {
    this.data.set(path, { bytes: new TextEncoder().encode(text), mtime });
  }

  async list(dir: string): Promise<FileInfo[]> {
    const prefix = `${dir}/`;
    return [...this.data]
      .filter(([p]) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
      .map(([p, f]) => ({ name: p.slice(prefix.length), size: f.bytes.length, mtime: f.mtime }));
  }

  async stat(path: string): Promise<FileInfo | undefined> {
    const f = this.data.get(path);
    return f && { name: path.slice(path.lastIndexOf('/') + 1), size: f.bytes.length, mtime: f.mtime };
  }

  async read(path: string, from: number, length: number): Promise<Uint8Array> {
    const f = this.data.get(path);
    if (!f) throw new Error(`no file ${path}`);
    const out = f.bytes.slice(from, from + length);
    this.bytesRead += out.length;
    return out;
  }

  async readCapped(path: string, maxBytes: number): Promise<Uint8Array | 'tooLarge' | undefined> {
    const f = this.data.get(path);
    if (!f) return undefined;
    if (f.bytes.length > maxBytes) return 'tooLarge';
    this.bytesRead += f.bytes.length;
    return f.bytes.slice();
  }

  async replace(path: string, bytes: Uint8Array): Promise<void> {
    if (this.fault?.(path, bytes) !== undefined) throw noSpace();
    this.bytesWritten += bytes.length;
    this.data.set(path, { bytes: bytes.slice(), mtime: this.now() });
  }

  async rename(from: string, to: string): Promise<void> {
    const f = this.data.get(from);
    if (!f) throw new Error(`no file ${from}`);
    this.data.delete(from);
    this.data.set(to, f);
  }

  async delete(path: string): Promise<void> {
    this.data.delete(path);
    for (const p of [...this.data.keys()]) if (p.startsWith(`${path}/`)) this.data.delete(p);
  }

  async mkdir(): Promise<void> {}
}

function noSpace(): Error {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
}
