import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listSources, stripComments } = require(
  path.join(root, 'scripts', 'lib', 'sourceFiles.js'),
) as typeof import('../../../scripts/lib/sourceFiles');

/** The browser's timer and fetch functions: each throws "Illegal invocation" when called as another object's method. */
const GLOBALS =
  /(?<![.\w$])(queueMicrotask|setTimeout|clearTimeout|setInterval|clearInterval|fetch|requestAnimationFrame)\b(?!\s*[(<:?])/g;

/** Where one of GLOBALS is taken as a value (passed, stored, a default) rather than called, in `text` (comments and strings left out). */
function globalsTakenAsValues(text: string): string[] {
  const code = stripComments(text).replace(/(["'`])(?:\\.|(?!\1)[^\\\n])*\1/g, "''");
  const found: string[] = [];
  for (const match of code.matchAll(GLOBALS)) {
    if (/typeof\s*$/.test(code.slice(Math.max(0, match.index - 8), match.index))) continue; // a type
    found.push(code.slice(Math.max(0, match.index - 30), match.index + 30).replace(/\s+/g, ' '));
  }
  return found;
}

describe('browser globals (the web worker extension host runs src outside env/node and mock)', () => {
  it('finds a global timer taken as a value: a default, a property, an argument; not a call, a type or a comment', () => {
    assert.equal(globalsTakenAsValues('constructor(private later = queueMicrotask) {}').length, 1);
    assert.equal(globalsTakenAsValues('const o = { wait: setTimeout };').length, 1);
    assert.equal(globalsTakenAsValues('run(fetch);').length, 1);
    assert.deepEqual(
      globalsTakenAsValues(
        "queueMicrotask(run); setTimeout(f, 1); type T = ReturnType<typeof setTimeout>; o.fetch = 1; // fetch\n'setTimeout'",
      ),
      [],
    );
  });

  it('no file the browser build runs takes one as a value (called as a method, a browser throws "Illegal invocation")', () => {
    const nodeOnly = [path.join(root, 'src', 'env', 'node'), path.join(root, 'src', 'mock')];
    const found = listSources(path.join(root, 'src'))
      .filter((file) => !nodeOnly.some((dir) => file.startsWith(dir + path.sep)))
      .flatMap((file) =>
        globalsTakenAsValues(fs.readFileSync(file, 'utf8')).map((at) => `${path.relative(root, file)}: ${at}`),
      );
    assert.deepEqual(found, [], 'call it inside an arrow instead: (run) => queueMicrotask(run)');
  });
});
