/**
 * The web bundle's chunks read at the extension's URI (src/env/vscode/webChunks.ts), in plain Node with a stand-in for
 * the `vscode` module (extensions.getExtension, Uri.joinPath) and for the global fetch, which VS Code's web worker
 * extension host patches to read `file:` and `vscode-remote:` URIs as the browser's URL.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

// Compiled to out/test/unit/env/vscode/: the repository root is five levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { useVscode } = require(
  path.join(root, 'test', 'unit', 'helpers', 'vscodeStandIn.js'),
) as typeof import('../../helpers/vscodeStandIn');

const STAND_IN = 'vscode-stand-in-webChunks';
const ID = 'flowsync-tools.flowsync-explorer';

interface FakeUri {
  path: string;
  toString(): string;
}
const uri = (at: string): FakeUri => ({ path: at, toString: () => `vscode-remote://host${at}` });

describe('web chunks: read beside the web bundle at the extension URI, by fetch (src/env/vscode/webChunks.ts)', () => {
  let installed: Map<string, { extensionUri: FakeUri }>;
  let answers: Map<string, { status: number; statusText: string; text: string }>;
  let fetched: string[];
  let webChunks: typeof import('../../../../src/env/vscode/webChunks').webChunks;
  let stopUsing: () => void;
  const realFetch = globalThis.fetch;

  before(() => {
    stopUsing = useVscode(
      {
        extensions: { getExtension: (id: string) => installed.get(id) },
        Uri: { joinPath: (base: FakeUri, ...names: string[]) => uri(path.posix.join(base.path, ...names)) },
      },
      STAND_IN,
    );
    type Module = typeof import('../../../../src/env/vscode/webChunks');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the 'vscode' stand-in is in place
    ({ webChunks } = require('../../../../src/env/vscode/webChunks') as Module);
    globalThis.fetch = (async (url: string) => {
      fetched.push(url);
      const answer = answers.get(url) ?? { status: 404, statusText: 'Not Found', text: '' };
      return { ok: answer.status === 200, ...answer, text: async () => answer.text };
    }) as unknown as typeof fetch;
  });
  after(() => {
    stopUsing();
    globalThis.fetch = realFetch;
  });
  beforeEach(() => {
    installed = new Map([[ID, { extensionUri: uri('/ext/flowsync') }]]);
    answers = new Map();
    fetched = [];
  });

  const CHUNK = 'vscode-remote://host/ext/flowsync/dist/web/chunks/actions.js';

  it("fetches dist/web/<file> at the extension's URI and runs it", async () => {
    answers.set(CHUNK, { status: 200, statusText: 'OK', text: 'exports.from = "actions";' });
    const load = webChunks(
      ID,
      () => undefined,
      () => [],
    );
    assert.equal((await load('./chunks/actions.js')).from, 'actions');
    assert.deepEqual(fetched, [CHUNK]);
  });

  it("answers the chunk's require: ../extension.js is the bundle's shared modules, anything else VS Code's require", async () => {
    answers.set(CHUNK, {
      status: 200,
      statusText: 'OK',
      text: 'exports.seen = [require("../extension.js")[1], require("vscode")];',
    });
    const asked: string[] = [];
    const load = webChunks(
      ID,
      (id) => {
        asked.push(id);
        return { api: id };
      },
      () => ['zero', 'one'],
    );
    assert.deepEqual((await load('./chunks/actions.js')).seen, ['one', { api: 'vscode' }]);
    assert.deepEqual(asked, ['vscode']);
  });

  it('a chunk that is not there (404) fails with its URL and status, and is fetched again on the next use', async () => {
    const load = webChunks(
      ID,
      () => undefined,
      () => [],
    );
    await assert.rejects(load('./chunks/actions.js'), new RegExp(`${CHUNK}: 404 Not Found`));
    answers.set(CHUNK, { status: 200, statusText: 'OK', text: 'exports.ok = true;' });
    assert.equal((await load('./chunks/actions.js')).ok, true);
    assert.deepEqual(fetched, [CHUNK, CHUNK]);
  });

  it('fails, fetching nothing, when VS Code does not know the extension', async () => {
    installed.clear();
    await assert.rejects(
      webChunks(
        ID,
        () => undefined,
        () => [],
      )('./chunks/actions.js'),
      /not installed/,
    );
    assert.deepEqual(fetched, []);
  });
});
