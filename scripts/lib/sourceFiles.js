// Reading the repository's sources, shared by the scripts (ES modules: `import { … } from './lib/sourceFiles.js'`)
// and the tests (TypeScript compiled to CommonJS under out/, which load this file by its path in the repository; see
// test/unit/repo/l10n.test.ts). Plain CommonJS so that both can use it without a build step; types in sourceFiles.d.ts.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** Every file under `dir` (recursively) whose path `keep` accepts, as absolute paths, sorted; [] when `dir` is missing. */
function listFiles(dir, keep = () => true) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.resolve(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full, keep));
    else if (entry.isFile() && keep(full)) out.push(full);
  }
  return out.sort();
}

/** The TypeScript sources under `dir`: .ts files, not .d.ts. */
function listSources(dir) {
  return listFiles(dir, (file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
}

/**
 * Replaces // and /* comments with spaces, keeping line breaks (so line numbers stay right); the contents of strings
 * and templates are left alone, so a "//" inside a string is not taken for a comment.
 */
function stripComments(source) {
  return source.replace(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:[^'\\\n]|\\[\s\S])*'|"(?:[^"\\\n]|\\[\s\S])*"|`(?:[^`\\]|\\[\s\S])*`/g,
    (m) => (m.startsWith('/*') || m.startsWith('//') ? m.replace(/[^\n]/g, ' ') : m),
  );
}

module.exports = { listSources, stripComments };
