/**
 * The Node build in layers (scripts/lib/layers.js): every module of src/ in one file only, the lowest that uses it, so a
 * module with state exists once without being listed; the placement refuses what would load a chunk at start, or hold
 * one module in two chunks neither of which is loaded before the other.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { nodeFiles, placeModules, importedNames } = require(
  path.join(root, 'scripts', 'lib', 'layers.js'),
) as typeof import('../../../scripts/lib/layers');

const CHUNKS = {
  services: { modules: ['./src/s/connection.ts'] },
  commands: { after: ['services'], modules: ['./src/c/table.ts'] },
  tools: { after: ['services'], modules: ['./src/t/answers.ts'] },
};

/** Places the modules each file reaches (by name: start, services, commands, tools). */
function place(reached: Record<string, string[]>, typesOnly: (module: string) => boolean = () => false) {
  const files = nodeFiles(CHUNKS);
  return placeModules(files, new Map(files.map((f) => [f.name, reached[f.name] ?? []])), root, typesOnly);
}

describe('the Node build in layers (scripts/lib/layers.js)', () => {
  it('places each module in the lowest file that uses it: the files above take it from there (one instance)', () => {
    const { home, errors } = place({
      start: ['src/extension.ts', 'src/base/l10n.ts'],
      services: ['src/s/connection.ts', 'src/base/l10n.ts', 'src/h/store.ts'],
      commands: ['src/c/table.ts', 'src/base/l10n.ts', 'src/h/store.ts'],
      tools: ['src/t/answers.ts', 'src/h/store.ts', '../main/node_modules/pkg/index.js'],
    });
    assert.deepEqual(errors, []);
    assert.equal(home.get('src/base/l10n.ts'), 'start');
    assert.equal(home.get('src/h/store.ts'), 'services');
    assert.equal(home.get('src/c/table.ts'), 'commands');
    assert.equal(home.has('../main/node_modules/pkg/index.js'), false, "a package's module is not taken across files");
  });

  it('refuses a module two chunks would hold when neither is loaded before the other', () => {
    const { errors } = place({
      services: ['src/s/connection.ts'],
      commands: ['src/c/table.ts', 'src/f/filter.ts'],
      tools: ['src/t/answers.ts', 'src/f/filter.ts'],
    });
    assert.equal(errors.length, 1);
    assert.match(errors[0].text, /src\/f\/filter\.ts is used by the chunks "commands" and "tools"/);
  });

  it('places no module of types only (nothing of it runs), whoever reaches it', () => {
    const { home, errors } = place(
      { commands: ['src/c/table.ts', 'src/api/types.ts'], tools: ['src/t/answers.ts', 'src/api/types.ts'] },
      (module) => module === 'src/api/types.ts',
    );
    assert.deepEqual(errors, []);
    assert.equal(home.has('src/api/types.ts'), false);
  });

  it("refuses a static import of a chunk's module from below it (it would load at start)", () => {
    const { errors } = place({
      start: ['src/extension.ts', 'src/c/table.ts'],
      commands: ['src/c/table.ts'],
    });
    assert.equal(errors.length, 1);
    assert.match(
      errors[0].text,
      /src\/c\/table\.ts is a module of the chunk "commands".*the start bundle imports it statically/,
    );
  });

  it('a chunk is after chunks listed before it only', () => {
    assert.throws(
      () => nodeFiles({ a: { after: ['b'], modules: [] }, b: { modules: [] } }),
      /after "b", which is not a chunk listed before it/,
    );
  });

  it('reads what a module imports by name, as esbuild emits it (types are gone), and namespaces as a whole', () => {
    const code = [
      'import { a, b as c } from "./x";',
      'import {',
      '  d,',
      '  e',
      '} from "../y";',
      'import * as ns from "./z";',
      'export { f as g } from "./x";',
      'export * from "./w";',
    ].join('\n');
    const names = importedNames(code);
    assert.deepEqual([...names.get('./x')!].sort(), ['a', 'b', 'f']);
    assert.deepEqual([...names.get('../y')!], ['d', 'e']);
    assert.deepEqual([...names.get('./z')!], ['*']);
    assert.deepEqual([...names.get('./w')!], ['*']);
  });
});
