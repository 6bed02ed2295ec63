// The Node build in layers (esbuild.js, issue #50): the start bundle dist/extension.js and the chunks of esbuild.js
// CHUNKS, each one file dist/chunks/<name>.js. Every module of src/ is in exactly one of these files (its home): the
// lowest file whose modules import it. A file that imports a module whose home is a file loaded before it (the start
// bundle, or a chunk it is `after`) takes it from there at run time, never a copy: so a module with state (the
// translations, the sort-key cache, the key every inert text masks, a class tested with instanceof) exists once,
// whichever file uses it, and nothing has to be listed or checked for it.
//
// How a file takes a module from a lower one: the lower file exports `shared`, an array of exactly the bindings the
// files above it import from its modules (found by reading each importer's imports as esbuild itself reads them:
// esbuild.transform drops what TypeScript only uses as a type), and the module's import in the higher file resolves to
// a stub `export const name = require('<lower file>').shared[i]`. esbuild checks each name against the stub ("No
// matching export" fails the build), so a name missed here cannot become undefined at run time. A chunk also exports
// every name of the modules code import()s from it (no two of them may export one name: the build says which), so an
// import() of one of them is `require('./chunks/<name>.js')` (dynamic import is off: VS Code's `vscode` module is
// found by require()).
//
// Why not esbuild's own code splitting: it needs ES module output, and VS Code (^1.95, engines) loads `main` as
// CommonJS; its shared chunks would also be one file per set of importers (many small files at start).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** The files of the Node build, lowest first: the start bundle, then each chunk in the order of CHUNKS. */
function nodeFiles(chunks) {
  const files = [{ name: 'start', file: 'dist/extension.js', modules: ['./src/extension.ts'], after: [] }];
  for (const [name, chunk] of Object.entries(chunks)) {
    for (const below of chunk.after ?? []) {
      if (!files.some((f) => f.name === below))
        throw new Error(`esbuild.js CHUNKS.${name} is after "${below}", which is not a chunk listed before it`);
    }
    files.push({
      name,
      file: `dist/chunks/${name}.js`,
      modules: chunk.modules,
      after: ['start', ...(chunk.after ?? [])],
    });
  }
  // `after` made transitive: every file loaded before this one
  for (const file of files) {
    const below = new Set();
    const add = (name) => {
      if (below.has(name)) return;
      below.add(name);
      for (const next of files.find((f) => f.name === name).after) add(next);
    };
    file.after.forEach(add);
    file.below = below;
  }
  return files;
}

const repoPath = (root, file) => path.relative(root, file).split(path.sep).join('/');
const moduleKey = (root, module) => repoPath(root, path.resolve(root, module));

/**
 * Which file is each module's home. `reached`: file name -> the modules it reaches by static imports (built alone,
 * every import() left out); `typesOnly(module)`: whether it holds no code (nothing to place). A module is placed in
 * the lowest file that reaches it; every other file that reaches it must be after that one (it takes the module from
 * there). Only modules of src/ are taken: a package's module reached by two files is copied (check:budgets counts such
 * copies). Returns { home: Map(module -> file name), errors }.
 */
function placeModules(files, reached, root, typesOnly) {
  const home = new Map();
  const errors = [];
  const entryOf = new Map();
  for (const file of files) for (const module of file.modules) entryOf.set(moduleKey(root, module), file.name);
  for (const file of files) {
    for (const module of reached.get(file.name)) {
      if (!module.startsWith('src/') || typesOnly(module)) continue;
      const placed = home.get(module);
      if (placed === undefined) {
        home.set(module, file.name);
        continue;
      }
      if (file.below.has(placed)) continue; // taken from there
      errors.push({
        text: `${module} is used by the chunks "${placed}" and "${file.name}", and neither is loaded before the other: move it to a file both are after, or make one chunk after the other (esbuild.js CHUNKS)`,
      });
    }
  }
  for (const [module, chunk] of entryOf) {
    const placed = home.get(module);
    if (placed !== undefined && placed !== chunk) {
      errors.push({
        text: `${module} is a module of the chunk "${chunk}" (esbuild.js CHUNKS), loaded on first use, but ${placed === 'start' ? 'the start bundle' : `the chunk "${placed}"`} imports it statically: import() it where it is needed`,
      });
    }
  }
  return { home, errors };
}

