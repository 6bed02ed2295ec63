#!/usr/bin/env node
// `npm run check:budgets` (a stage of `npm test`): size budgets CI enforces, deterministic and offline, each with a
// margin under it (issue #50: the caps are set below what two releases of features would squeeze in; a new feature
// adds a line of its own, it does not raise a shared cap).
//   - the production bundle dist/extension.js, what a start loads: registration only (see BUDGETS). The rest is in a
//     few chunks dist/chunks/*.js by layer (esbuild.js CHUNKS), each loaded whole on first use
//   - every chunk the bundle or a chunk loads (require) exists and is in the VSIX (a missing one fails only on first
//     use), and every chunk built is reached that way
//   - copied bytes: modules present in two or more files of the Node build (dist/meta.json, esbuild's metafile), with
//     their share of our code (the bytes of src/'s modules in those files): at most 5 % (scripts/lib/layers.js keeps
//     every module of src/ in one file, so it is 0 unless a package's module is reached from two chunks)
//   - the production web bundle dist/web/extension.js (package.json "browser"), what the web worker extension host loads
//     at start: at most 260 KB. The rest is in its chunks dist/web/chunks/*.js (esbuild.js WEB_CHUNKS: what a person's
//     action needs), each fetched on first use (printed without a budget of its own); each chunk the web bundle loads
//     exists and is in the VSIX, and each chunk built is loaded by it
//   - the packaged VSIX (vsce package --no-dependencies, built here into a temp dir and deleted)
//   - no regular expression literal with \p{…} in what a start loads
// Then it writes the "now" table that opens docs/performance.md (between its NOW markers) from what it measured; with
// `--check` (the budgets stage of `npm test`) it does not write, and fails when the committed table differs (the rows
// made by esbuild are compared exactly: its output is the same on every machine for the same sources; the VSIX row
// within VSIX_DRIFT, as the VSIX holds CHANGELOG.md and README.md, which most commits change).
// Builds the production bundle first (node esbuild.js --production; `--no-build` measures dist/ as it is). `--vsix FILE`:
// measures that VSIX (packaged from this dist/ by `npm test`'s package stage) instead of packaging one (3.5 s of CPU).
// Prints each size beside its budget; exits 1 when one is over budget (or the table is stale), 2 when a size could not
// be measured. Leaves nothing in the repo besides the normal build output in dist/ (gitignored) and the table.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE = path.join(REPO_ROOT, 'dist', 'extension.js');
export const WEB_BUNDLE = path.join(REPO_ROOT, 'dist', 'web', 'extension.js');
export const CHUNKS_DIR = path.join(REPO_ROOT, 'dist', 'chunks');
export const WEB_CHUNKS_DIR = path.join(REPO_ROOT, 'dist', 'web', 'chunks');
export const BUDGETS = {
  // bytes: the eager part (issue #22: 100 KB, then 75,000 to keep the services' chunk out; 77,000 for a while after
  // Find and Insights, back to 75,000 with issue #29's lazy loading: the command table, Find, the JSON documents and
  // Show Activity/Insights loaded on first use), counted in decimal. 85,000 for a while after issue #39 (Open in Browser's
  // template checks, errors announced, rows that stand out, pinned flows: 9.4 KB at start as they landed), 82,000 once
  // errors announced and the rows' tints load on first use (81,308 B); Open in Browser's template checks are still
  // read at start, until they too load on first use. 83,000 for globalState read back as this window wrote it
  // (src/base/readYourWrites.ts: every feature's globalState goes through it from the start; 82,152 B then). 84,000
  // when it also keeps each key's version and writes again what another window's copy lost (issue 49 #4: 83,538 B).
  // 86,000 for the rest of issue #49 at start (the legacy key guard of a root service's key, each command's argument
  // checked before its handler's chunk loads, the window id and log handed to the errors' memory: 84,642 B then).
  // Issue #50: 70,000 (85,047 B before it), the chunks by layer and what is not registration out of the start: the
  // views' rows and tints, the status bar, telling failures, the settings' warnings, the export's leftovers and the
  // test API are made with (or in) the chunks; 67,192 B then. 20,000 once the start registered only, and the product
  // it registers for (src/start/vscode/product.ts: the settings, the services, the views' rows) was made in the services'
  // chunk after activate() returned: 10,477 B then (61,901 B before), so a start that grows again is seen early.
  bundle: 20_000,
  // What the web worker extension host loads at start. The browser build was one file until issue #50 (see
  // docs/performance.md, "The web bundle"): Find, Export and Insights (issues #30, #31) took it from
  // 194 KB to 236 KB. 260 KB for issue #38's bounds (the look-alike table of service names, 2 KB even as UTF-8; Go to's
  // index; Flow Insights' cache and throttle): the chunks of the Node build keep them out of its start, this file
  // cannot. 282 KB for issue #39's four features (Open in Browser, errors announced, rows that stand out, pinned flows);
  // 283 KB for globalState read back as this window wrote it (289,250 B then). 289 KB for errors said once per run
  // across reloads and windows (issue #49, #7: the runs said, kept in files shared by the windows; 295,062 B then).
  // 310 KB for the rest of issue #49 (the bounded pick of loaded rows and each command's argument check, the legacy key
  // move's per-origin record, globalState's versions per key, the heartbeat of an unchanged answer, the kept refresh:
  // 310,897 B), 316 KB with Flow Insights' changes-only updates and the filter's kept folds (317,811 B). 260 KB with
  // issue #50: it is split too; what a person's action needs is a chunk, dist/web/chunks/actions.js, fetched on first
  // use, and of jsonc-parser only its scanner is in it (318,122 -> 214,499 B: a margin of 51,741 B, 19 %).
  webBundle: 260 * 1024,
  // 358,400 bytes for the insights page (its script and style) and the find and insights chunks; 365 KB with issue #39's
  // features in both bundles; 367 KB with globalState read back as this window wrote it in both (374,383 B then, and
  // the CHANGELOG that ships in it grows with each release); 372 KB with errors said once per run across reloads
  // (issue #49, #7) in both bundles (379,915 B then); 396 KB with the rest of issue #49 in both (399,686 B then).
  // 350 KB with issue #50 (347,895 B then, 110,674 B of it the web bundle, compressed): the issue's 330 KB holds once
  // the web bundle is about 260 KB, the cap of its own. 330 KB, the issue's, with the Marketplace icon made smaller
  // (10,710 -> 5,549 B) and the CHANGELOG's released sections written for users (18,464 -> 10,693 B compressed):
  // 334,176 B then. Team History and the run timeline each get a line of their own, never a raised shared cap.
  vsix: 330 * 1024,
  // Team History (issue #51): its store's chunk dist/chunks/teamHistory.js (src/teamHistory and the `postgres` driver),
  // loaded only when a store is connected, deflated as the VSIX holds it: what it adds to the VSIX, at most 40 KB, its
  // own line; the VSIX's cap above is for the rest.
  teamHistory: 40 * 1024,
  // The Run Timeline (issue #52), a line of its own: its page (dist/webview/timeline.js and .css) and its modules
  // (src/timeline/) in the Node build, uncompressed (the VSIX holds them compressed: this bounds what it adds), and its
  // modules in the web build (its chunks: none at start, checked below). Each at most 30 KB.
  timelineVsix: 30 * 1024,
  timelineWeb: 30 * 1024,
  // Modules present in two or more files of the Node build, as a share of our code in them (issue #50: 28 % before
  // the chunks by layer, 107,146 of 387,860 bytes then; 0 after).
  copiedShare: 0.05,
};
/** How far the VSIX may be from the figure of the committed now table before `--check` calls it stale. */
const VSIX_DRIFT = 0.02;
/** The now table's place in docs/performance.md. */
const DOC = path.join(REPO_ROOT, 'docs', 'performance.md');
const NOW_START =
  '<!-- now: written by `npm run check:budgets` from what it measured; `npm test` fails when it differs -->';
