import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listSources, stripComments } = require(
  path.join(root, 'scripts', 'lib', 'sourceFiles.js'),
) as typeof import('../../../scripts/lib/sourceFiles');

/** The one way to follow the set of services (what is set up for each, let go when it leaves). */
const THE_HELPER = 'src/base/serviceSet.ts';

/** A listener on the set of services: `services.onDidChange(`, `this.services.onDidChange(`, `deps.services?.onDidChange(`. */
const FOLLOWS_SERVICES = /\bservices\??\.onDidChange\s*\(/g;

describe('the set of services is followed in one way: eachService (src/base/serviceSet.ts)', () => {
  it('src listens to the set of services only in eachService', () => {
    const found: string[] = [];
    for (const file of listSources(path.join(root, 'src'))) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      const count = stripComments(fs.readFileSync(file, 'utf8')).match(FOLLOWS_SERVICES)?.length ?? 0;
      if (count > 0) found.push(`${rel} (${count})`);
    }
    assert.deepEqual(
      found,
      [`${THE_HELPER} (1)`],
      'follow the services with eachService(services, setup, changed): it sets up each service as it comes and lets ' +
        'go of what it set up when it leaves',
    );
  });
});
