/**
 * What is loaded late reads plainly: esbuild.js CHUNKS is the one list of the chunks, by layer, and of the modules code
 * may import() (each a part of its feature); code reaches them only through onFirstUse (src/base/onFirstUse.ts). The
 * build itself (scripts/lib/layers.js) fails on a static import of a chunk's module from below it, on an import() of a
 * module the same file holds, and on a module two chunks would hold.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listSources, stripComments } = require(
  path.join(root, 'scripts', 'lib', 'sourceFiles.js'),
) as typeof import('../../../scripts/lib/sourceFiles');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- reads CHUNKS; builds only when run as a script
const { CHUNKS } = require(path.join(root, 'esbuild.js')) as {
  CHUNKS: Record<string, { after: string[]; modules: string[] }>;
};
/** The issue #50 cap: the start bundle and at most this many chunks (17 before it, split by first use). */
const MAX_CHUNKS = 6;

/**
 * Files this rule does not reach yet (issue #29 named eight; issue #37 brought them all under it): a file named here
 * would be excused from the two rules below, and the last test fails while one is listed for nothing. Empty: keep it so.
 */
const LEFT = new Set<string>([]);

const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
/** The source file an import specifier names (./x is x.ts or x/index.ts). */
function resolveModule(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, path.join(base, 'index.ts')].find((f) => f.endsWith('.ts') && fs.existsSync(f));
}
/** The text with string contents blanked (same length), so parentheses inside strings do not count. */
const blankStrings = (text: string) =>
  text.replace(/'(?:[^'\\\n]|\\[\s\S])*'|"(?:[^"\\\n]|\\[\s\S])*"|`(?:[^`\\]|\\[\s\S])*`/g, (m) =>
    m.replace(/[^\n]/g, ' '),
  );
/** Where the parenthesis opened at `open` closes, or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Whether a file holds nothing but re-exports (`export … from '…'`). */
function reExportsOnly(file: string): boolean {
  if (!fs.existsSync(path.join(root, file))) return false;
  const text = stripComments(fs.readFileSync(path.join(root, file), 'utf8'));
  return text.replace(/export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s+from\s+'[^']*';?/g, '').trim() === '';
}

interface LateLoad {
  file: string;
  target: string | undefined;
  /** Whether the import() is inside the call of onFirstUse(...). */
  throughOnFirstUse: boolean;
}

/** Every import('./…') in src (not `typeof import(…)`, a type). */
function lateLoads(): LateLoad[] {
  return listSources(path.join(root, 'src')).flatMap((file) => {
    const text = stripComments(fs.readFileSync(file, 'utf8'));
    const code = blankStrings(text);
    const calls = [...code.matchAll(/\bonFirstUse\s*(?:<[^>(]*>)?\s*\(/g)].map((m) => {
      const open = m.index + m[0].length - 1;
      return { open, close: closing(code, open) };
    });
    return [...text.matchAll(/(?<!\btypeof\s+)\bimport\(\s*'(\.{1,2}\/[^']*)'\s*\)/g)].map((m) => ({
      file: rel(file),
      target: resolveModule(file, m[1]),
      throughOnFirstUse: calls.some(({ open, close }) => open < m.index && m.index < close),
    }));
  });
}

describe('what is loaded late (esbuild.js CHUNKS, src/base/onFirstUse.ts)', () => {
  const chunkFiles = new Map(
    Object.entries(CHUNKS).flatMap(([name, { modules }]) =>
      modules.map((module) => [rel(path.resolve(root, module)), name] as const),
    ),
  );
  const loads = lateLoads();

  it('finds the late loads it checks (the scan works)', () => {
    assert.ok(loads.length >= Object.keys(CHUNKS).length, `${loads.length} import() found`);
    assert.ok(loads.some((l) => l.file === 'src/extension.ts' && l.throughOnFirstUse));
  });

  it(`a few chunks by layer (at most ${MAX_CHUNKS}), each after chunks listed before it`, () => {
    const names = Object.keys(CHUNKS);
    assert.ok(names.length <= MAX_CHUNKS, `${names.length} chunks: ${names.join(', ')}`);
    const late = Object.entries(CHUNKS).flatMap(([name, { after }]) =>
      after.filter((below) => !(names.indexOf(below) >= 0 && names.indexOf(below) < names.indexOf(name))),
    );
    assert.deepEqual(late, [], 'a chunk is after chunks listed before it');
  });

  it('a module code import()s re-exports nothing: what another module of its chunk holds is import()ed itself, never made to ride along', () => {
    const riders = [...chunkFiles.keys()].filter((file) =>
      /^export\s+(?:\*|\{[^}]*\})\s+from\s/m.test(stripComments(fs.readFileSync(path.join(root, file), 'utf8'))),
    );
    assert.deepEqual(riders, []);
  });

  it('every import() in src loads a module of CHUNKS, and every module of CHUNKS is loaded by one', () => {
    const strays = loads
      .filter((l) => !l.target || !chunkFiles.has(rel(l.target)))
      .map((l) => `${l.file} imports ${l.target ? rel(l.target) : '?'}, which is not in esbuild.js CHUNKS`);
    assert.deepEqual(strays, []);
    const loaded = new Set(loads.map((l) => l.target && rel(l.target)));
    const unused = [...chunkFiles].filter(([file]) => !loaded.has(file)).map(([file, name]) => `${name}: ${file}`);
    assert.deepEqual(unused, [], 'a chunk no code loads: remove it from CHUNKS');
  });

  it('every import() is the load of an onFirstUse: one way to load late (loaded once, a failed load tried again)', () => {
    const byHand = loads
      .filter((l) => !l.throughOnFirstUse && !LEFT.has(l.file))
      .map((l) => `${l.file}: import('${rel(l.target ?? '?')}') outside onFirstUse(...)`);
    assert.deepEqual(byHand, []);
  });

  it('a chunk is a module of its feature, never a file that only re-exports others to cut a chunk', () => {
    const shims = [...chunkFiles.keys()].filter((file) => !LEFT.has(file) && reExportsOnly(file));
    assert.deepEqual(shims, []);
  });

  it('the list of files left is not stale: each still loads by hand or re-exports a chunk', () => {
    const byHand = new Set(loads.filter((l) => !l.throughOnFirstUse).map((l) => l.file));
    const stale = [...LEFT].filter((file) => !byHand.has(file) && !(chunkFiles.has(file) && reExportsOnly(file)));
    assert.deepEqual(stale, [], 'remove these from LEFT: they follow the rule now (or are gone)');
  });
});