const NOW_END = '<!-- /now -->';
const VSCE = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');

/** `node esbuild.js --production` in the repo; throws with its output on failure. */
export function buildProduction({ sourceMap = false } = {}) {
  const env = { ...process.env, FLOWSYNC_SOURCEMAP: sourceMap ? '1' : '' };
  const r = spawnSync(process.execPath, ['esbuild.js', '--production'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env,
  });
  if (r.status !== 0)
    throw new Error(`node esbuild.js --production failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
}

/**
 * Packages the VSIX exactly as `vsce package --no-dependencies` would from the repo as it is (its .vscodeignore, if
 * any), into a fresh temp dir. Runs the locally installed vsce (no npx, no network); the two extra flags only stop vsce
 * from prompting (no repository field, no LICENSE) so it cannot wait on stdin.
 * Returns { bytes, files, bundleBytes, names } (bundleBytes: uncompressed size of extension/dist/extension.js inside it;
 * names: every entry's name).
 */
export function packageVsixBytes() {
  if (!fs.existsSync(VSCE))
    throw new Error(`${path.relative(REPO_ROOT, VSCE)} is missing: run npm install (@vscode/vsce is a devDependency)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-budget-'));
  try {
    const out = path.join(dir, 'extension.vsix');
    const r = spawnSync(
      process.execPath,
      [VSCE, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 180_000,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      },
    );
    if (r.status !== 0 || !fs.existsSync(out))
      throw new Error(`vsce package failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
    return vsixBytesOf(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** packageVsixBytes()'s answer for a VSIX packaged already (`--vsix FILE`: npm test's package stage made it). */
export function vsixBytesOf(file) {
  const entries = zipEntries(fs.readFileSync(file));
  return {
    bytes: fs.statSync(file).size,
    files: entries.size,
    bundleBytes: entries.get('extension/dist/extension.js'),
    names: [...entries.keys()],
    entries,
  };
}

/** Name -> uncompressed size of every entry of a zip, from its central directory. */
export function zipEntries(zip) {
  const entries = new Map();
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0, n = zip.readUInt16LE(eocd + 10); i < n; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const nameLength = zip.readUInt16LE(at + 28);
    entries.set(zip.toString('utf8', at + 46, at + 46 + nameLength), zip.readUInt32LE(at + 24));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** The chunks dist/extension.js and its chunks load ('./chunks/<name>.js', or './<name>.js' from a chunk), as dist paths. */
export function requiredChunks() {
  const required = new Set();
  const queue = [BUNDLE];
  while (queue.length) {
    const file = queue.shift();
    if (!fs.existsSync(file)) continue;
    const text = fs.readFileSync(file, 'utf8');
    // require("./chunks/x.js") in the bundle (esbuild turns its import() into one); in a chunk, import("./x.js")
    for (const m of text.matchAll(/\b(?:require|import)\(\s*["'`]\.\/((?:chunks\/)?)(\w+\.js)["'`]\s*\)/g)) {
      if (file !== BUNDLE && m[1]) continue; // a chunk's ./chunks/… would be a path of its own: not ours
      if (file === BUNDLE && !m[1]) continue;
      const chunk = `dist/chunks/${m[2]}`;
      if (required.has(chunk)) continue;
      required.add(chunk);
      queue.push(path.join(REPO_ROOT, chunk));
    }
  }
  return [...required].sort();
}

/** Bytes of every file in dist/chunks/ (name -> bytes), or of another folder of chunks. */
export function chunkSizes(dir = CHUNKS_DIR) {
  if (!fs.existsSync(dir)) return {};
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => [f, fs.statSync(path.join(dir, f)).size]),
  );
}

