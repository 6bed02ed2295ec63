#!/usr/bin/env node
// `npm run check:budgets` (a stage of `npm test`): size budgets CI enforces, deterministic and offline.
//   - the production bundle dist/extension.js: at most 200 KB (204,800 bytes); raised from 150 KB in 0.2.0, when History,
//     group and sort, links and the language model tools roughly doubled our own code (node-fetch is about 32 KB of it)
//   - the production web bundle dist/web/extension.js (package.json "browser"): at most 200 KB
//   - the packaged VSIX (vsce package --no-dependencies, built here into a temp dir and deleted): at most 300 KB (it holds
//     both bundles and the chart page)
// Builds the production bundle first (node esbuild.js --production; `--no-build` measures dist/ as it is).
// Prints each size beside its budget; exits 1 when one is over budget, 2 when a size could not be measured.
// Leaves nothing in the repo besides the normal build output in dist/ (gitignored).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE = path.join(REPO_ROOT, 'dist', 'extension.js');
export const WEB_BUNDLE = path.join(REPO_ROOT, 'dist', 'web', 'extension.js');
export const BUDGETS = {
  bundle: 200 * 1024, // 204,800 bytes
  webBundle: 200 * 1024,
  vsix: 300 * 1024, // 307,200 bytes
};
const VSCE = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');

/** `node esbuild.js --production` in the repo; throws with its output on failure. */
export function buildProduction() {
  const r = spawnSync(process.execPath, ['esbuild.js', '--production'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`node esbuild.js --production failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
}

/**
 * Packages the VSIX exactly as `vsce package --no-dependencies` would from the repo as it is (its .vscodeignore, if
 * any), into a fresh temp dir. Runs the locally installed vsce (no npx, no network); the two extra flags only stop vsce
 * from prompting (no repository field, no LICENSE) so it cannot wait on stdin.
 * Returns { bytes, files, bundleBytes } (bundleBytes: uncompressed size of extension/dist/extension.js inside it).
 */
export function packageVsixBytes() {
  if (!fs.existsSync(VSCE)) throw new Error(`${path.relative(REPO_ROOT, VSCE)} is missing: run npm install (@vscode/vsce is a devDependency)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-budget-'));
  try {
    const out = path.join(dir, 'extension.vsix');
    const r = spawnSync(
      process.execPath,
      [VSCE, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out],
      { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
    );
    if (r.status !== 0 || !fs.existsSync(out)) throw new Error(`vsce package failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
    const entries = zipEntries(fs.readFileSync(out));
    return { bytes: fs.statSync(out).size, files: entries.size, bundleBytes: entries.get('extension/dist/extension.js') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
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

/**
 * Builds (unless noBuild) and packages, and checks that the VSIX holds the very bundle measured: on a shared work tree
 * another build (e.g. a development build by the test rig) can rewrite dist/ in between. Retries such a race twice.
 * Returns { bundle, webBundle, vsix }.
 */
export function measure({ noBuild = false } = {}) {
  for (let attempt = 1; ; attempt++) {
    if (!noBuild) buildProduction();
    if (!fs.existsSync(BUNDLE)) throw new Error('dist/extension.js is missing: run npm run build');
    if (!fs.existsSync(WEB_BUNDLE)) throw new Error('dist/web/extension.js is missing: run npm run build');
    const bundle = fs.statSync(BUNDLE).size;
    const webBundle = fs.statSync(WEB_BUNDLE).size;
    const vsix = packageVsixBytes();
    const after = fs.statSync(BUNDLE).size;
    if (vsix.bundleBytes === bundle && after === bundle && fs.statSync(WEB_BUNDLE).size === webBundle) return { bundle, webBundle, vsix };
    const what = vsix.bundleBytes === undefined ? 'the VSIX has no extension/dist/extension.js' : `dist/extension.js changed while packaging (${bundle} bytes built, ${vsix.bundleBytes} bytes packaged, ${after} bytes now): another build running?`;
    if (noBuild || attempt >= 3) throw new Error(what);
    console.log(`  (retrying: ${what})`);
  }
}

/** What vsce would put in the VSIX, summed per top-level entry (uncompressed bytes), largest first. */
export function vsixContents() {
  const r = spawnSync(process.execPath, [VSCE, 'ls', '--no-dependencies'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
  if (r.status !== 0) return [];
  const sizes = new Map();
  for (const file of r.stdout.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const full = path.join(REPO_ROOT, file);
    if (!fs.existsSync(full)) continue;
    const top = file.includes('/') ? `${file.split('/')[0]}/` : file;
    sizes.set(top, (sizes.get(top) ?? 0) + fs.statSync(full).size);
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

const fmt = (n) => n.toLocaleString('en-US');
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

function main() {
  const noBuild = process.argv.includes('--no-build');
  const { bundle, webBundle, vsix } = measure({ noBuild });
  const lines = [
    ['dist/extension.js (production)', bundle, BUDGETS.bundle],
    ['dist/web/extension.js (production, browser)', webBundle, BUDGETS.webBundle],
    [`VSIX (vsce package --no-dependencies, ${vsix.files} zip entries)`, vsix.bytes, BUDGETS.vsix],
  ];
  console.log(`size budgets${noBuild ? ' (dist/ as found, --no-build)' : ''}`);
  let over = false;
  for (const [name, bytes, budget] of lines) {
    const ok = bytes <= budget;
    over ||= !ok;
    const verdict = ok ? `ok (${Math.round((bytes / budget) * 100)} % of budget)` : `OVER BUDGET by ${fmt(bytes - budget)} bytes`;
    console.log(`  ${name.padEnd(52)} ${fmt(bytes).padStart(9)} bytes  ${kb(bytes).padStart(9)}   budget ${fmt(budget).padStart(7)} bytes (${kb(budget)})   ${verdict}`);
  }
  if (vsix.bytes > BUDGETS.vsix) {
    console.log('  the VSIX would contain (uncompressed, by top-level entry; set what ships in .vscodeignore):');
    for (const [entry, bytes] of vsixContents().slice(0, 15)) console.log(`    ${entry.padEnd(30)} ${kb(bytes).padStart(10)}`);
  }
  return over ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    process.exit(main());
  } catch (error) {
    console.error(`check-budgets: ${error?.message ?? error}`);
    process.exit(2);
  }
}
