import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodePlatform } from '../../../../src/env/node/platform';

describe("the Node platform's files (node:fs: History's logs, the shared files)", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-disk-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the files append, read, list and delete on the disk, as nodeFiles does', async () => {
    const files = nodePlatform.files!(dir);
    assert.equal(typeof files.append, 'function', 'the store must know at once that it can append');
    await files.mkdir('o');
    await files.append!('o/a.log', new TextEncoder().encode('one\n'));
    await files.append!('o/a.log', new TextEncoder().encode('two\n'));
    assert.equal(new TextDecoder().decode(await files.read('o/a.log', 0, 100)), 'one\ntwo\n');
    assert.deepEqual(
      (await files.list('o')).map((f) => [f.name, f.size]),
      [['a.log', 8]],
    );
    await files.delete('o');
    assert.equal(fs.existsSync(path.join(dir, 'o')), false);
  });

  it('the shared files are replaced whole and read within their cap, and a link is refused', async () => {
    const file = path.join(dir, 'lease.json');
    const files = nodePlatform.files!(dir);
    await files.replace('lease.json', new TextEncoder().encode('{"a":1}'));
    assert.equal(new TextDecoder().decode((await files.readCapped('lease.json', 100)) as Uint8Array), '{"a":1}');
    assert.equal(await files.readCapped('lease.json', 3), 'tooLarge');
    assert.equal(await files.readCapped('none.json', 100), undefined);
    fs.symlinkSync(file, path.join(dir, 'link.json'));
    await assert.rejects(files.readCapped('link.json', 100));
  });
});
