import * as assert from 'node:assert/strict';
import { isTargetExists } from '../../../src/export/exportRun';
import { isTooLarge, wholeFileSink, type WholeFilePort } from '../../../src/export/wholeFile';

/** A file system of one target and its temporary file, in memory. */
function memoryFiles(target?: string) {
  const state: { target?: string; temporary?: string; writes: number } = { target, writes: 0 };
  const port: WholeFilePort = {
    exists: async () => state.target !== undefined,
    writeTemporary: async (bytes) => {
      state.writes++;
      state.temporary = new TextDecoder().decode(bytes);
    },
    renameToTarget: async () => {
      state.target = state.temporary;
      state.temporary = undefined;
    },
    removeTemporary: async () => {
      state.temporary = undefined;
    },
  };
  return { state, port };
}

describe('Export History through a file system that cannot append (workspace.fs)', () => {
  it('writes the file whole at the commit, through a temporary file', async () => {
    const { state, port } = memoryFiles();
    const sink = wholeFileSink(port, false, 1_000);
    await sink.write('a,b\r\n');
    await sink.write('é\r\n');
    assert.equal(state.writes, 0, 'nothing written before the commit');
    await sink.commit();
    assert.deepEqual(state, { target: 'a,b\r\né\r\n', temporary: undefined, writes: 1 });
  });

  it('not replacing: refuses an existing target', async () => {
    const { state, port } = memoryFiles('mine');
    const sink = wholeFileSink(port, false, 1_000);
    await sink.write('x');
    await assert.rejects(sink.commit(), (e) => isTargetExists(e));
    assert.equal(state.target, 'mine');
  });

  it('holds at most its bound: a write past it is refused (tooLarge) and nothing is written', async () => {
    const { state, port } = memoryFiles();
    const sink = wholeFileSink(port, true, 1_000);
    await sink.write('x'.repeat(600));
    await sink.write('é'.repeat(200)); // 400 bytes: 1,000 in all, still within
    await assert.rejects(sink.write('y'), (e) => isTooLarge(e) && (e as { tooLarge: number }).tooLarge === 1_000);
    await sink.abort();
    assert.equal(state.target, undefined);
    assert.equal(state.temporary, undefined);
    assert.equal(state.writes, 0, 'no file written');
  });

  it('the default bound is 32 MB', async () => {
    const { port } = memoryFiles();
    const sink = wholeFileSink(port, true);
    const mb = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 32; i++) await sink.write(mb);
    await assert.rejects(sink.write('x'), (e) => isTooLarge(e));
  });
});
