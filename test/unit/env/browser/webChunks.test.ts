/**
 * The web bundle's chunk loader (src/env/browser/webChunks.ts): a chunk's CommonJS text run as VS Code's web worker
 * extension host runs the bundle (new Function(module, exports, require)), once, and read again after a failure.
 * test/rig/run-web.mjs loads the real chunk in a real browser's worker.
 */
import * as assert from 'node:assert/strict';
import { webChunkLoader, type WebChunkHost } from '../../../../src/env/browser/webChunks';

/** A host of files (path -> text, or an Error to fail that read) that counts its reads and lets a test hold them. */
function hostOf(files: Record<string, string | Error>, required: Record<string, unknown> = {}) {
  const reads: string[] = [];
  let hold: Promise<void> = Promise.resolve();
  const host: WebChunkHost = {
    async read(file) {
      reads.push(file);
      await hold;
      const text = files[file];
      if (text === undefined) throw new Error(`no file ${file}`);
      if (text instanceof Error) throw text;
      return { text, url: `https://example.test/ext/dist/web/${file.replace('./', '')}` };
    },
    require(id) {
      if (!(id in required)) throw new Error(`Cannot load module '${id}'`);
      return required[id];
    },
  };
  return {
    host,
    reads,
    holdReads() {
      let release = () => undefined as void;
      hold = new Promise((resolve) => (release = resolve));
      return () => release();
    },
  };
}

describe('web chunks: a chunk of the web bundle, read beside it and run once (src/env/browser/webChunks.ts)', () => {
  it("runs the chunk's CommonJS text and answers its exports", async () => {
    const { host } = hostOf({ './chunks/a.js': 'exports.answer = 42; exports.twice = (n) => 2 * n;' });
    const chunk = await webChunkLoader(host)('./chunks/a.js');
    assert.equal(chunk.answer, 42);
    assert.equal((chunk.twice as (n: number) => number)(4), 8);
  });

  it('answers what the chunk sets as module.exports (as esbuild writes a CommonJS bundle)', async () => {
    const { host } = hostOf({ './chunks/a.js': 'module.exports = { kind: "whole" };' });
    assert.deepEqual(await webChunkLoader(host)('./chunks/a.js'), { kind: 'whole' });
  });

  it("hands the chunk's require() to the host: vscode and the bundle's shared modules", async () => {
    const shared = [{ name: 'l10n' }];
    const vscodeApi = { version: '1.139.1' };
    const { host } = hostOf(
      {
        './chunks/a.js':
          'const api = require("vscode"); const l10n = require("../extension.js")[0]; exports.seen = [api, l10n];',
      },
      { vscode: vscodeApi, '../extension.js': shared },
    );
    const chunk = await webChunkLoader(host)('./chunks/a.js');
    assert.deepEqual(chunk.seen, [vscodeApi, shared[0]]);
    assert.equal((chunk.seen as unknown[])[0], vscodeApi, 'the very object, not a copy');
  });

  it('runs a chunk once: calls before and after its read ends get the same exports from one read', async () => {
    const { host, reads, holdReads } = hostOf({ './chunks/a.js': 'exports.made = {};' });
    const load = webChunkLoader(host);
    const release = holdReads();
    const first = load('./chunks/a.js');
    const second = load('./chunks/a.js');
    release();
    const [a, b] = await Promise.all([first, second]);
    const c = await load('./chunks/a.js');
    assert.equal(a.made, b.made);
    assert.equal(a.made, c.made);
    assert.deepEqual(reads, ['./chunks/a.js']);
  });

  it('keeps each chunk apart: two files, two reads', async () => {
    const { host, reads } = hostOf({ './chunks/a.js': 'exports.n = 1;', './chunks/b.js': 'exports.n = 2;' });
    const load = webChunkLoader(host);
    assert.equal((await load('./chunks/a.js')).n, 1);
    assert.equal((await load('./chunks/b.js')).n, 2);
    assert.deepEqual(reads, ['./chunks/a.js', './chunks/b.js']);
  });

  it('forgets a failed read: the callers waiting get its error, the next call reads again', async () => {
    const files: Record<string, string | Error> = { './chunks/a.js': new Error('offline') };
    const { host, reads } = hostOf(files);
    const load = webChunkLoader(host);
    await Promise.all([
      assert.rejects(load('./chunks/a.js'), /offline/),
      assert.rejects(load('./chunks/a.js'), /offline/),
    ]);
    files['./chunks/a.js'] = 'exports.ok = true;';
    assert.equal((await load('./chunks/a.js')).ok, true);
    assert.deepEqual(reads, ['./chunks/a.js', './chunks/a.js']);
  });

  it('forgets a chunk that failed to run (a syntax error, a throw at its top), naming its URL in the stack', async () => {
    const files: Record<string, string | Error> = { './chunks/a.js': 'exports.x = ;' };
    const { host } = hostOf(files);
    const load = webChunkLoader(host);
    await assert.rejects(load('./chunks/a.js'), SyntaxError);
    files['./chunks/a.js'] = 'function where() { throw new Error("at its top"); }\nwhere();';
    await assert.rejects(load('./chunks/a.js'), (error: Error) => {
      assert.match(error.message, /at its top/);
      assert.match(String(error.stack), /at where \(https:\/\/example\.test\/ext\/dist\/web\/chunks\/a\.js:\d+/);
      return true;
    });
    files['./chunks/a.js'] = 'exports.ok = 1;';
    assert.equal((await load('./chunks/a.js')).ok, 1);
  });

  it("a chunk cannot reach the loader's own variables: it sees module, exports and require only", async () => {
    const { host } = hostOf({
      './chunks/a.js': 'exports.seen = [typeof host, typeof loads, typeof file, typeof box, typeof module];',
    });
    assert.deepEqual((await webChunkLoader(host)('./chunks/a.js')).seen, [
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'object',
    ]);
  });
});
