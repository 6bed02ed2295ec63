// Bundles src/extension.ts into dist/extension.js (CommonJS, Node, `vscode` external: package.json "main"), the same
// entry into dist/web/extension.js for the web worker extension host (vscode.dev; package.json "browser": platform
// browser, the platform seam src/env/platform.ts swapped for platform.browser.ts, no Node built-ins), and the page of
// the activity panel, src/activity/webview/activity.ts, into dist/webview/activity.js + activity.css (a browser IIFE with uPlot
// and its CSS).
//   node esbuild.js               development build with source maps
//   node esbuild.js --production  minified, no source maps
//   node esbuild.js --watch       rebuild on change
// Always writes dist/meta.json (the esbuild metafile of dist/extension.js) so bundle size can be checked per package.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints build errors the way VS Code's esbuild problem matcher expects, and a line per finished build. */
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

const reporter = {
  name: 'reporter',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      printErrors(result);
      if (result.metafile) {
        fs.writeFileSync(path.join(__dirname, 'dist', 'meta.json'), JSON.stringify(result.metafile));
        const bytes = fs.statSync(path.join(__dirname, 'dist', 'extension.js')).size;
        console.log(`[watch] build finished: dist/extension.js ${(bytes / 1024).toFixed(1)} KB${production ? ' (production)' : ''}`);
      }
    });
  },
};

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
 * The browser bundle's platform: every import of the seam's `platform` module (src/env/platform.ts, Node) resolves to
 * src/env/platform.browser.ts instead, so node-fetch and node:crypto are not even reachable from it.
 */
const browserPlatform = {
  name: 'browser-platform',
  setup(build) {
    const nodeModule = path.join(__dirname, 'src', 'env', 'platform');
    build.onResolve({ filter: /(^|\/)env\/platform$|^\.\/platform$/ }, (args) => {
      const resolved = path.resolve(args.resolveDir, args.path);
      return resolved === nodeModule ? { path: `${nodeModule}.browser.ts` } : undefined;
    });
  },
};

/** A line per finished build of the web bundle, and its errors (a Node built-in reaching it is one). */
const webReporter = reporterFor('web-reporter', () => {
  const bytes = fs.statSync(path.join(__dirname, 'dist', 'web', 'extension.js')).size;
  console.log(`[watch] build finished: dist/web/extension.js ${(bytes / 1024).toFixed(1)} KB${production ? ' (production)' : ''}`);
});

/**
 * The web worker extension host's bundle (package.json "browser"): CommonJS too (the worker loads it with its own
 * `require` shim), platform browser, so a Node built-in that becomes reachable fails the build.
 */
const webOptions = {
  entryPoints: ['src/extension.ts'],
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
  legalComments: production ? 'none' : 'inline',
  logLevel: 'silent',
  plugins: [browserPlatform, webReporter],
};

/** A line per finished build of the webview page, and its errors. */
const webviewReporter = reporterFor('webview-reporter', () => {
  const size = (name) => (fs.statSync(path.join(__dirname, 'dist', 'webview', name)).size / 1024).toFixed(1);
  console.log(`[watch] build finished: dist/webview/activity.js ${size('activity.js')} KB, activity.css ${size('activity.css')} KB${production ? ' (production)' : ''}`);
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
  // uPlot's copyright notice is a plain comment (minifying drops it); its MIT license asks for it in copies
  banner: { js: `/*! uPlot ${require('uplot/package.json').version} (c) Leon Sorokin, MIT License, https://github.com/leeoniya/uPlot */` },
  logLevel: 'silent',
  plugins: [webviewReporter],
};

async function main() {
  fs.mkdirSync(path.join(__dirname, 'dist', 'webview'), { recursive: true });
  fs.mkdirSync(path.join(__dirname, 'dist', 'web'), { recursive: true });
  const webview = await esbuild.context(webviewOptions);
  const web = await esbuild.context(webOptions);
  const ctx = await esbuild.context({
    entryPoints: ['src/extension.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node18',
    outfile: 'dist/extension.js',
    external: ['vscode'],
    // Prefer a package's ES module build: jsonc-parser's "main" is a UMD bundle whose require() calls esbuild cannot
    // follow (the bundle then fails at run time with "Cannot find module './impl/format'").
    mainFields: ['module', 'main'],
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    metafile: true,
    legalComments: production ? 'none' : 'inline',
    logLevel: 'silent',
    plugins: [builtinWebStreams, reporter],
  });
  if (watch) {
    await Promise.all([ctx.watch(), webview.watch(), web.watch()]);
  } else {
    const failed = (error) => ({ errors: error.errors ?? [error] });
    const [result, page, worker] = await Promise.all([ctx.rebuild(), webview.rebuild().catch(failed), web.rebuild().catch(failed)]);
    await Promise.all([ctx.dispose(), webview.dispose(), web.dispose()]);
    if (result.errors.length || page.errors.length || worker.errors.length) process.exit(1);
    if (production) {
      fs.rmSync(path.join(__dirname, 'dist', 'extension.js.map'), { force: true });
      fs.rmSync(path.join(__dirname, 'dist', 'web', 'extension.js.map'), { force: true });
      for (const map of ['activity.js.map', 'activity.css.map']) fs.rmSync(path.join(__dirname, 'dist', 'webview', map), { force: true });
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
