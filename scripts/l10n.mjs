#!/usr/bin/env node
// Writes l10n/bundle.l10n.json, the default-language bundle of run-time strings: every `t('...')` / `t("...")` call in
// src/**/*.ts whose first argument is a string literal becomes a key (value = key), sorted.
//   node scripts/l10n.mjs           write the bundle
//   node scripts/l10n.mjs --check   exit 1 if the bundle is out of date (writes nothing)
//   node scripts/l10n.mjs --stdout  print the bundle the scan produces (test/unit/repo/l10n.test.ts compares it with the file)
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listSources, stripComments } from './lib/sourceFiles.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE = join(root, 'l10n', 'bundle.l10n.json');

/** Decodes the body of a '...' or "..." literal (without the quotes) the way JavaScript does. */
function unescape(body) {
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])/g, (_, esc) => {
    if (esc[0] === 'u') return String.fromCodePoint(parseInt(esc[1] === '{' ? esc.slice(2, -1) : esc.slice(1), 16));
    if (esc[0] === 'x') return String.fromCharCode(parseInt(esc.slice(1), 16));
    const simple = {
      n: '\n',
      r: '\r',
      t: '\t',
      b: '\b',
      f: '\f',
      v: '\v',
      0: '\0',
      '\n': '',
      '\r\n': '',
      '\u2028': '',
      '\u2029': '',
    };
    return esc in simple ? simple[esc] : esc;
  });
}

// `t(` not preceded by an identifier character or `.` (so `list(`, `x.t(` don't match), then a quoted literal.
const CALL = /(?<![\w$.])t\(\s*(?:'((?:[^'\\\n]|\\[\s\S])*)'|"((?:[^"\\\n]|\\[\s\S])*)")/g;

/** The messages of every t('...') call in one source text (commented-out calls are not collected). */
export function scanText(source) {
  const messages = [];
  for (const match of stripComments(source).matchAll(CALL)) messages.push(unescape(match[1] ?? match[2]));
  return messages;
}

/** message → files that use it (relative to the repo root). */
export function scanSources(files = listSources(join(root, 'src'))) {
  const found = new Map();
  for (const file of files) {
    for (const message of scanText(readFileSync(file, 'utf8'))) {
      if (!found.has(message)) found.set(message, new Set());
      found.get(message).add(relative(root, file).split('\\').join('/'));
    }
  }
  return found;
}

/** The bundle object: sorted keys, value = key. */
export function buildBundle(found = scanSources()) {
  const keys = [...found.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, k]));
}

export function serialize(bundle) {
  return JSON.stringify(bundle, null, 2) + '\n';
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = serialize(buildBundle());
  const count = Object.keys(JSON.parse(text)).length;
  if (process.argv.includes('--stdout')) {
    process.stdout.write(text);
  } else if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(BUNDLE, 'utf8');
    } catch {
      /* missing counts as stale */
    }
    if (current !== text) {
      console.error('l10n: l10n/bundle.l10n.json is out of date; run `npm run l10n`.');
      process.exit(1);
    }
    console.log(`l10n: bundle up to date (${count} strings)`);
  } else {
    mkdirSync(dirname(BUNDLE), { recursive: true });
    writeFileSync(BUNDLE, text);
    console.log(`l10n: wrote ${relative(root, BUNDLE)} (${count} strings)`);
  }
}
