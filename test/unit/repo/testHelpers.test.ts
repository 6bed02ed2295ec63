import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');

/** The most lines a UI test helper module may have: one module per thing it drives (issue #50, item 6). */
const MAX_HELPER_LINES = 400;

describe('the UI test helpers', () => {
  it(`are split by what they drive, none over ${MAX_HELPER_LINES} lines (test/e2e/*.mjs but the suites)`, () => {
    const dir = path.join(root, 'test', 'e2e');
    const helpers = fs.readdirSync(dir).filter((f) => f.endsWith('.mjs') && !f.endsWith('.test.mjs'));
    assert.ok(helpers.includes('workbench.mjs'), `no workbench.mjs among ${helpers.join(', ')}`);
    const long = helpers
      .map((f) => ({ f, lines: fs.readFileSync(path.join(dir, f), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_HELPER_LINES)
      .map(({ f, lines }) => `${f}: ${lines} lines`);
    assert.deepEqual(long, []);
  });
});
