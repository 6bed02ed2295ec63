// Bundles src/extension.ts into dist/extension.js (CommonJS, Node, `vscode` external: package.json "main"), the same
// entry into dist/web/extension.js for the web worker extension host (vscode.dev; package.json "browser": platform
// browser, the platform seam src/env/platform.ts swapped for platform.browser.ts, no Node built-ins), and the page of
// the activity panel, src/activity/webview/activity.ts, into dist/webview/activity.js + activity.css (a browser IIFE: the
// chart is our own canvas drawing, src/activity/webview/barChart.ts).
//   node esbuild.js               development build with source maps
//   node esbuild.js --production  minified, no source maps
//   node esbuild.js --watch       rebuild on change
// Always writes dist/meta.json (the esbuild metafile of dist/extension.js and its chunks) so bundle size can be checked
// per package, and what is copied into two files (npm run check:budgets).
//
// The Node bundle is in layers (scripts/lib/layers.js says how): dist/extension.js holds what a start registers, and
// each chunk of CHUNKS below is one file dist/chunks/<name>.js, loaded whole when code first import()s one of its
// modules (through onFirstUse, src/base/onFirstUse.ts), and holding by static imports everything of its own that
// those modules use. Every module of src/ is in one file only: a chunk takes what the start bundle, or a chunk it is
// `after`, already holds from that file at run time, so a module with state exists once. The build fails on a static
// import of a chunk's module from below it (it would load at start) and on a module two chunks would hold when neither
// is loaded before the other.
// The web bundle is split too, by what a person's action needs: VS Code 1.139's web worker extension host fetches
// `browser` and evaluates it with new Function(module, exports, require), where require() knows only `vscode`; the
// modules of WEB_CHUNKS are dist/web/chunks/<name>.js, which the bundle fetches beside itself and evaluates the same
// way on first use (src/env/vscode/webChunks.ts; npm run test:web runs it there). Its other import() calls only defer
// the modules' initialization.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');
const { entryContents, layOut, layersPlugin, nodeFiles } = require('./scripts/lib/layers');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const SKIP = Symbol('resolving');
const repoPath = (file) => path.relative(__dirname, file).split(path.sep).join('/');

/** The repository path of the file an import resolves to (undefined: an entry point, external, or unresolved). */
async function resolvedPath(build, args) {
  if (args.pluginData === SKIP || args.kind === 'entry-point') return undefined;
  const r = await build.resolve(args.path, {
    kind: args.kind,
    resolveDir: args.resolveDir,
    importer: args.importer,
    pluginData: SKIP,
  });
  return r.errors.length || r.external ? undefined : repoPath(r.path);
}

/** Prints a build's errors, the way esbuild's own CLI does. */
function printErrors(result) {
  for (const { text, location } of result.errors) {
    console.error(`✘ [ERROR] ${text}`);
    if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
  }
}

/** A plugin that prints a build's errors, then `finished()` (a line with the output's size) when it succeeded. */
function reporterFor(name, finished) {
  return {
    name,
    setup(build) {
      build.onEnd((result) => {
        printErrors(result);
        if (!result.errors.length) finished();
      });
    },
  };
}

/**
 * node-fetch v3 → fetch-blob falls back to web-streams-polyfill (60 KB) only when Node lacks `node:stream/web`. Every
 * VS Code since 1.66 runs Node ≥ 16.5, which has it, so the fallback is resolved to the built-in module instead.
 */
const builtinWebStreams = {
  name: 'builtin-web-streams',
  setup(build) {
    build.onResolve({ filter: /^web-streams-polyfill(\/|$)/ }, () => ({ path: 'node:stream/web', external: true }));
  },
};

/**
 * node-fetch's Response.formData() reads a multipart body with a parser of its own (4.4 KB), imported when it is first
 * called. The extension reads JSON answers only (src/api/http.ts: text, never formData), so the parser is not bundled:
 * formData() of a multipart body would throw, said in words.
 */
const noMultipartParser = {
  name: 'no-multipart-parser',
  setup(build) {
    build.onResolve({ filter: /\/multipart-parser\.js$/ }, (args) =>
      /node-fetch/.test(args.importer) ? { path: 'multipart-parser', namespace: 'no-multipart-parser' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-multipart-parser' }, () => ({
      contents: `export function toFormData() { throw new Error('Flow Sync Explorer reads no multipart bodies'); }`,
      loader: 'js',
    }));
  },
};

