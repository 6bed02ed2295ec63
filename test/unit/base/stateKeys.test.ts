import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { STATE_KEYS } from '../../../src/base/stateKeys';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listSources } = require(
  path.resolve(__dirname, '..', '..', '..', '..', 'scripts', 'lib', 'sourceFiles.js'),
) as typeof import('../../../scripts/lib/sourceFiles');

describe('STATE_KEYS: every memento key in one table (issue #50, item 3)', () => {
  it('each key is its own and in the extension\u2019s namespace', () => {
    const values = Object.values(STATE_KEYS);
    assert.equal(new Set(values).size, values.length, 'no two names for one key');
    for (const value of values) assert.match(value, /^flowsync\.[A-Za-z]+$/);
  });

  it('the table is the only place in src a key is spelled in code (flowsync.knownTeamsByOrigin was written twice)', () => {
    // A quoted string literal; a comment may name a key in backticks.
    // Compiled to out/test/unit/base/: the repository root is four levels up.
    const root = path.resolve(__dirname, '..', '..', '..', '..');
    const spelled = listSources(path.join(root, 'src')).flatMap((file) => {
      if (file.endsWith(path.join('base', 'stateKeys.ts'))) return [];
      const text = fs.readFileSync(file, 'utf8');
      return Object.values(STATE_KEYS)
        .filter((key) => text.includes(`'${key}'`) || text.includes(`"${key}"`))
        .map((key) => `${path.relative(root, file)}: ${key}`);
    });
    assert.deepEqual(spelled, []);
  });
});
