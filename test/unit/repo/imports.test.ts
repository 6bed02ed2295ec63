import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listSources, stripComments } = require(
  path.join(root, 'scripts', 'lib', 'sourceFiles.js'),
) as typeof import('../../../scripts/lib/sourceFiles');

/**
 * The folder order (docs/architecture.md, "The folder order"; the same table there, a test below compares them): the
 * folders under src by layer, lower layers first. A file may import from its own folder or from a folder of a strictly
 * lower layer; folders of one layer never import each other. `src/extension.ts` is the top.
 */
const FOLDER_ORDER: ReadonlyArray<readonly [layer: number, folders: readonly string[]]> = [
  [0, ['base', 'env']],
  [1, ['api', 'mock']],
  [2, ['settings']],
  [3, ['filter', 'webPages']],
  [4, ['lists']],
  [5, ['keys', 'sharing', 'history']],
  [6, ['services']],
  [
    7,
    [
      'activity',
      'insights',
      'timeline',
      'json',
      'status',
      'notifications',
      'tools',
      'links',
      'find',
      'export',
      'teamHistory',
    ],
  ],
  [8, ['commands']],
  [9, ['start']],
  [10, ['extension.ts']],
];
/** Imports within one layer that the order allows: the platform seam uses the shared base. */
const SAME_LAYER_ALLOWED: ReadonlyArray<readonly [from: string, to: string]> = [['env', 'base']];
/** The mock is a separate program (the stand-in for the service): it imports only these, and nothing imports it. */
const MOCK_IMPORTS: readonly string[] = ['base', 'api'];
/** The folder of a file under src (its first path segment), or its own name for a file at the top of src. */
function folderOf(file: string): string {
  return path.relative(path.join(root, 'src'), file).split(path.sep)[0];
}

/** The layer of each folder (FOLDER_ORDER). */
const LAYER = new Map(FOLDER_ORDER.flatMap(([layer, folders]) => folders.map((f) => [f, layer] as const)));

/** Whether the order lets a file of folder `from` import one of folder `to`. */
function mayImport(from: string, to: string): boolean {
  if (from === to) return true;
  if (to === 'mock') return false;
  if (from === 'mock') return MOCK_IMPORTS.includes(to);
  if (SAME_LAYER_ALLOWED.some(([a, b]) => a === from && b === to)) return true;
  const [a, b] = [LAYER.get(from), LAYER.get(to)];
  return a !== undefined && b !== undefined && b < a;
}

/** The imports between files that go against the folder order, as `from -> to` (repository paths). */
function againstOrder(graph: Map<string, string[]>): string[] {
  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
  return [...graph].flatMap(([file, targets]) =>
    targets.filter((t) => !mayImport(folderOf(file), folderOf(t))).map((t) => `${rel(file)} -> ${rel(t)}`),
  );
}

/** The folder graph of a file graph: folder -> the other folders its files import. */
function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    const to = folders.get(from) ?? new Set<string>();
    for (const t of targets) if (folderOf(t) !== from) to.add(folderOf(t));
    folders.set(from, to);
  }
  return new Map(
    [...folders].map(([f, to]) => [path.join(root, 'src', f), [...to].map((t) => path.join(root, 'src', t))]),
  );
}

/**
 * Each source file of src and the src files it imports: relative imports (`'./x'`, `'../x'`, `'.'`, `'..'`), static or
 * dynamic, type-only ones included.
 */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of listSources(path.join(root, 'src'))) {
    const text = stripComments(fs.readFileSync(file, 'utf8'));
    const targets: string[] = [];
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}(?:\/[^']*)?)'/g)) {
      const base = path.resolve(path.dirname(file), m[1]);
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
      if (target) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The import cycles (strongly connected components of more than one file, or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(root, w));
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return found;
}

describe('imports', () => {
  const graph = importGraph();
  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

  it('src has no import cycle (type-only imports count too)', () => {
    assert.deepEqual(cycles(graph), []);
  });

  it('the shared base imports nothing outside itself, but the API types; the API client imports only the base and the platform seam', () => {
    const reaching = (from: string, allowed: string[]) =>
      [...graph].flatMap(([file, targets]) =>
        rel(file).startsWith(from)
          ? targets.filter((t) => !allowed.some((a) => rel(t).startsWith(a))).map((t) => `${rel(file)} -> ${rel(t)}`)
          : [],
      );
    assert.deepEqual(reaching('src/base/', ['src/base/']), []);
    assert.deepEqual(reaching('src/api/', ['src/api/', 'src/base/', 'src/env/']), []);
  });

  it('every folder of src has its place in the folder order', () => {
    const folders = new Set([...graph.keys()].map(folderOf));
    assert.deepEqual(
      [...folders].filter((f) => !LAYER.has(f)),
      [],
      'a new folder (or a file at the top of src): give it its layer in FOLDER_ORDER and in docs/architecture.md',
    );
  });

  it('the folders import each other in no cycle (type-only imports count too)', () => {
    assert.deepEqual(cycles(folderGraph(graph)), []);
  });

  it('no import goes against the folder order: to the own folder or a strictly lower layer only (type-only imports count too)', () => {
    assert.deepEqual(againstOrder(graph), []);
  });

  it('docs/architecture.md shows the same folder order', () => {
    const doc = fs.readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
    const rows = doc
      .split('\n')
      .map((line) => /^\| (\d+) \| ((?:`[^`]+`(?:, )?)+) \|/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [Number(m[1]), [...m[2].matchAll(/`(?:src\/)?([^`/]+)\/?`/g)].map((f) => f[1])] as const);
    assert.deepEqual(rows, FOLDER_ORDER);
  });

  it('the check sees an import against the order, and a cycle of folders, when there is one', () => {
    const file = (name: string) => path.join(root, 'src', ...name.split('/'));
    const planted = new Map([
      [file('lists/a.ts'), [file('services/b.ts'), file('base/c.ts')]], // up a layer
      [file('json/a.ts'), [file('find/b.ts'), file('history/c.ts')]], // within a layer
      [file('api/a.ts'), [file('mock/b.ts')]], // into the mock
      [file('services/b.ts'), [file('lists/d.ts')]],
    ]);
    assert.deepEqual(againstOrder(planted), [
      'src/lists/a.ts -> src/services/b.ts',
      'src/json/a.ts -> src/find/b.ts',
      'src/api/a.ts -> src/mock/b.ts',
    ]);
    assert.deepEqual(cycles(folderGraph(planted)), [['src/lists', 'src/services']]);
    assert.deepEqual(againstOrder(new Map([[file('env/a.ts'), [file('base/b.ts')]]])), []);
  });

  it('the check sees a cycle when there is one', () => {
    const a = path.join(root, 'src', 'a.ts');
    const b = path.join(root, 'src', 'b.ts');
    assert.deepEqual(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
      [['src/a.ts', 'src/b.ts']],
    );
  });
});
