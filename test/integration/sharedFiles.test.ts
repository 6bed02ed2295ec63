/**
 * The files windows share, in the real extension host (issue 18 item 8): FileSharedStore on a `file` storage URI reads
 * within the bounds of an answer without reading an oversized file, refuses a symbolic link, and writes through a
 * random temporary name that a planted link cannot redirect.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_MAX_BYTES, TOO_LARGE } from '../../src/api/jsonBounds';
import { FileSharedStore } from '../../src/sharing/vscode/fileStore';

describe('shared files in global storage (FileSharedStore)', () => {
  let root: string;
  let store: FileSharedStore;
  const folder = 'processing-0123456789abcdef';
  const fileOf = (name: string) => path.join(root, 'coordination', folder, name);
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'flowsync-shared-'));
    await fs.mkdir(path.join(root, 'coordination', folder), { recursive: true });
    store = new FileSharedStore(vscode.Uri.file(root));
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  it('a snapshot over 16 MB is answered tooLarge (not read); one within the bound is read whole', async () => {
    const handle = await fs.open(fileOf('snapshot.json'), 'w');
    await handle.truncate(DEFAULT_MAX_BYTES + 1);
    await handle.close();
    assert.equal(await store.read(folder, 'snapshot', DEFAULT_MAX_BYTES), TOO_LARGE);
    await store.write(folder, 'snapshot', new TextEncoder().encode('{"v":1}'));
    assert.equal(
      new TextDecoder().decode((await store.read(folder, 'snapshot', DEFAULT_MAX_BYTES)) as Uint8Array),
      '{"v":1}',
    );
    assert.equal(await store.read(folder, 'failure', DEFAULT_MAX_BYTES), undefined, 'a missing file');
  });

  it('a symbolic link planted at a shared file is neither read nor written through', async function () {
    if (process.platform === 'win32') this.skip();
    const victim = path.join(root, 'victim.json');
    await fs.writeFile(victim, '{"secret":1}');
    await fs.symlink(victim, fileOf('lease.json'));
    await assert.rejects(store.read(folder, 'lease', DEFAULT_MAX_BYTES));
    await store.write(folder, 'lease', new TextEncoder().encode('{"v":1}'));
    assert.equal(await fs.readFile(victim, 'utf8'), '{"secret":1}', 'the link was replaced, not followed');
    assert.ok((await fs.lstat(fileOf('lease.json'))).isFile());
    assert.deepEqual(
      await fs.readdir(path.join(root, 'coordination', folder)),
      ['lease.json'],
      'no temporary file is left',
    );
  });
});
