import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listSources } = require(
  path.join(root, 'scripts', 'lib', 'sourceFiles.js'),
) as typeof import('../../../scripts/lib/sourceFiles');

/** The longest a function of src may be, in lines from its first line to its last (nested functions included). */
const MAX_FUNCTION_LINES = 70;

/** Functions over the limit left for another change, each named by `file name` as longFunctions says it (none). */
const LEFT: readonly string[] = [];

/** A function's name as a reader finds it: `Class.method`, `name`, or `<arrow>` at its line. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  const own = node.name ? node.name.getText(file) : undefined;
  const owner = ts.isClassLike(node.parent) && node.parent.name ? `${node.parent.name.text}.` : '';
  if (ts.isConstructorDeclaration(node)) return `${owner}constructor`;
  if (own) return `${owner}${own}`;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return `${owner}${parent.name.getText(file)}`;
  }
  return `<function>`;
}

/** Every function of a source file (declarations, methods, accessors, constructors, arrows, expressions) over `max` lines. */
export function longFunctions(fileName: string, text: string, max: number): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) {
        found.push(
          `${path.relative(root, fileName)}:${start + 1} ${nameOf(node as ts.FunctionLikeDeclaration, file)} (${lines} lines)`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('repo: functions of src are short', () => {
  it('measures a function from its first line to its last, nested functions included', () => {
    const body = Array.from({ length: 80 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    const long = `export function long(): void {\n${body}\n}\nconst arrow = () => {\n  return 1;\n};\n`;
    assert.deepEqual(longFunctions(path.join(root, 'src', 'x.ts'), long, MAX_FUNCTION_LINES), [
      'src/x.ts:1 long (82 lines)',
    ]);
    const method = `class A {\n  m(): void {\n${body.slice(0, -1)}\n  }\n}\n`;
    assert.deepEqual(longFunctions(path.join(root, 'src', 'y.ts'), method, MAX_FUNCTION_LINES), [
      'src/y.ts:2 A.m (82 lines)',
    ]);
    assert.deepEqual(
      longFunctions(path.join(root, 'src', 'z.ts'), `function f() {\n${body.split('\n').slice(2).join('\n')}\n}\n`, 80),
      [],
    );
  });

  it(`no function in src is over ${MAX_FUNCTION_LINES} lines`, () => {
    const all = listSources(path.join(root, 'src')).flatMap((file) =>
      longFunctions(file, fs.readFileSync(file, 'utf8'), MAX_FUNCTION_LINES),
    );
    const left = (found: string) => LEFT.includes(found.replace(/:\d+ (\S+) .*$/, ' $1'));
    const long = all.filter((found) => !left(found));
    assert.deepEqual(long, [], `split these along their seams:\n${long.join('\n')}`);
    for (const name of LEFT) {
      assert.ok(
        all.some((found) => left(found) && found.startsWith(name.split(' ')[0])),
        `${name} is short now: drop it from LEFT`,
      );
    }
  });

  it('src/extension.ts only wires: at most 90 lines (issue #37; 90 since issue #50), and every rule lives in the folder that owns it', () => {
    const lines = fs
      .readFileSync(path.join(root, 'src', 'extension.ts'), 'utf8')
      .trimEnd()
      .split('\n').length;
    assert.ok(lines <= 90, `src/extension.ts has ${lines} lines`);
  });
});