/**
 * What each import statement of a compiled module names, as esbuild emits it: specifier -> Set of names, '*' for a
 * whole namespace (import * as, export * from). Type-only imports are gone from `code` already.
 */
function importedNames(code) {
  const names = new Map();
  const add = (specifier, name) => {
    if (!names.has(specifier)) names.set(specifier, new Set());
    names.get(specifier).add(name);
  };
  const list = (text, specifier) => {
    for (const part of text.split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0];
      if (name) add(specifier, name);
    }
  };
  for (const m of code.matchAll(/^import\s+(?:([\w$]+)\s*,\s*)?\{([^}]*)\}\s*from\s*"([^"]+)"/gm)) {
    if (m[1]) add(m[3], 'default');
    list(m[2], m[3]);
  }
  for (const m of code.matchAll(/^import\s+([\w$]+)\s+from\s*"([^"]+)"/gm)) add(m[2], 'default');
  for (const m of code.matchAll(/^import\s+(?:[\w$]+\s*,\s*)?\*\s*as\s+[\w$]+\s+from\s*"([^"]+)"/gm)) add(m[1], '*');
  for (const m of code.matchAll(/^export\s*\{([^}]*)\}\s*from\s*"([^"]+)"/gm)) list(m[1], m[2]);
  for (const m of code.matchAll(/^export\s*\*(?:\s*as\s+[\w$]+)?\s*from\s*"([^"]+)"/gm)) add(m[1], '*');
  return names;
}

/**
 * The names a compiled module exports, as esbuild emits it (one `export { … }` at the end); undefined when it re-exports
 * a whole module (`export * from`), whose names are not read here.
 */
function exportedNames(code) {
  const names = [];
  if (/^export\s*\*\s*from/m.test(code)) return undefined;
  for (const m of code.matchAll(/^export\s*\{([^}]*)\}/gm)) {
    for (const part of m[1].split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .at(-1);
      if (name) names.push(name);
    }
  }
  for (const m of code.matchAll(/^export\s*\*\s*as\s+([\w$]+)/gm)) names.push(m[1]);
  for (const m of code.matchAll(/^export\s+(?:async\s+)?(?:function\*?|class|const|let|var)\s+([\w$]+)/gm))
    names.push(m[1]);
  if (/^export\s+default\b/m.test(code)) names.push('default');
  return names;
}

/**
 * The modules a chunk exports whole (what code import()s from it) must not export one name twice, nor `shared`: the
 * chunk's exports are theirs side by side. Returns esbuild-style errors.
 */