/**
 * `import * as vscode from 'vscode'` in a CommonJS bundle becomes `__toESM(require('vscode'))` in every module that has
 * it: a copy of every one of the API's hundreds of properties (each a getter and a property descriptor read), 20 times
 * over at start, about 1.6 ms of the code load in the extension host (bench/activation.mjs --cpu-profile). Instead
 * `vscode` resolves to one ES module that requires the API once and exports the names our code uses (every
 * `vscode.<name>` under src/, webviews aside; those only used as types are dropped), which esbuild then reads directly. A name our code uses that the module
 * does not export (a name reached another way) fails the build instead of being undefined at run time.
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.pluginData === 'vscode-once'
        ? { path: 'vscode', external: true }
        : { path: 'vscode', namespace: 'vscode-once' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => {
      const names = new Set();
      const watchFiles = [];
      const walk = (dir) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) {
            if (entry.name !== 'webview') walk(full);
          } else if (entry.name.endsWith('.ts')) {
            watchFiles.push(full);
            for (const m of fs.readFileSync(full, 'utf8').matchAll(/\bvscode\.([A-Za-z_$][\w$]*)/g)) names.add(m[1]);
          }
        }
      };
      walk(path.join(__dirname, 'src'));
      // Each read marked pure, so the names that are only types (vscode.TreeDataProvider) are dropped from the bundle.
      const contents = [
        "const api = require('vscode');",
        ...[...names].sort().map((name) => `export const ${name} = /* @__PURE__ */ (() => api.${name})();`),
      ].join('\n');
      return { contents, loader: 'js', resolveDir: __dirname, pluginData: 'vscode-once', watchFiles };
    });
    build.onEnd((result) => {
      for (const w of result.warnings) {
        if (w.id === 'import-is-undefined')
          result.errors.push({ ...w, text: `${w.text} (esbuild.js vscodeOnce: reach it as vscode.<name>)` });
      }
    });
  },
};

/**
 * The chunks of the Node bundle, by layer (docs/architecture.md, "What loads late"): name -> the modules code reaches
 * by import() (each loads the whole chunk), the chunks it is `after` (loaded before it: it takes their modules from
 * them, and loading it loads them), and when it loads. The start bundle is below every chunk.
 */
const CHUNKS = {
  // What every start needs within milliseconds, loaded once activate() has registered everything, returned, and the
  // host has had its turn: the product (src/start/vscode/product.ts), each service's connection (Explorer, client, HTTP with
  // node-fetch, History and its log store on disk, sharing between windows), the views' rows and tints, what History
  // and the errors announce.
  services: {
    after: [],
    modules: [
      // the product the start's registrations act on: the settings, the registry and its connections, the views' rows,
      // History's view, the status bar, the watch of failures, team History, the test API (ExtensionMode.Test)
      './src/start/vscode/product.ts',
      // the JSON documents (their provider is registered at start: a restored document asks it at once)
      './src/json/vscode/jsonDocuments.ts',
    ],
  },
  // The views' filters and the Find language: when a filter is first set, or at start when the workspace kept one.
  find: { after: ['services'], modules: ['./src/find/vscode/findViews.ts'] },
  // Every command's handler (the activity chart, Flow Insights and Export among them): when the first command runs.
  commands: {
    after: ['services', 'find'],
    modules: [
      './src/commands/vscode/handlers.ts',
      './src/export/vscode/leftoverSweep.ts',
      './src/services/vscode/serviceCommands.ts',
    ],
  },
  // What the language model tools and vscode:// links answer: when the first tool is called or link opened.
  answers: {
    after: ['services', 'find'],
    modules: ['./src/tools/vscode/toolAnswers.ts', './src/links/vscode/answerLink.ts'],
  },
  // Team History's store: src/teamHistory with the `postgres` driver, only when a store is connected (a connection
  // string kept in SecretStorage, or Connect Team History...). Not in the web build (teamChunk.browser.ts).
  teamHistory: { after: ['services', 'commands'], modules: ['./src/teamHistory/vscode/teamHistoryConnection.ts'] },
  // jsonc-parser: only when a workspace has a settings file.
  settingsFile: { after: [], modules: ['./src/settings/workspaceOverrides.ts'] },
};

/**
 * The browser bundle's platform: every import of the seam's `platform` module (src/env/platform.ts, Node) resolves to
 * src/env/platform.browser.ts instead, so node-fetch and node:crypto are not even reachable from it; and team
 * History's store code (src/teamHistory/vscode/teamChunk.ts: the `postgres` driver, net and tls) to
 * teamChunk.browser.ts, which has none.
 */
const browserPlatform = {
  name: 'browser-platform',
  setup(build) {
    const nodeModules = [
      path.join(__dirname, 'src', 'env', 'platform'),
      path.join(__dirname, 'src', 'teamHistory', 'vscode', 'teamChunk'),
    ];
    build.onResolve({ filter: /(^|\/)env\/platform$|^\.\.?\/platform$|^\.\/teamChunk$/ }, (args) => {
      const resolved = path.resolve(args.resolveDir, args.path);
      return nodeModules.includes(resolved) ? { path: `${resolved}.browser.ts` } : undefined;
    });
  },
};

/**
 * The web bundle's chunks: name -> the modules it holds (key -> module), each loaded by a person's action (every
 * command's handler with Export, Insights and the activity chart; the tools' answers; a vscode:// link's answer; the
 * JSON documents; the views' filters). They are one chunk: loading them together costs one fetch, and no module is
 * copied into two of them. dist/web/extension.js keeps the rest: it is the start, and the services it makes at once.
 * How a chunk is loaded: src/env/vscode/webChunks.ts; why: docs/performance.md, "The web bundle".
 */
const WEB_CHUNKS = {
  actions: {
    commands: 'src/commands/vscode/handlers.ts',
    toolAnswers: 'src/tools/vscode/toolAnswers.ts',
    links: 'src/links/vscode/answerLink.ts',
    json: 'src/json/vscode/jsonDocuments.ts',
    find: 'src/find/vscode/findViews.ts',
  },
};
/** The module of WEB_CHUNKS -> { chunk, key }. */
const webChunkOf = new Map(
  Object.entries(WEB_CHUNKS).flatMap(([chunk, modules]) =>
    Object.entries(modules).map(([key, module]) => [module, { chunk, key }]),
  ),
);
/**
 * The web bundle's modules that its chunks take from it instead of a copy: file (repo path) -> the names the chunks use
 * of it ('*': its namespace). A chunk requires one as `require('../extension.js')[index]` (index: its place among the
 * files, sorted). Found by webContext's rounds, so no module is in the bundle and a chunk both: one instance of every
 * module, the ones with state among them.
 */
let webShared = new Map();
const WEB_LOADER = 'flowsync:web-chunks';
const { publisher, name: extensionName } = require('./package.json');

/** The text of WEB_LOADER: the loader of the web chunks, handed the values of the bundle that they take. */
function webLoaderText() {
  const imports = [`import { webChunks } from ${JSON.stringify(path.join(__dirname, 'src/env/vscode/webChunks.ts'))};`];
  const values = [...webShared.keys()].sort().map((file, i) => {
    const from = JSON.stringify(path.join(__dirname, file));
    const names = webShared.get(file);
    if (names === '*') {
      imports.push(`import * as s${i} from ${from};`);
      return `s${i}`;
    }
    imports.push(`import { ${names.map((name, j) => `${name} as s${i}_${j}`).join(', ')} } from ${from};`);
    return `{ ${names.map((name, j) => `${name}: s${i}_${j}`).join(', ')} }`;
  });
  const id = JSON.stringify(`${publisher}.${extensionName}`);
  return `${imports.join('\n')}\nexport const loadWebChunk = webChunks(${id}, (id) => require(id), () => [${values.join(', ')}]);`;
}

/**
 * The web bundle ('bundle') and its chunks ('chunks'; 'names' is the chunks built once more as ES modules, with the
 * bundle's modules left as imports, to read which names they take of each). In the bundle, each `import('./…')` of a
 * module of WEB_CHUNKS becomes a call of the loader made in WEB_LOADER (src/env/vscode/webChunks.ts),
 * `loadWebChunk('./chunks/<chunk>.js').then((c) => c.<key>)`, and a static import of one fails the build (it would be
 * in the start). In the chunks, the modules of webShared are the bundle's, and a module of a chunk is bundled as any
 * other (moreWebShared fails the build when it would be in two chunks).
 */
const webSplit = (part) => ({
  name: 'web-split',
  setup(build) {
    const loaded = new Set();
    build.onStart(() => loaded.clear());
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (part !== 'bundle' || !repoPath(args.path).startsWith('src/')) return undefined;
      const text = await fs.promises.readFile(args.path, 'utf8');
      const calls = [...text.matchAll(/(?<!\btypeof\s+)\bimport\(\s*'(\.{1,2}\/[^']*)'\s*\)/g)];
      const targets = await Promise.all(
        calls.map((m) =>
          resolvedPath(build, {
            path: m[1],
            kind: 'dynamic-import',
            resolveDir: path.dirname(args.path),
            importer: args.path,
          }),
        ),
      );
      let contents = '';
      let at = 0;
      calls.forEach((m, i) => {
        const target = webChunkOf.get(targets[i]);
        if (!target) return;
        loaded.add(targets[i]);
        contents += `${text.slice(at, m.index)}__webChunk(${JSON.stringify(`./chunks/${target.chunk}.js`)}).then((c) => c.${target.key})`;
        at = m.index + m[0].length;
      });
      if (!at) return undefined;
      return {
        contents: `import { loadWebChunk as __webChunk } from '${WEB_LOADER}'; ${contents}${text.slice(at)}`,
        loader: 'ts',
      };
    });
    build.onResolve({ filter: /^flowsync:web-chunks$/ }, () => ({ path: WEB_LOADER, namespace: 'web-loader' }));
    build.onLoad({ filter: /.*/, namespace: 'web-loader' }, () => ({
      contents: webLoaderText(),
      loader: 'js',
      resolveDir: __dirname,
    }));
    build.onResolve({ filter: /^flowsync:web-chunk\// }, (args) => ({
      path: args.path.replace('flowsync:web-chunk/', ''),
      namespace: 'web-chunk',
    }));
    build.onLoad({ filter: /.*/, namespace: 'web-chunk' }, (args) => ({
      contents: Object.entries(WEB_CHUNKS[args.path])
        .map(([key, module]) => `export * as ${key} from ${JSON.stringify(path.join(__dirname, module))};`)
        .join('\n'),
      loader: 'js',
      resolveDir: __dirname,
    }));
    build.onResolve({ filter: /.*/, namespace: 'web-shared' }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'web-shared' }, (args) => ({
      contents: `module.exports = require('../extension.js')[${args.path}];`,
      loader: 'js',
    }));
    build.onResolve({ filter: /.*/ }, async (args) => {
      const file = await resolvedPath(build, args);
      if (!file) return undefined;
      const target = webChunkOf.get(file);
      if (target && part === 'bundle')
        return {
          errors: [
            {
              text: `${repoPath(args.importer)} imports ${args.path} statically, but it is in the web chunk "${target.chunk}" (esbuild.js WEB_CHUNKS), loaded on first use: import('./…') it where it is needed`,
            },
          ],
        };
      const shared = part === 'bundle' ? -1 : [...webShared.keys()].sort().indexOf(file);
      if (shared < 0) return undefined;
      return part === 'names'
        ? { path: `shared:${shared}`, external: true }
        : { path: String(shared), namespace: 'web-shared' };
    });
    build.onEnd((result) => {
      if (part !== 'bundle' || result.errors.length) return;
      for (const [module, { chunk }] of webChunkOf)
        if (!loaded.has(module))
          result.errors.push({ text: `no code loads ${module} (esbuild.js WEB_CHUNKS.${chunk})` });
    });
  },
});

/** The files of ours (not a plugin's virtual modules) that a build's output holds. */
const filesOf = (output) => Object.keys(output.inputs).filter((input) => fs.existsSync(path.join(__dirname, input)));

/**
 * The names the chunks take of each module of the bundle (index -> names, or '*'), read from the chunks built as ES
 * modules with those modules left as imports (`import { a, b as c } from "shared:3"`; esbuild keeps only what the code
 * uses as a value, so no type is among them).
 */
function sharedNames(namesBuild) {
  const names = new Map();
  const take = (index, list) => {
    const had = names.get(index) ?? [];
    names.set(index, had === '*' || list === '*' ? '*' : [...new Set([...had, ...list])].sort());
  };
  for (const { text } of namesBuild.outputFiles) {
    for (const m of text.matchAll(/^(?:import|export)\s+([^;]*?)\s*from\s*"shared:(\d+)";/gm)) {
      const clause = m[1];
      if (clause.includes('*')) take(Number(m[2]), '*');
      else {
        const list = (clause.match(/\{([^}]*)\}/)?.[1] ?? '').split(',').map((n) => n.trim().split(/\s+as\s+/)[0]);
        if (/^\s*[\w$]+\s*(,|$)/.test(clause)) list.push('default');
        take(Number(m[2]), list.filter(Boolean));
      }
    }
  }
  return names;
}

/**
 * One round's verdict: the bundle's modules the chunks must take from it that they do not yet (those that a module only
 * in a chunk imports). Fails when a module is in two chunks, when the bundle and a chunk hold one that no module only in
 * a chunk imports, or when the chunks would take a default export (a CommonJS module has none) or a module's `let`
 * (they take its value once, when they load).
 */
function moreWebShared(bundleMeta, chunksMeta) {
  const inBundle = new Set(filesOf(bundleMeta.outputs['dist/web/extension.js']));
  const inChunks = Object.values(chunksMeta.outputs)
    .filter((output) => output.entryPoint)
    .flatMap(filesOf);
  const twice = inChunks.filter((file, i) => inChunks.indexOf(file) !== i);
  if (twice.length) throw new Error(`in two web chunks: ${twice.join(', ')} (esbuild.js WEB_CHUNKS)`);
  const more = new Set();
  for (const file of inChunks)
    if (!inBundle.has(file))
      for (const { path: imported } of chunksMeta.inputs[file].imports)
        if (inBundle.has(imported) && !webShared.has(imported)) more.add(imported);
  const copied = inChunks.filter((file) => inBundle.has(file));
  if (copied.length && !more.size) throw new Error(`in the web bundle and a chunk: ${copied.join(', ')}`);
  for (const file of inBundle)
    if (
      (file.startsWith('src/') || webShared.has(file)) &&
      /^export\s+(?:let|var)\s/m.test(fs.readFileSync(path.join(__dirname, file), 'utf8'))
    )
      throw new Error(`${file} exports a let or var: a web chunk would keep its value of when it loaded`);
  for (const [file, names] of webShared)
    if (names !== '*' && names.includes('default'))
      throw new Error(`a web chunk takes the default export of ${file}: a CommonJS module has none`);
  return [...more];
}

/** An error as esbuild's build errors are (main() prints `errors`). */
const buildError = (text) => Object.assign(new Error(text), { errors: [{ text }] });

/**
 * The web bundle and its chunks, built together and shaped as an esbuild context for main(). rebuild() builds them in
 * rounds until no module is in both: each round builds the chunks (and reads which names they take of the bundle's
 * modules they share), then the bundle with those names, and the chunks take from the bundle what their own modules
 * import of it that they did not yet; two or three rounds. watch() builds again after each change under src/.
 */
async function webContext() {
  fs.rmSync(path.join(__dirname, 'dist', 'web', 'chunks'), { recursive: true, force: true });
  const bundle = await esbuild.context(webOptions);
  const chunks = await esbuild.context(webChunkOptions);
  const names = await esbuild.context({
    ...webChunkOptions,
    format: 'esm',
    minify: false,
    sourcemap: false,
    metafile: false,
    write: false,
    plugins: [vscodeOnce, webSplit('names'), browserPlatform, jsoncScanner],
  });
  const report = () => {
    const size = (file) => `${(fs.statSync(path.join(__dirname, 'dist', 'web', file)).size / 1024).toFixed(1)} KB`;
    const files = ['extension.js', ...Object.keys(WEB_CHUNKS).map((name) => `chunks/${name}.js`)];
    console.log(
      `[watch] build finished: dist/web/ ${files.map((f) => `${f} ${size(f)}`).join(', ')}${production ? ' (production)' : ''}`,
    );
  };
  const rebuild = async () => {
    try {
      webShared = new Map();
      for (let round = 1; ; round++) {
        const [split, taken] = await Promise.all([chunks.rebuild(), names.rebuild()]);
        const files = [...webShared.keys()].sort();
        for (const [index, list] of sharedNames(taken)) webShared.set(files[index], list);
        const main = await bundle.rebuild();
        const more = moreWebShared(main.metafile, split.metafile);
        if (!more.length) {
          // dist/web/meta.json: which module is in which web file (check:budgets counts a feature's bytes by it)
          const outputs = { ...main.metafile.outputs, ...split.metafile.outputs };
          fs.writeFileSync(path.join(__dirname, 'dist', 'web', 'meta.json'), JSON.stringify({ outputs }));
          break;
        }
        if (round === 5) throw buildError(`the web chunks still take more of the bundle after ${round} rounds`);
        for (const file of more) webShared.set(file, []);
      }
    } catch (error) {
      // esbuild's own errors are printed as each build ends (webErrors)
      if (!error.errors) printErrors({ errors: [{ text: String(error.message ?? error) }] });
      throw error.errors ? error : buildError(String(error.message ?? error));
    }
    if (production)
      for (const name of Object.keys(WEB_CHUNKS))
        fs.rmSync(path.join(__dirname, 'dist', 'web', 'chunks', `${name}.js.map`), { force: true });
    report();
    return { errors: [] };
  };
  return {
    rebuild,
    async watch() {
      await rebuild().catch(() => undefined);
      let timer;
      fs.watch(path.join(__dirname, 'src'), { recursive: true }, () => {
        clearTimeout(timer);
        timer = setTimeout(() => rebuild().catch(() => undefined), 100);
      });
    },
    dispose: () => Promise.all([bundle.dispose(), chunks.dispose(), names.dispose()]),
  };
}

/**
 * jsonc-parser in the web bundle: its scanner alone. The package's entry (lib/esm/main.js) keeps every enum and helper
 * of the package whatever is used (2.2 KB of the web bundle); src takes only createScanner and SyntaxKind from it
 * (src/settings/workspaceOverrides.ts), so there 'jsonc-parser' is the scanner's own module and the enum's values, read
 * from the package as it builds. A name src took besides those would fail the build (no matching export).
 */
const jsoncScanner = {
  name: 'jsonc-scanner',
  setup(build) {
    build.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path: 'jsonc-parser', namespace: 'jsonc-scanner' }));
    build.onLoad({ filter: /.*/, namespace: 'jsonc-scanner' }, () => {
      const kinds = Object.entries(require('jsonc-parser').SyntaxKind).filter(([, value]) => typeof value === 'number');
      return {
        contents: `export { createScanner } from 'jsonc-parser/lib/esm/impl/scanner.js';\nexport const SyntaxKind = ${JSON.stringify(Object.fromEntries(kinds))};`,
        loader: 'js',
        resolveDir: __dirname,
      };
    });
  },
};

/** Prints the errors of each build of the web bundle and its chunks. */
const webErrors = { name: 'web-errors', setup: (build) => build.onEnd(printErrors) };

/**
 * The web worker extension host's bundle (package.json "browser"): CommonJS too (the worker loads it with its own
 * `require` shim), platform browser, so a Node built-in that becomes reachable fails the build.
 */
const webOptions = {
  entryPoints: ['src/extension.ts'],
  // One tsconfig for every file, named, not looked for: esbuild's own look-up left out the "use strict" that
  // tsconfig's `strict` gives (each module's wrapper) for a module the browser-platform plugin resolves
  // (platform.browser.ts) in 1 build of 6, so the same sources gave two web bundles (241,668 and 241,655 B) and
  // check:budgets' now table, exact, failed a clean clone's CI by chance
  tsconfig: path.join(__dirname, 'tsconfig.json'),
  bundle: true,
  format: 'cjs',
  platform: 'browser',
  target: 'es2022',
  outfile: 'dist/web/extension.js',
  external: ['vscode'],
  mainFields: ['browser', 'module', 'main'],
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  metafile: true,
  legalComments: production ? 'none' : 'inline',
  // Text as UTF-8, not \u escapes, as in the Node bundle: the web worker extension host fetches the file and decodes
  // it as UTF-8 (fetch().text()); the look-alike letters of service names (src/services/confusableTable.ts) are 2 KB so.
  charset: 'utf8',
  logLevel: 'silent',
  plugins: [vscodeOnce, webSplit('bundle'), browserPlatform, jsoncScanner, webErrors],
};

/** The web bundle's chunks, dist/web/chunks/<name>.js: each run by src/env/browser/webChunks.ts. */
const webChunkOptions = {
  ...webOptions,
  entryPoints: Object.fromEntries(Object.keys(WEB_CHUNKS).map((name) => [name, `flowsync:web-chunk/${name}`])),
  outfile: undefined,
  outdir: 'dist/web/chunks',
  plugins: [vscodeOnce, webSplit('chunks'), browserPlatform, jsoncScanner, webErrors],
};

/** A line per finished build of the webview page, and its errors. */
const webviewReporter = reporterFor('webview-reporter', () => {
  const size = (name) => (fs.statSync(path.join(__dirname, 'dist', 'webview', name)).size / 1024).toFixed(1);
  console.log(
    `[watch] build finished: dist/webview/activity.js ${size('activity.js')} KB, activity.css ${size('activity.css')} KB${production ? ' (production)' : ''}`,
  );
});

/** The webview page of the activity panel: runs in the webview (a browser), loaded by its nonce'd <script>. */
const webviewOptions = {
  entryPoints: ['src/activity/webview/activity.ts'],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome114'],
  outfile: 'dist/webview/activity.js', // the CSS it imports goes to dist/webview/activity.css
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  legalComments: production ? 'none' : 'inline',
  logLevel: 'silent',
  plugins: [webviewReporter],
};

/** The page of Flow Insights: its own script and style sheet (no charting library), loaded by its nonce'd <script>. */
const insightsWebviewOptions = {
  entryPoints: ['src/insights/webview/insights.ts'],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome114'],
  outfile: 'dist/webview/insights.js', // the CSS it imports goes to dist/webview/insights.css
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'silent',
  plugins: [
    reporterFor('insights-reporter', () =>
      console.log(`[watch] build finished: dist/webview/insights.js${production ? ' (production)' : ''}`),
    ),
  ],
};

/** The page of the Run Timeline: its own script and style sheet (a canvas, no charting library). */
const timelineWebviewOptions = {
  ...insightsWebviewOptions,
  entryPoints: ['src/timeline/webview/timeline.ts'],
  outfile: 'dist/webview/timeline.js', // and dist/webview/timeline.css
  plugins: [
    reporterFor('timeline-reporter', () =>
      console.log(`[watch] build finished: dist/webview/timeline.js${production ? ' (production)' : ''}`),
    ),
  ],
};

/** Options of every file of the Node build. */
const nodeOptions = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  external: ['vscode'],
  // Prefer a package's ES module build: jsonc-parser's "main" is a UMD bundle whose require() calls esbuild cannot
  // follow (the bundle then fails at run time with "Cannot find module './impl/format'").
  mainFields: ['module', 'main'],
  minify: production,
  // import() of a chunk becomes require() (synchronous, and found by VS Code's `vscode` interception like the bundle)
  supported: { 'dynamic-import': false },
  // FLOWSYNC_SOURCEMAP=1 (bench/activation.mjs --cpu-profile): a production build with dist/*.js.map beside it but no
  // sourceMappingURL comment, so samples of the minified code can be told by module.
  sourcemap: production ? (process.env.FLOWSYNC_SOURCEMAP === '1' ? 'external' : false) : true,
  sourcesContent: false,
  metafile: true,
  legalComments: production ? 'none' : 'inline',
  // Text as UTF-8, not \u escapes ("…" is 3 bytes, not 6): Node reads a module as UTF-8.
  charset: 'utf8',
  logLevel: 'silent',
};

/**
 * Builds the Node bundle, its layers laid out anew (scripts/lib/layers.js), and writes dist/meta.json (the metafiles of
 * every file). Returns the errors.
 */
async function buildNode() {
  const started = Date.now();
  const files = nodeFiles(CHUNKS);
  const plugins = [vscodeOnce, builtinWebStreams, noMultipartParser];
  const layout = await layOut({ esbuild, files, options: nodeOptions, plugins, root: __dirname });
  if (layout.errors.length) return layout.errors;
  // no chunk left over from an earlier layout: each file of dist/chunks goes into the VSIX
  fs.rmSync(path.join(__dirname, 'dist', 'chunks'), { recursive: true, force: true });
  const results = await Promise.all(
    files.map((file) =>
      esbuild
        .build({
          ...nodeOptions,
          stdin: {
            contents: entryContents(file, layout.shared),
            resolveDir: __dirname,
            sourcefile: `${file.name}-entry.ts`,
            loader: 'ts',
          },
          outfile: file.file,
          plugins: [...plugins, layersPlugin({ files, file, root: __dirname, layout })],
        })
        .catch((error) => ({ errors: error.errors ?? [error] })),
    ),
  );
  const errors = results.flatMap((r) => r.errors);
  if (errors.length) return errors;
  const meta = { inputs: {}, outputs: {} };
  for (const { metafile } of results) {
    Object.assign(meta.inputs, metafile.inputs);
    Object.assign(meta.outputs, metafile.outputs);
  }
  fs.writeFileSync(path.join(__dirname, 'dist', 'meta.json'), JSON.stringify(meta));
  if (production) {
    for (const file of files) {
      if (file.name === 'start' && process.env.FLOWSYNC_SOURCEMAP === '1') continue;
      fs.rmSync(path.join(__dirname, `${file.file}.map`), { force: true }); // not packaged
    }
  }
  const sizes = files.map(
    (f) => `${path.basename(f.file)} ${(fs.statSync(path.join(__dirname, f.file)).size / 1024).toFixed(1)} KB`,
  );
  console.log(
    `[watch] build finished: ${sizes.join(', ')}${production ? ' (production)' : ''} in ${Date.now() - started} ms`,
  );
  return [];
}

async function main() {
  fs.mkdirSync(path.join(__dirname, 'dist', 'webview'), { recursive: true });
  fs.mkdirSync(path.join(__dirname, 'dist', 'web'), { recursive: true });
  const webview = await esbuild.context(webviewOptions);
  const insightsPage = await esbuild.context(insightsWebviewOptions);
  const timelinePage = await esbuild.context(timelineWebviewOptions);
  const web = await webContext();
  if (watch) {
    // The Node bundle's layout can change with any import: it is built whole again on every change of src/.
    let building = Promise.resolve();
    let timer;
    const rebuild = () => {
      console.log('[watch] build started');
      building = building.then(buildNode).then(
        (errors) => printErrors({ errors }),
        (error) => console.error(error),
      );
    };
    fs.watch(path.join(__dirname, 'src'), { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(rebuild, 100);
    });
    rebuild();
    await Promise.all([webview.watch(), insightsPage.watch(), timelinePage.watch(), web.watch()]);
  } else {
    const failed = (error) => ({ errors: error.errors ?? [error] });
    const [nodeErrors, page, worker, insights, timeline] = await Promise.all([
      buildNode().catch((error) => failed(error).errors),
      webview.rebuild().catch(failed),
      web.rebuild().catch(failed),
      insightsPage.rebuild().catch(failed),
      timelinePage.rebuild().catch(failed),
    ]);
    await Promise.all([webview.dispose(), web.dispose(), insightsPage.dispose(), timelinePage.dispose()]);
    printErrors({ errors: nodeErrors });
    if ([page, worker, insights, timeline].some((r) => r.errors.length) || nodeErrors.length) process.exit(1);
    if (production) {
      fs.rmSync(path.join(__dirname, 'dist', 'web', 'extension.js.map'), { force: true });
      for (const map of ['activity', 'insights', 'timeline'].flatMap((p) => [`${p}.js.map`, `${p}.css.map`]))
        fs.rmSync(path.join(__dirname, 'dist', 'webview', map), { force: true });
    }
  }
}

// `node esbuild.js` builds; require('./esbuild.js') only reads CHUNKS (test/unit/repo/chunks.test.ts).
if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

module.exports = { CHUNKS };
