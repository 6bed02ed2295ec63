/**
 * The web bundle's chunks (esbuild.js `WEB_CHUNKS`). VS Code's web worker extension host fetches package.json
 * "browser" and runs its text as `new Function('module', 'exports', 'require', text)`, with a `require` that knows
 * only `vscode`; a chunk of ours is a file beside it, read and run the same way, once.
 */
export interface WebChunkHost {
  /** The text of a file beside the bundle (`./chunks/<name>.js`), and the URL it was read from. */
  read(file: string): Promise<{ text: string; url: string }>;
  /** What a chunk's `require()` answers: `vscode`, and the bundle's modules that the chunk shares (`../extension.js`). */
  require(id: string): unknown;
}

/** What a chunk exports (its `module.exports`). */
export type ChunkExports = Record<string, unknown>;

/**
 * Loads a chunk on its first call: reads it, runs it and answers its exports; every later call gets the same promise,
 * so a chunk runs once (its modules exist once). A read or run that failed is forgotten, so the next call tries again.
 */
export function webChunkLoader(host: WebChunkHost): (file: string) => Promise<ChunkExports> {
  const loads = new Map<string, Promise<ChunkExports>>();
  return (file) => {
    let load = loads.get(file);
    if (!load) {
      load = host.read(file).then(({ text, url }) => run(text, url, (id) => host.require(id)));
      loads.set(file, load);
      const settled = load;
      settled.catch(() => {
        if (loads.get(file) === settled) loads.delete(file);
      });
    }
    return load;
  };
}

/** Runs a CommonJS file's text as VS Code runs the bundle's, named by its URL in stack traces and the debugger. */
function run(text: string, url: string, require: (id: string) => unknown): ChunkExports {
  const box = { exports: {} as ChunkExports };
  const body = `${text}\n//# sourceURL=${url}`;
  new Function('module', 'exports', 'require', body)(box, box.exports, require);
  return box.exports;
}
