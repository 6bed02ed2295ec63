#!/usr/bin/env node
// What a chunk (esbuild.js CHUNKS) costs when it is first loaded, and the start bundle's load and activate(). Not a
// section of `npm run bench`: a tool, in plain Node with a stand-in for `vscode` (VS Code's own calls are not timed;
// the code's compile and run are). Each run is a fresh process: the start bundle is required and activated, then (with
// --after) the chunks a moment has loaded before, untimed, then one group of chunks required ('a+b': a, then b); the
// figures are the process's CPU time of each step, median and min of the runs of each group. A chunk loads the chunks
// it is after with it: time it `--after` them to see its own cost.
//
//   node bench/chunkLoad.mjs [--dist DIR] [--runs 21] [--after services] find commands answers
//   (DIR: a production build, default dist/ as it is: run `npm run build` first; copy dist/ aside to compare two builds)
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT, median } from './lib/common.mjs';

const { values: opts, positionals: groups } = parseArgs({
  options: {
    dist: { type: 'string', default: path.join(REPO_ROOT, 'dist') },
    runs: { type: 'string', default: '21' },
    after: { type: 'string' },
  },
  allowPositionals: true,
});
const child = path.join(REPO_ROOT, 'bench', 'chunkLoad', 'child.js');
/** `runs` fresh processes that load `group` (none: only the start bundle), after --after's; each one's figures. */
function measure(group) {
  const figures = [];
  const loads = group ? [...(opts.after ? [opts.after] : []), group] : [];
  for (let i = 0; i < Number(opts.runs); i++) {
    const r = spawnSync(process.execPath, [child, path.resolve(opts.dist), ...loads], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`run ${i + 1} failed:\n${r.stdout}${r.stderr}`);
    figures.push(JSON.parse(r.stdout.trim().split('\n').at(-1)));
  }
  return figures;
}

const show = (name, values) =>
  console.log(`  ${name.padEnd(40)} ${median(values).toFixed(2).padStart(7)} (${Math.min(...values).toFixed(2)})`);
console.log(
  `${opts.runs} fresh processes each, ${path.resolve(opts.dist)}${opts.after ? `, after ${opts.after}` : ''}: CPU ms, median (min)`,
);
const eager = measure(undefined);
show(
  'load (the start bundle)',
  eager.map((r) => r.load),
);
show(
  'activate()',
  eager.map((r) => r.activate),
);
for (const group of groups)
  show(
    group,
    measure(group).map((r) => r[group]),
  );
