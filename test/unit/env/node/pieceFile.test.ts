import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodePieceFile } from '../../../../src/env/node/pieceFile';
import { isTargetExists } from '../../../../src/export/exportRun';

describe('node piece file: an export written to a temporary file, then renamed', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'flowsync-export-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('the pieces reach the target only on commit; nothing else is left in the folder', async () => {
    const target = path.join(dir, 'history.csv');
    const file = await nodePieceFile(target, false);
    await file.write('a,b\r\n');
    await file.write('1,ü\r\n');
    assert.deepEqual(
      await fs.readdir(dir).then((names) => names.includes('history.csv')),
      false,
      'no target before the commit',
    );
    await file.commit();
    assert.equal(await fs.readFile(target, 'utf8'), 'a,b\r\n1,ü\r\n');
    assert.deepEqual(await fs.readdir(dir), ['history.csv']);
  });

  it('abort leaves no file, and an existing target as it was', async () => {
    const target = path.join(dir, 'history.csv');
    await fs.writeFile(target, 'before');
    const file = await nodePieceFile(target, true);
    await file.write('half an export');
    await file.abort();
    assert.deepEqual(await fs.readdir(dir), ['history.csv']);
    assert.equal(await fs.readFile(target, 'utf8'), 'before');
  });

  it('not replacing: commit refuses an existing target (EEXIST), which stays as it was; replacing: it is replaced', async () => {
    const target = path.join(dir, 'history.jsonl');
    await fs.writeFile(target, 'before');
    const refused = await nodePieceFile(target, false);
    await refused.write('{}\n');
    await assert.rejects(refused.commit(), (e) => isTargetExists(e));
    await refused.abort();
    assert.equal(await fs.readFile(target, 'utf8'), 'before');
    assert.deepEqual(await fs.readdir(dir), ['history.jsonl']);
    const replacing = await nodePieceFile(target, true);
    await replacing.write('{}\n');
    await replacing.commit();
    assert.equal(await fs.readFile(target, 'utf8'), '{}\n');
  });
});
