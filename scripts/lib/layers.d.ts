/** Types of layers.js (CommonJS: esbuild.js lays out the Node build with it; the tests check its rules). */

/** A file of the Node build: the start bundle or a chunk. */
export interface NodeFile {
  readonly name: string;
  readonly file: string;
  readonly modules: readonly string[];
  readonly after: readonly string[];
  /** Every file loaded before this one. */
  readonly below: ReadonlySet<string>;
}

/** The files of the Node build, lowest first: the start bundle, then each chunk in the order of CHUNKS. */
export function nodeFiles(chunks: Record<string, { after?: string[]; modules: string[] }>): NodeFile[];

/** Which file is each module's home (the lowest file that reaches it), and what the placement refuses. */
export function placeModules(
  files: readonly NodeFile[],
  reached: Map<string, readonly string[]>,
  root: string,
  typesOnly: (module: string) => boolean,
): { home: Map<string, string>; errors: Array<{ text: string }> };

/** What each import statement of a compiled module names: specifier -> names ('*': the whole namespace). */
export function importedNames(code: string): Map<string, Set<string>>;

export function layOut(options: unknown): Promise<unknown>;
export function layersPlugin(options: unknown): unknown;
export function entryContents(file: NodeFile, shared: unknown): string;
