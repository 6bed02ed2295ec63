import * as assert from 'node:assert/strict';
import { onFirstUse } from '../../../src/base/onFirstUse';
import { storeFilesOnFirstUse } from '../../../src/env/storeFilesOnFirstUse';
import type { Files } from '../../../src/env/types';

/** Files that record each call (method and arguments) and answer with its name. */
function recordingFiles(withAppend: boolean) {
  const calls: string[] = [];
  const note =
    (name: string) =>
    async (...args: unknown[]) =>
      void calls.push(
        `${name}(${args.map((a) => (a instanceof Uint8Array ? `${a.length} bytes` : String(a))).join(', ')})`,
      );
  const files: Files = {
    list: async (dir) => (calls.push(`list(${dir})`), [{ name: 'a.log', size: 1, mtime: 2 }]),
    stat: async (path) => (calls.push(`stat(${path})`), undefined),
    read: async (path, from, length) => (calls.push(`read(${path}, ${from}, ${length})`), new Uint8Array(length)),
    readCapped: async (path, maxBytes) => (calls.push(`readCapped(${path}, ${maxBytes})`), undefined),
    replace: note('replace'),
    ...(withAppend ? { append: note('append') } : {}),
    rename: note('rename'),
    delete: note('delete'),
    mkdir: note('mkdir'),
  };
  return { files, calls };
}

describe('storeFilesOnFirstUse (History files whose code is loaded on the first call)', () => {
  it('loads nothing until the first call, then once; every method reaches the loaded files with its arguments', async () => {
    const { files, calls } = recordingFiles(true);
    let loads = 0;
    const lazy = storeFilesOnFirstUse(
      onFirstUse(async () => (loads++, files)),
      { append: true },
    );
    assert.equal(loads, 0);
    const [listed] = await Promise.all([lazy.list('o'), lazy.stat('o/a.log'), lazy.mkdir('o')]);
    assert.deepEqual(listed, [{ name: 'a.log', size: 1, mtime: 2 }]);
    assert.equal((await lazy.read('o/a.log', 4, 3)).length, 3);
    await lazy.replace('o/b.log', new Uint8Array(2));
    await lazy.append!('o/b.log', new Uint8Array(5));
    await lazy.rename('o/b.log', 'o/c.log');
    await lazy.delete('o/c.log');
    await lazy.delete('o');
    assert.equal(await lazy.readCapped('o/a.log', 9), undefined);
    assert.equal(loads, 1, 'loaded once, though three calls came before it was loaded');
    assert.deepEqual(calls, [
      'list(o)',
      'stat(o/a.log)',
      'mkdir(o)',
      'read(o/a.log, 4, 3)',
      'replace(o/b.log, 2 bytes)',
      'append(o/b.log, 5 bytes)',
      'rename(o/b.log, o/c.log)',
      'delete(o/c.log)',
      'delete(o)',
      'readCapped(o/a.log, 9)',
    ]);
  });

  it('says whether it can append before anything is loaded, as the store asks (the files of vscode.workspace.fs cannot)', async () => {
    const { files } = recordingFiles(false);
    const lazy = storeFilesOnFirstUse(
      onFirstUse(async () => files),
      { append: false },
    );
    assert.equal(lazy.append, undefined);
    const declared = storeFilesOnFirstUse(
      onFirstUse(async () => files),
      { append: true },
    );
    await assert.rejects(declared.append!('x', new Uint8Array(1)), /cannot be appended/);
  });

  it('a failed load fails the call (the store handles it as a failed read or write); the next call tries once more, as every onFirstUse does, never in a loop', async () => {
    let loads = 0;
    const lazy = storeFilesOnFirstUse(
      onFirstUse(async () => {
        loads++;
        throw new Error('chunk missing');
      }),
      { append: true },
    );
    await assert.rejects(lazy.list('o'), /chunk missing/);
    assert.equal(loads, 1, 'one call, one load');
    await assert.rejects(lazy.replace('o/a', new Uint8Array(1)), /chunk missing/);
    assert.equal(loads, 2, 'the next call, one more load (src/base/onFirstUse.ts: a failed load is tried again)');
  });
});