/**
 * The chunks dist/web/extension.js loads, as dist paths: each load is a call with './chunks/<name>.js' (esbuild.js
 * webSplit writes it for each import() of a module of WEB_CHUNKS).
 */
export function requiredWebChunks() {
  if (!fs.existsSync(WEB_BUNDLE)) return [];
  const text = fs.readFileSync(WEB_BUNDLE, 'utf8');
  return [
    ...new Set([...text.matchAll(/\(["']\.\/chunks\/(\w+\.js)["']\)/g)].map((m) => `dist/web/chunks/${m[1]}`)),
  ].sort();
}

/**
 * Builds (unless noBuild) and packages, and checks that the VSIX holds the very bundle measured: on a shared work tree
 * another build (e.g. a development build by the test rig) can rewrite dist/ in between. Retries such a race twice.
 * Returns { bundle, chunks (name -> bytes), required (the chunks required), webBundle, vsix }.
 */
export function measure({ noBuild = false, vsixFile } = {}) {
  for (let attempt = 1; ; attempt++) {
    if (!noBuild) buildProduction();
    if (!fs.existsSync(BUNDLE)) throw new Error('dist/extension.js is missing: run npm run build');
    if (!fs.existsSync(WEB_BUNDLE)) throw new Error('dist/web/extension.js is missing: run npm run build');
    const bundle = fs.statSync(BUNDLE).size;
    const webBundle = fs.statSync(WEB_BUNDLE).size;
    const vsix = vsixFile ? vsixBytesOf(vsixFile) : packageVsixBytes();
    const after = fs.statSync(BUNDLE).size;
    const chunks = chunkSizes();
    if (vsix.bundleBytes === bundle && after === bundle && fs.statSync(WEB_BUNDLE).size === webBundle)
      return {
        bundle,
        chunks,
        required: requiredChunks(),
        webBundle,
        webChunks: chunkSizes(WEB_CHUNKS_DIR),
        webRequired: requiredWebChunks(),
        vsix,
      };
    const what =
      vsix.bundleBytes === undefined
        ? 'the VSIX has no extension/dist/extension.js'
        : `dist/extension.js changed while packaging (${bundle} bytes built, ${vsix.bundleBytes} bytes packaged, ${after} bytes now): another build running?`;
    if (noBuild || attempt >= 3) throw new Error(what);
    console.log(`  (retrying: ${what})`);
  }
}

/**
 * What the VSIX holds (zipEntries: name -> uncompressed bytes), summed per top-level entry of the extension, largest
 * first.
 */
export function vsixContents(entries) {
  const sizes = new Map();
  for (const [name, bytes] of entries) {
    if (!name.startsWith('extension/')) continue; // the VSIX's own manifest files
    const file = name.slice('extension/'.length);
    const top = file.includes('/') ? `${file.split('/')[0]}/` : file;
    sizes.set(top, (sizes.get(top) ?? 0) + bytes);
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

const fmt = (n) => n.toLocaleString('en-US');
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const percent = (share) => `${(share * 100).toFixed(1)} %`;

/**
 * What dist/meta.json (the metafiles of the Node build's files) says is copied: every module (of src/ or a package)
 * present in two or more of its files, its bytes in all but the largest copy. `ours`: the bytes of src/'s modules in
 * all the files (the code the share is of). Generated modules (the vscode stand-in of each file, the layers' stubs) are
 * not modules of ours.
 */
export function copiedBytes(meta = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'dist', 'meta.json'), 'utf8'))) {
  const holders = new Map();
  let ours = 0;
  for (const [file, { inputs }] of Object.entries(meta.outputs)) {
    if (!file.endsWith('.js')) continue;
    for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
      if (bytesInOutput === 0 || /^[\w-]+:/.test(input) || input.endsWith('-entry.ts')) continue;
      if (input.startsWith('src/')) ours += bytesInOutput;
      holders.set(input, [...(holders.get(input) ?? []), [file, bytesInOutput]]);
    }
  }
  const modules = [...holders]
    .filter(([, held]) => held.length > 1)
    .map(([input, held]) => {
      const sizes = held.map(([, bytes]) => bytes);
      return {
        input,
        files: held.map(([file]) => file),
        copied: sizes.reduce((a, b) => a + b, 0) - Math.max(...sizes),
      };
    })
    .sort((a, b) => b.copied - a.copied);
  const copied = modules.reduce((sum, m) => sum + m.copied, 0);
  return { copied, ours, share: ours ? copied / ours : 0, modules };
}

/**
 * The bytes a feature's modules (every input under `folder`) hold in a build, by its metafile's outputs: { all, start }
 * (start: those in `startFile`, what a start loads).
 */
export function featureBytes(meta, folder, startFile) {
  let all = 0;
  let start = 0;
  for (const [file, { inputs }] of Object.entries(meta.outputs ?? {})) {
    if (!file.endsWith('.js')) continue;
    for (const [input, { bytesInOutput }] of Object.entries(inputs))
      if (input.startsWith(folder)) {
        all += bytesInOutput;
        if (file === startFile) start += bytesInOutput;
      }
  }
  return { all, start };
}

/** The Run Timeline's bytes: its page, its modules in the Node build and in the web build, and what a start holds of them. */
export function timelineBytes() {
  const read = (file) => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'));
  const page = ['timeline.js', 'timeline.css']
    .map((f) => path.join(REPO_ROOT, 'dist', 'webview', f))
    .reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
  const node = featureBytes(read('dist/meta.json'), 'src/timeline/', 'dist/extension.js');
  const web = featureBytes(read('dist/web/meta.json'), 'src/timeline/', 'dist/web/extension.js');
  return { page, node: node.all, web: web.all, atStart: node.start + web.start };
}

/** The rows of the now table: [measure, now, cap] (cap '' when none). */
function nowRows({ bundle, chunks, webBundle, vsix, copies, team, timeline }) {
  const names = Object.keys(chunks).sort();
  const chunkBytes = names.reduce((sum, name) => sum + chunks[name], 0);
  const capOf = (bytes, cap) => `${fmt(cap)} B (${percent(1 - bytes / cap)} under it)`;
  return [
    [
      'Start bundle `dist/extension.js` (loaded at activation: registration only)',
      `${fmt(bundle)} B`,
      capOf(bundle, BUDGETS.bundle),
    ],
    [
      `Chunks \`dist/chunks/\`: ${names.length} (${names.map((n) => `${n.replace(/\.js$/, '')} ${fmt(chunks[n])}`).join(', ')})`,
      `${fmt(chunkBytes)} B`,
      '',
    ],
    ['Node build in all (start + chunks)', `${fmt(bundle + chunkBytes)} B`, ''],
    [
      'Copied bytes in the Node build (modules in 2+ files), share of our code',
      `${fmt(copies.copied)} B of ${fmt(copies.ours)} (${percent(copies.share)}; ${copies.modules.length} modules)`,
      `≤ ${percent(BUDGETS.copiedShare)}`,
    ],
    ['Web bundle `dist/web/extension.js` (one file)', `${fmt(webBundle)} B`, capOf(webBundle, BUDGETS.webBundle)],
    ['VSIX (`vsce package --no-dependencies`)', `${fmt(vsix)} B`, ''],
    [
      'VSIX without the features of their own lines below (the shared cap)',
      `${fmt(vsix - team - timeline.deflated)} B`,
      capOf(vsix - team - timeline.deflated, BUDGETS.vsix),
    ],
    [
      "Team History's share of the VSIX (its chunk, and its modules in the other files), deflated",
      `${fmt(team)} B`,
      capOf(team, BUDGETS.teamHistory),
    ],
    [
      'Run Timeline: its page and its modules in the Node build (uncompressed), none at start',
      `${fmt(timeline.page + timeline.node)} B (page ${fmt(timeline.page)})`,
      capOf(timeline.page + timeline.node, BUDGETS.timelineVsix),
    ],
    [
      'Run Timeline: its modules in the web build (its chunk)',
      `${fmt(timeline.web)} B`,
      capOf(timeline.web, BUDGETS.timelineWeb),
    ],
  ];
}

/** Team History's modules (issue #51): its room, and History's seam to it. */
const TEAM_HISTORY_MODULES = /^(src\/teamHistory\/|src\/history\/teamPort\.ts$)/;

/**
 * What a feature adds to the VSIX, deflated as the zip holds it: its own `files` whole, and its `modules` in the other
 * files of the Node and web builds (dist/meta.json, dist/web/meta.json), each file's share at that file's own ratio of
 * deflated to raw bytes.
 */
function featureDeflated(modules, files) {
  const deflated = (file) => zlib.deflateRawSync(fs.readFileSync(file), { level: 9 }).length;
  const own = files.filter((file) => fs.existsSync(file));
  let total = own.reduce((sum, file) => sum + deflated(file), 0);
  for (const metaFile of [
    path.join(REPO_ROOT, 'dist', 'meta.json'),
    path.join(REPO_ROOT, 'dist', 'web', 'meta.json'),
  ]) {
    if (!fs.existsSync(metaFile)) continue;
    for (const [output, { inputs }] of Object.entries(JSON.parse(fs.readFileSync(metaFile, 'utf8')).outputs)) {
      const file = path.resolve(REPO_ROOT, output);
      if (!output.endsWith('.js') || own.includes(file) || !fs.existsSync(file)) continue;
      const ours = Object.entries(inputs)
        .filter(([input]) => modules.test(input))
        .reduce((sum, [, { bytesInOutput }]) => sum + bytesInOutput, 0);
      if (ours) total += Math.round((ours * deflated(file)) / fs.statSync(file).size);
    }
  }
  return total;
}

/** What team History adds to the VSIX, deflated: its chunk (its room and the `postgres` driver) and its other modules. */
function teamHistoryDeflated() {
  const chunk = path.resolve(CHUNKS_DIR, 'teamHistory.js');
  return fs.existsSync(chunk) ? featureDeflated(TEAM_HISTORY_MODULES, [chunk]) : 0;
}

/** What the Run Timeline adds to the VSIX, deflated: its page and its modules. */
function timelineDeflated() {
  const page = ['timeline.js', 'timeline.css'].map((f) => path.resolve(REPO_ROOT, 'dist', 'webview', f));
  return featureDeflated(/^src\/timeline\//, page);
}

/** What the shared cap (BUDGETS.vsix) holds of a VSIX of `vsixBytes`: all but the features with lines of their own. */
export function vsixShared(vsixBytes) {
  return vsixBytes - teamHistoryDeflated() - timelineDeflated();
}

/** The now table as docs/performance.md holds it, between its markers. */
function nowTable(rows) {
  return [
    NOW_START,
    '',
    '| Measure | Now | Cap (CI) |',
    '| --- | --- | --- |',
    ...rows.map(([measure, now, cap]) => `| ${measure} | ${now} | ${cap} |`),
    '',
    `The sizes of the production build as \`npm run check:budgets\` last measured them; the VSIX row within ${percent(VSIX_DRIFT)} (it holds CHANGELOG.md and README.md).`,
    NOW_END,
  ].join('\n');
}

/** Whether two now tables say the same: every row exactly, but the VSIX's figures (whole, shared) within VSIX_DRIFT. */
function sameTable(committed, measured, vsix) {
  const vsixRows = /^\| VSIX [^|]*\| ([\d,]+) B \|.*$/gm;
  const figures = (table) => [...table.matchAll(vsixRows)].map((m) => Number(m[1].replaceAll(',', '')));
  const was = figures(committed);
  const now = figures(measured);
  if (was.length !== now.length || was.some((figure, i) => Math.abs(figure - now[i]) > vsix * VSIX_DRIFT)) return false;
  const blank = (table) => table.replace(vsixRows, '| VSIX |');
  return blank(committed) === blank(measured);
}

/**
 * Writes the now table into docs/performance.md (`check`: only compares). Returns 'same', 'written' or 'stale', or
 * 'missing' when the document has no markers.
 */
function syncNowTable(table, vsix, { check }) {
  const doc = fs.readFileSync(DOC, 'utf8');
  const start = doc.indexOf(NOW_START);
  const end = doc.indexOf(NOW_END);
  if (start < 0 || end < start) return 'missing';
  const committed = doc.slice(start, end + NOW_END.length);
  if (committed === table || (check && sameTable(committed, table, vsix))) return 'same';
  if (check) return 'stale';
  fs.writeFileSync(DOC, doc.slice(0, start) + table + doc.slice(end + NOW_END.length));
  return 'written';
}

function main() {
  const noBuild = process.argv.includes('--no-build');
  const check = process.argv.includes('--check');
  const vsixAt = process.argv.indexOf('--vsix');
  const vsixFile = vsixAt > 0 ? process.argv[vsixAt + 1] : undefined;
  if (vsixAt > 0 && (!vsixFile || !fs.existsSync(vsixFile))) {
    console.error(`--vsix needs a VSIX file${vsixFile ? ` (no ${vsixFile})` : ''}`);
    process.exit(2);
  }
  const { bundle, chunks, required, webBundle, webChunks, webRequired, vsix } = measure({ noBuild, vsixFile });
  const sum = (sizes) => Object.values(sizes).reduce((total, n) => total + n, 0);
  const copies = copiedBytes();
  const timeline = { ...timelineBytes(), deflated: timelineDeflated() };
  const withChunks = bundle + sum(chunks);
  const team = teamHistoryDeflated();
  const lines = [
    ['dist/extension.js (production, loaded at start)', bundle, BUDGETS.bundle],
    [`  + its ${Object.keys(chunks).length} chunks dist/chunks/*.js (first use)`, withChunks],
    ['dist/web/extension.js (production, browser, at start)', webBundle, BUDGETS.webBundle],
    [`  + its ${Object.keys(webChunks).length} chunk(s) dist/web/chunks/*.js (first use)`, webBundle + sum(webChunks)],
    [`VSIX (vsce package --no-dependencies, ${vsix.files} zip entries)`, vsix.bytes],
    [
      '  of it team History (its chunk, and its modules in the other files), deflated: its own line',
      team,
      BUDGETS.teamHistory,
    ],
    ['  of it the Run Timeline (its page, and its modules), deflated', timeline.deflated],
    ['  the rest (the shared cap)', vsixShared(vsix.bytes), BUDGETS.vsix],
    ['Run Timeline: page + modules in the Node build', timeline.page + timeline.node, BUDGETS.timelineVsix],
    ['Run Timeline: modules in the web build', timeline.web, BUDGETS.timelineWeb],
  ];
  console.log(`size budgets${noBuild ? ' (dist/ as found, --no-build)' : ''}`);
  let over = false;
  for (const [name, bytes, budget] of lines) {
    if (budget === undefined) {
      console.log(
        `  ${name.padEnd(52)} ${fmt(bytes).padStart(9)} bytes  ${kb(bytes).padStart(9)}   (no budget of its own)`,
      );
      continue;
    }
    const ok = bytes <= budget;
    over ||= !ok;
    const verdict = ok
      ? `ok (${Math.round((bytes / budget) * 100)} % of budget)`
      : `OVER BUDGET by ${fmt(bytes - budget)} bytes`;
    console.log(
      `  ${name.padEnd(52)} ${fmt(bytes).padStart(9)} bytes  ${kb(bytes).padStart(9)}   budget ${fmt(budget).padStart(7)} bytes (${kb(budget)})   ${verdict}`,
    );
  }
  // the Run Timeline costs a start nothing: none of its modules is in a start bundle
  if (timeline.atStart > 0) {
    console.log(`  the start bundles hold ${fmt(timeline.atStart)} bytes of src/timeline/: load it on request`);
    over = true;
  } else console.log('  the start bundles hold nothing of src/timeline/ (it loads on request)');
  // copied bytes: modules in two or more files of the Node build
  const copiedOk = copies.share <= BUDGETS.copiedShare;
  over ||= !copiedOk;
  console.log(
    `  copied in the Node build (modules in 2+ files)  ${fmt(copies.copied).padStart(9)} bytes of ${fmt(copies.ours)} of our code: ${percent(copies.share)}   budget ${percent(BUDGETS.copiedShare)}   ${copiedOk ? 'ok' : 'OVER BUDGET'}`,
  );
  for (const m of copies.modules.slice(0, 10))
    console.log(`    ${m.input}: ${fmt(m.copied)} bytes copied (${m.files.length} files: ${m.files.join(', ')})`);
  // every chunk required is built and packaged: a missing one would fail only when its feature is first used
  const missing = required.filter(
    (chunk) => !fs.existsSync(path.join(REPO_ROOT, chunk)) || !vsix.names.includes(`extension/${chunk}`),
  );
  // …and every chunk built is reached from the bundle: one that is not would be a chunk this check cannot see
  const unreached = Object.keys(chunks)
    .map((name) => `dist/chunks/${name}`)
    .filter((chunk) => !required.includes(chunk));
  if (unreached.length) {
    console.log(`  built but not reached from dist/extension.js by require(): ${unreached.join(', ')}`);
    over = true;
  }
  // …and likewise for the web bundle's chunks
  const webMissing = webRequired.filter(
    (chunk) => !fs.existsSync(path.join(REPO_ROOT, chunk)) || !vsix.names.includes(`extension/${chunk}`),
  );
  const webUnreached = Object.keys(webChunks)
    .map((name) => `dist/web/chunks/${name}`)
    .filter((chunk) => !webRequired.includes(chunk));
  if (webRequired.length === 0 || webMissing.length || webUnreached.length) {
    console.log(
      `  web chunks: loaded by dist/web/extension.js ${webRequired.join(', ') || 'none (is it the split build of esbuild.js?)'}; MISSING from dist/ or the VSIX: ${webMissing.join(', ') || 'none'}; built but not loaded: ${webUnreached.join(', ') || 'none'}`,
    );
    over = true;
  } else {
    console.log(
      `  the VSIX holds every web chunk loaded (${webRequired.length}: ${webRequired.map((c) => path.basename(c, '.js')).join(', ')})`,
    );
  }
  if (required.length === 0) {
    console.log('  dist/extension.js requires no chunk (dist/chunks): is it the build in layers of esbuild.js?');
    over = true;
  } else if (missing.length) {
    console.log(`  MISSING from dist/ or the VSIX (.vscodeignore): ${missing.join(', ')}`);
    over = true;
  } else {
    console.log(
      `  the VSIX holds every chunk required (${required.length}: ${required.map((c) => path.basename(c, '.js')).join(', ')})`,
    );
  }
  // A regular expression literal with Unicode property escapes costs V8 about 0.4 ms when it compiles the bundle, used
  // or not (src/base/lazyRegExp.ts): none in what a start loads.
  const propertyEscapes = propertyEscapeLiterals(fs.readFileSync(BUNDLE, 'utf8'));
  if (propertyEscapes.length) {
    console.log(
      `  dist/extension.js holds ${propertyEscapes.length} regular expression literal(s) with \\p{…} (${propertyEscapes.join(', ')}): make them with lazyRegExp (src/base/lazyRegExp.ts)`,
    );
    over = true;
  } else console.log('  dist/extension.js holds no regular expression literal with \\p{…} (compiled at start)');
  if (vsix.bytes > BUDGETS.vsix) {
    console.log('  the VSIX contains (uncompressed, by top-level entry; set what ships in .vscodeignore):');
    for (const [entry, bytes] of vsixContents(vsix.entries).slice(0, 15))
      console.log(`    ${entry.padEnd(30)} ${kb(bytes).padStart(10)}`);
  }
  const table = nowTable(nowRows({ bundle, chunks, webBundle, vsix: vsix.bytes, copies, team, timeline }));
  const synced = syncNowTable(table, vsix.bytes, { check });
  if (synced === 'missing') {
    console.log(`  docs/performance.md has no now table (between ${NOW_START} and ${NOW_END})`);
    over = true;
  } else if (synced === 'stale') {
    console.log(
      '  docs/performance.md: its now table is not what was measured: run `npm run check:budgets` and commit it',
    );
    over = true;
  } else
    console.log(
      `  docs/performance.md: the now table ${synced === 'written' ? 'written anew' : 'is what was measured'}`,
    );
  return over ? 1 : 0;
}

/**
 * The `\\p{…}` of regular expression literals in a bundle's text: a single backslash before `p{` (in a string, as
 * lazyRegExp's source, it is written `\\\\p{`). Returns each one with a little context.
 */
export function propertyEscapeLiterals(text) {
  const found = [];
  for (const m of text.matchAll(/(?<!\\)\\p\{[^}]*\}/g))
    found.push(text.slice(Math.max(0, m.index - 8), m.index + m[0].length));
  return found;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    process.exit(main());
  } catch (error) {
    console.error(`check-budgets: ${error?.message ?? error}`);
    process.exit(2);
  }
}