function checkChunkExports(files, compiled) {
  const errors = [];
  for (const file of files.slice(1)) {
    const owner = new Map([['shared', 'the chunk itself']]);
    for (const module of file.modules.map((m) => m.replace(/^\.\//, ''))) {
      const names = exportedNames(compiled(module));
      if (!names) {
        errors.push({
          text: `${module} (a module of the chunk "${file.name}") re-exports a whole module: export its own names`,
        });
        continue;
      }
      for (const name of names) {
        if (owner.has(name)) {
          errors.push({
            text: `${module} and ${owner.get(name)} both export "${name}", and both are modules of the chunk "${file.name}" (esbuild.js CHUNKS), whose exports are theirs side by side: rename one`,
          });
        } else owner.set(name, module);
      }
    }
  }
  return errors;
}

/**
 * What each file takes from the files below it, and what each file shares. `imports`: module -> [{ path, original }]
 * (the metafile's), `compiled`: module -> its code as esbuild emits it alone. Returns { takes: file name -> Map(module
 * -> Set of names), shared: file name -> [module, name][] in a fixed order } ('*': the module's namespace).
 */
function sharedBindings(files, home, imports, compiled) {
  const takes = new Map(files.map((f) => [f.name, new Map()]));
  const shared = new Map(files.map((f) => [f.name, new Set()]));
  const take = (file, module, name) => {
    const names = takes.get(file);
    if (!names.has(module)) names.set(module, new Set());
    names.get(module).add(name);
    shared.get(home.get(module)).add(`${module}\0${name}`);
  };
  for (const [module, owner] of home) {
    const names = importedNames(compiled(module));
    for (const { path: target, original } of imports.get(module) ?? []) {
      const targetHome = home.get(target);
      if (targetHome === undefined || targetHome === owner) continue;
      for (const name of names.get(original) ?? []) take(owner, target, name);
    }
  }
  return {
    takes,
    shared: new Map([...shared].map(([name, set]) => [name, [...set].sort().map((key) => key.split('\0'))])),
  };
}

/** `require()` of `to` from `from` (two files of the Node build), as a relative path. */
function requirePath(files, from, to) {
  const fromFile = files.find((f) => f.name === from).file;
  const toFile = files.find((f) => f.name === to).file;
  const rel = path.posix.relative(path.posix.dirname(fromFile), toFile);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** The entry of a file: what it exports (its modules' names: the start's is src/extension.ts), and `shared`. */
function entryContents(file, shared) {
  const bindings = shared.get(file.name);
  const lines = file.modules.map((module) => `export * from '${module.replace(/\.ts$/, '')}';`);
  const byModule = new Map();
  bindings.forEach(([module, name], i) => {
    if (!byModule.has(module)) byModule.set(module, []);
    byModule.get(module).push([name, i]);
  });
  for (const [module, names] of byModule) {
    const from = `./${module.replace(/\.ts$/, '')}`;
    const named = names.filter(([name]) => name !== '*');
    const whole = names.find(([name]) => name === '*');
    if (whole) lines.push(`import * as _${whole[1]} from '${from}';`);
    if (named.length)
      lines.push(`import { ${named.map(([name, i]) => `${name} as _${i}`).join(', ')} } from '${from}';`);
  }
  lines.push(`export const shared = [${bindings.map((_, i) => `_${i}`).join(', ')}];`);
  return lines.join('\n');
}

const SKIP = Symbol('resolving');

/** Resolves an import the way esbuild would without this plugin: the repo-relative path, or undefined. */
async function resolvedPath(build, args, root) {
  if (args.pluginData === SKIP || args.kind === 'entry-point') return undefined;
  // only a relative import of a module of ours can name a module of src/ (a package's own imports never do)
  if (!args.path.startsWith('.') || args.importer.includes('node_modules')) return undefined;
  const r = await build.resolve(args.path, {
    kind: args.kind,
    resolveDir: args.resolveDir,
    importer: args.importer,
    pluginData: SKIP,
  });
  return r.errors.length || r.external ? undefined : repoPath(root, r.path);
}

/**
 * The plugin of one file's build. Analysis (`layout` undefined): every import() of a chunk's module is left out (and
 * an import() of any other module fails the build). Build: a module whose home is below is taken from there, and an
 * import() of a chunk's module requires that chunk.
 */
function layersPlugin({ files, file, root, layout }) {
  const chunkOf = new Map();
  for (const f of files.slice(1)) for (const module of f.modules) chunkOf.set(moduleKey(root, module), f.name);
  const index = (owner, module, name) => layout.shared.get(owner).findIndex(([m, n]) => m === module && n === name);
  const fileBelow = (owner) => JSON.stringify(requirePath(files, file.name, owner));
  return {
    name: 'layers',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.path.startsWith('layers-shared:'))
          return { path: args.path.slice('layers-shared:'.length), namespace: 'layers-shared' };
        if (args.namespace.startsWith('layers-')) return { path: args.path, external: true }; // a file below
        const module = await resolvedPath(build, args, root);
        if (module === undefined) return undefined;
        if (args.kind === 'dynamic-import' && module.startsWith('src/')) {
          const chunk = chunkOf.get(module);
          if (chunk === undefined) {
            const importer = repoPath(root, args.importer);
            return { errors: [{ text: `${importer} import()s ${module}, which is no module of esbuild.js CHUNKS` }] };
          }
          if (!layout) return { path: module, external: true };
          if (chunk === file.name) {
            // it loads with this very file: an import() would only defer what is already there
            const text = `${repoPath(root, args.importer)} import()s ${module}, which is in the same file (dist/${file.name === 'start' ? '' : 'chunks/'}${file.name}.js): import it statically`;
            return { errors: [{ text }] };
          }
          return { path: requirePath(files, file.name, chunk), external: true };
        }
        const owner = layout?.home.get(module);
        if (owner === undefined || !file.below.has(owner)) return undefined;
        return { path: module, namespace: 'layers-take', pluginData: owner };
      });
      if (!layout) return;
      build.onLoad({ filter: /.*/, namespace: 'layers-take' }, (args) => {
        const owner = args.pluginData;
        const names = [...(layout.takes.get(file.name).get(args.path) ?? [])].sort();
        if (names.includes('*')) {
          const contents = `module.exports = require(${fileBelow(owner)}).shared[${index(owner, args.path, '*')}];`;
          return { loader: 'js', contents };
        }
        return {
          loader: 'js',
          // one require() of the file below per file (its `shared`, a module of its own), each binding read at load:
          // the file below has run whole by then (required before this file's own code runs)
          contents: [
            `import { shared } from ${JSON.stringify(`layers-shared:${owner}`)};`,
            ...names.map((name, i) => `const _${i} = shared[${index(owner, args.path, name)}];`),
            `export { ${names.map((name, i) => `_${i} as ${name}`).join(', ')} };`,
          ].join('\n'),
        };
      });
      build.onLoad({ filter: /.*/, namespace: 'layers-shared' }, (args) => ({
        loader: 'js',
        contents: `export const shared = require(${fileBelow(args.path)}).shared;`,
      }));
    },
  };
}

