import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listSources, stripComments } = require(
  path.join(root, 'scripts', 'lib', 'sourceFiles.js'),
) as typeof import('../../../scripts/lib/sourceFiles');

/** Each source file of src and the src files it imports (relative imports, type-only ones included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of listSources(path.join(root, 'src'))) {
    const text = stripComments(fs.readFileSync(file, 'utf8'));
    const targets: string[] = [];
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']*)'/g)) {
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
