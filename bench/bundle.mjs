#!/usr/bin/env node
// Bundle and package sizes: the production dist/extension.js (node esbuild.js --production; its eager part), what each
// package puts in it (dist/meta.json, esbuild's bytesInOutput per input, summed per package), and the VSIX that
// `vsce package --no-dependencies` produces from the repo as it is. Builds and packages BUILDS times: sizes should be
// identical every time (min = max shows the build is deterministic).
import fs from 'node:fs';
import path from 'node:path';
import { BUDGETS, copiedBytes, measure, vsixShared } from '../scripts/check-budgets.mjs';
import { REPO_ROOT, emitRows, progress, row } from './lib/common.mjs';

const BUILDS = 3;
const say = (m) => progress('bundle', m);

/** Bytes in dist/extension.js per package (node_modules/<pkg>, innermost) or per own top-level folder (src/). */
function contributions() {
  const meta = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'dist', 'meta.json'), 'utf8'));
  const output = meta.outputs['dist/extension.js'];
  const byPackage = new Map();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const packages = input.match(/node_modules\/(@[^/]+\/)?[^/]+/g);
    const key = packages ? packages.at(-1).slice('node_modules/'.length) : `${input.split('/')[0]}/ (own code)`;
    byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput);
  }
  const attributed = [...byPackage.values()].reduce((a, b) => a + b, 0);
  byPackage.set('(esbuild module wrappers, unattributed)', output.bytes - attributed);
  return byPackage;
}

const bundle = [];
const webBundle = [];
const withChunks = [];
const vsix = [];
const vsixOfSharedCap = [];
const copied = [];
const atMost = (bytes) => ({ max: bytes, text: `<= ${bytes.toLocaleString('en-US')} B` }); // the CI budgets (scripts/check-budgets.mjs)
const parts = new Map();
for (let i = 1; i <= BUILDS; i++) {
  const measured = measure(); // production build + VSIX, checked to hold that very bundle
  bundle.push(measured.bundle);
  withChunks.push(measured.bundle + Object.values(measured.chunks).reduce((sum, n) => sum + n, 0));
  webBundle.push(measured.webBundle);
  for (const [name, bytes] of contributions()) parts.set(name, [...(parts.get(name) ?? []), bytes]);
  vsix.push(measured.vsix.bytes);
  vsixOfSharedCap.push(vsixShared(measured.vsix.bytes));
  copied.push(copiedBytes().share * 100);
  say(
    `build ${i}/${BUILDS}: dist/extension.js ${measured.bundle} bytes, VSIX ${measured.vsix.bytes} bytes (${measured.vsix.files} zip entries)`,
  );
}
const rows = [
  row('bundle', 'dist/extension.js (production)', 'B', bundle, {
    target: atMost(BUDGETS.bundle),
    note: 'the eager part, loaded at start',
  }),
  ...[...parts]
    .sort((a, b) => b[1][0] - a[1][0])
    .map(([name, samples]) => row('bundle', `  from ${name}`, 'B', samples)),
  row('bundle', 'dist/extension.js + its chunks dist/chunks/*.js (on first use)', 'B', withChunks, {
    note: 'every module in one file: a chunk takes what the files below it hold from them (scripts/lib/layers.js)',
  }),
  row('bundle', 'copied into 2+ files of the Node build, share of our code', '%', copied, {
    target: { max: BUDGETS.copiedShare * 100, text: `<= ${BUDGETS.copiedShare * 100} %` },
  }),
  row('bundle', 'dist/web/extension.js (production, browser)', 'B', webBundle, { target: atMost(BUDGETS.webBundle) }),
  row('bundle', 'VSIX (vsce package --no-dependencies)', 'B', vsix, {
    note: 'team History and the Run Timeline have lines of their own in npm run check:budgets',
  }),
  row('bundle', '  without the features of their own lines (the shared cap)', 'B', vsixOfSharedCap, {
    target: atMost(BUDGETS.vsix),
  }),
];
emitRows(rows);
