#!/usr/bin/env node
// Sums the V8 CPU profiles that `node bench/activation.mjs --cpu-profile DIR` wrote (DIR/start-*.cpuprofile): where a
// start's code load and activate() spent their time, as self time per source module of ours (through the source map
// DIR/extension.js.map of the minified bundle), per VS Code / Node file, and per V8 bucket ((program), (garbage
// collector): compiling and parsing show as (program) or as Node's wrapSafe). Medians would hide where the time went,
// so it prints the mean over the starts.
//
//   node bench/lib/cpuProfile.mjs DIR [--top 30]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: opts, positionals } = parseArgs({
  options: { top: { type: 'string', default: '30' } },
  allowPositionals: true,
});
const dir = positionals[0];
if (!dir) {
  console.error('usage: node bench/lib/cpuProfile.mjs DIR');
  process.exit(2);
}
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
if (!files.length) {
  console.error(`no .cpuprofile in ${dir}`);
  process.exit(1);
}
const lookup = sourceLookup(path.join(dir, 'extension.js.map'));

const byModule = new Map();
const byFunction = new Map();
// What our code costs including what it calls (VS Code's API, Node): a sample counts for the innermost frame of ours on
// its stack (the bundle's top level while it loads counts as the module whose code ran).
const oursInclusive = new Map();
let oursTotal = 0;
let total = 0;
for (const file of files) {
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i + 1] ?? 0; // a sample's delta is the time until the next one
    const frame = nodes.get(id).callFrame;
    const where = placeOf(frame);
    total += us;
    for (let at = id; at !== undefined; at = parents.get(at)) {
      const place = placeOf(nodes.get(at).callFrame);
      if (place.startsWith('src/') || place === 'dist/extension.js') {
        const key = place === where ? place : `${place} -> ${where}`;
        oursInclusive.set(key, (oursInclusive.get(key) ?? 0) + us);
        oursTotal += us;
        break;
      }
    }
    byModule.set(where, (byModule.get(where) ?? 0) + us);
    const fn = `${frame.functionName || '(anonymous)'}  ${where}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  });
}

const perStart = (us) => (us / 1000 / files.length).toFixed(2).padStart(7);
const top = Number(opts.top);
console.log(`${files.length} starts, ${perStart(total)} ms sampled per start (code load + activate(), self time)\n`);
console.log('by module or file');
for (const [k, us] of [...byModule].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${perStart(us)} ms  ${k}`);
console.log(
  `\nours, including what it called: ${perStart(oursTotal).trim()} ms a start (innermost frame of ours -> where the time went)`,
);
for (const [k, us] of [...oursInclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${perStart(us)} ms  ${k}`);
console.log('\nby function');
for (const [k, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${perStart(us)} ms  ${k}`);

function placeOf(frame) {
  const url = frame.url ?? '';
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  // Ours is the copy bench/activation.mjs made; other extensions (VS Code's built-in ones) have a dist/extension.js too.
  if (/\/flowsync-bench-ext-[^/]+\/dist\/extension\.js$/.test(url))
    return lookup(frame.lineNumber, frame.columnNumber) ?? 'dist/extension.js';
  if (url.endsWith('/dist/extension.js'))
    return `${url.split('/').slice(-3, -2)[0]}/dist/extension.js (another extension)`;
  if (url.startsWith('node:')) return url;
  return path.basename(url);
}

/** (line, column) of the minified bundle (0-based) -> its source file, from the source map's mappings. */
function sourceLookup(mapFile) {
  if (!fs.existsSync(mapFile)) return () => undefined;
  const map = JSON.parse(fs.readFileSync(mapFile, 'utf8'));
  const lines = decodeMappings(map.mappings);
  return (line, column) => {
    const segments = lines[line];
    if (!segments?.length) return undefined;
    let lo = 0;
    let hi = segments.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (segments[mid][0] <= column) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const source = best >= 0 ? map.sources[segments[best][1]] : undefined;
    return source?.replace(/^(\.\.\/)+/, '');
  };
}

/** Source map v3 mappings -> per generated line, [column, sourceIndex] segments in column order. */
function decodeMappings(mappings) {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const lines = [];
  let source = 0;
  for (const lineText of mappings.split(';')) {
    const segments = [];
    let column = 0;
    for (const segment of lineText.split(',')) {
      if (!segment) continue;
      const values = [];
      let value = 0;
      let shift = 0;
      for (const ch of segment) {
        const digit = chars.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0];
      if (values.length > 1) {
        source += values[1];
        segments.push([column, source]);
      }
    }
    lines.push(segments);
  }
  return lines;
}
