import * as assert from 'node:assert/strict';
import { isTemporaryName, temporaryName, temporaryPath } from '../../../src/env/temporaryName';

describe('temporaryName: the one rule of every file written whole', () => {
  it('is hidden, beside the file, random (128 bits) and ends in .tmp', () => {
    const names = new Set(Array.from({ length: 100 }, () => temporaryName('lease.json')));
    assert.equal(names.size, 100);
    for (const name of names) assert.match(name, /^\.lease\.json\.[0-9a-f]{32}\.tmp$/);
    assert.equal(
      temporaryPath('o/h2-2026-11-22-w.log', 'ab'.repeat(16)),
      `o/.h2-2026-11-22-w.log.${'ab'.repeat(16)}.tmp`,
    );
    assert.equal(temporaryPath('/a/b/export.csv', 'cd'.repeat(16)), `/a/b/.export.csv.${'cd'.repeat(16)}.tmp`);
    assert.equal(temporaryPath('o.cleared', 'ef'.repeat(16)), `.o.cleared.${'ef'.repeat(16)}.tmp`);
  });

  it('recognises its own leftovers, and nothing a store keeps', () => {
    assert.ok(isTemporaryName(temporaryName('snapshot.json')));
    for (const kept of ['h2-2026-11-22-w.log', 's2-2026-11-22.json', 'lease.json', '.hidden', 'x.tmp', '.x.abc.tmp']) {
      assert.equal(isTemporaryName(kept), false, kept);
    }
  });
});