/**
 * Lays out the Node build: builds each file alone (no output written) to see which modules it reaches, places them,
 * and reads what each file takes from below. Returns { home, takes, shared, errors }.
 */
async function layOut({ esbuild, files, options, plugins, root }) {
  const results = await Promise.all(
    files.map((file) =>
      esbuild
        .build({
          ...options,
          minify: false,
          sourcemap: false,
          write: false,
          metafile: true,
          stdin: {
            contents: file.modules.map((m, i) => `export * as m${i} from '${m}';`).join('\n'),
            resolveDir: root,
            sourcefile: `${file.name}-entry.ts`,
            loader: 'ts',
          },
          outfile: file.file,
          plugins: [...plugins, layersPlugin({ files, file, root })],
        })
        .catch((error) => ({ errors: error.errors ?? [error] })),
    ),
  );
  const errors = results.flatMap((r) => r.errors ?? []);
  if (errors.length) return { errors };
  const reached = new Map();
  const imports = new Map();
  files.forEach((file, i) => {
    const { metafile } = results[i];
    const output = Object.values(metafile.outputs).find((o) => o.entryPoint !== undefined || o.inputs);
    reached.set(file.name, Object.keys(output.inputs));
    for (const [module, input] of Object.entries(metafile.inputs)) {
      imports.set(
        module,
        input.imports.filter((im) => im.kind !== 'dynamic-import' && !im.external && im.original !== undefined),
      );
    }
  });
  const code = new Map();
  const compiled = (module) => {
    if (!code.has(module)) {
      const source = fs.readFileSync(path.join(root, module), 'utf8');
      const loader = path.extname(module) === '.ts' ? 'ts' : 'js';
      code.set(
        module,
        esbuild.transformSync(source, { loader, format: 'esm', target: options.target, tsconfigRaw: {} }).code,
      );
    }
    return code.get(module);
  };
  const { home, errors: placing } = placeModules(files, reached, root, (module) => compiled(module).trim() === '');
  const clashes = checkChunkExports(files, compiled);
  if (placing.length || clashes.length) return { errors: [...placing, ...clashes] };
  return { home, ...sharedBindings(files, home, imports, compiled), errors: [] };
}

module.exports = {
  nodeFiles,
  placeModules,
  importedNames,
  layOut,
  layersPlugin,
  entryContents,
};
