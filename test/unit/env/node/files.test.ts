import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { constants, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createExclusive, nodeFiles } from '../../../../src/env/node/files';
import { tempNameFor } from '../../../../src/env/node/tempNameFor';

describe('node files: global storage on the local disk', () => {
  let dir: string;
  /** The files under the test's folder (paths relative to it). */
  const files = () => nodeFiles(dir);
  const posix = process.platform !== 'win32';
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'flowsync-files-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('readCapped: the bytes of a file within the bound, undefined for a missing one, tooLarge for one over it', async () => {
    const file = path.join(dir, 'lease.json');
    assert.equal(await files().readCapped('lease.json', 10), undefined);
    await fs.writeFile(file, '{"a":1}');
    assert.equal(new TextDecoder().decode((await files().readCapped('lease.json', 7)) as Uint8Array), '{"a":1}');
    assert.equal(await files().readCapped('lease.json', 6), 'tooLarge');
  });

  it('readCapped: a file of a gigabyte is refused from its size, without reading it', async () => {
    const file = path.join(dir, 'snapshot.json');
    const handle = await fs.open(file, 'w');
    await handle.truncate(1024 * 1024 * 1024); // sparse: no gigabyte on the disk
    await handle.close();
    const before = process.memoryUsage().arrayBuffers;
    assert.equal(await files().readCapped('snapshot.json', 16 * 1024 * 1024), 'tooLarge');
    assert.ok(process.memoryUsage().arrayBuffers - before < 1024 * 1024, 'nothing of it was read into memory');
  });

  it('readCapped: a symbolic link is not followed', async function () {
    if (!posix) this.skip();
    const secret = path.join(dir, 'secret.txt');
    await fs.writeFile(secret, '{"secret":1}');
    await fs.symlink(secret, path.join(dir, 'lease.json'));
    await assert.rejects(files().readCapped('lease.json', 1000), /ELOOP|EMLINK|symbolic/i);
  });

  it('a FIFO planted at a file is refused at once, never waited on: read, readCapped, append', async function () {
    if (!posix) this.skip();
    const names = ['read.json', 'capped.json', 'append.log'];
    try {
      for (const name of names) execFileSync('mkfifo', [path.join(dir, name)]);
    } catch {
      this.skip(); // no mkfifo here
    }
    // One FIFO each: a reader and a writer of the same FIFO would open each other's end.
    const attempts = [
      files().read('read.json', 0, 100),
      files().readCapped('capped.json', 100),
      files().append!('append.log', new TextEncoder().encode('\n[1]')),
    ];
    let timer: NodeJS.Timeout | undefined;
    // Real time, as a FIFO blocks open() in the system, not on the clock: the refusal takes a few milliseconds.
    const deadline = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still waiting'), 2000)));
    try {
      const outcomes = await Promise.all(
        attempts.map((p) =>
          Promise.race([
            p.then(
              () => 'resolved',
              (e: Error) => `refused: ${e.message}`,
            ),
            deadline,
          ]),
        ),
      );
      assert.deepEqual(
        outcomes.map((o) => /^refused: .*(not a regular file|ENXIO)/.test(o)),
        [true, true, true],
        outcomes.join('\n'),
      );
    } finally {
      clearTimeout(timer);
      // Whatever still waits in open() gets the other end, so nothing is left waiting when the test ends.
      for (const [name, flag] of [
        ['read.json', constants.O_WRONLY],
        ['capped.json', constants.O_WRONLY],
        ['append.log', constants.O_RDONLY],
      ] as const) {
        await fs
          .open(path.join(dir, name), flag | constants.O_NONBLOCK)
          .then((h) => h.close())
          .catch(() => undefined);
      }
      await Promise.allSettled(attempts);
    }
  });

  it('a symbolic link at a folder under the root is not followed: nothing is read, written, listed, moved or deleted through it', async function () {
    if (!posix) this.skip();
    const elsewhere = path.join(dir, 'elsewhere');
    await fs.mkdir(elsewhere);
    await fs.writeFile(path.join(elsewhere, 'secret.json'), '{"secret":1}');
    await fs.symlink(elsewhere, path.join(dir, 'linked'));
    const bytes = new TextEncoder().encode('\n[1]');
    const f = files();
    await assert.rejects(f.readCapped('linked/secret.json', 1000), /symbolic link/);
    await assert.rejects(f.read('linked/secret.json', 0, 1000), /symbolic link/);
    await assert.rejects(f.append!('linked/h2.log', bytes), /symbolic link/);
    await assert.rejects(f.replace('linked/snapshot.json', bytes), /symbolic link/);
    await assert.rejects(f.replace('linked/deeper/snapshot.json', bytes), /symbolic link/);
    await assert.rejects(f.mkdir('linked/deeper'), /symbolic link/);
    await assert.rejects(f.rename('linked/secret.json', 'moved.json'), /symbolic link/);
    await assert.rejects(f.delete('linked/secret.json'), /symbolic link/);
    assert.equal(await f.stat('linked/secret.json'), undefined);
    assert.deepEqual(await f.list('linked'), []);
    assert.deepEqual((await fs.readdir(elsewhere)).sort(), ['secret.json'], 'nothing written, moved or deleted there');
    assert.equal(await fs.readFile(path.join(elsewhere, 'secret.json'), 'utf8'), '{"secret":1}');
    await f.delete('linked'); // the link itself (Clear History deletes a folder): the link goes, not what it points to
    assert.deepEqual(await fs.readdir(elsewhere), ['secret.json']);
    await assert.rejects(fs.lstat(path.join(dir, 'linked')), /ENOENT/);
    await f.replace('linked/snapshot.json', bytes); // a real folder now
    assert.ok((await fs.lstat(path.join(dir, 'linked'))).isDirectory());
  });

  it('temporary names are random (128 bits) and beside the file', () => {
    const target = path.join(dir, 'snapshot.json');
    const names = new Set(Array.from({ length: 100 }, () => tempNameFor(target)));
    assert.equal(names.size, 100);
    for (const name of names) {
      assert.equal(path.dirname(name), dir);
      assert.match(path.basename(name), /^\.snapshot\.json\.[0-9a-f]{32}\.tmp$/);
    }
  });

  it('createExclusive never writes through a symbolic link (or a file) planted at the name', async function () {
    if (!posix) this.skip();
    const victim = path.join(dir, 'victim.txt');
    await fs.writeFile(victim, 'untouched');
    const planted = tempNameFor(path.join(dir, 'snapshot.json'));
    await fs.symlink(victim, planted);
    await assert.rejects(createExclusive(planted, new TextEncoder().encode('attack')), /EEXIST/);
    assert.equal(await fs.readFile(victim, 'utf8'), 'untouched');
    const dangling = `${planted}.2`;
    await fs.symlink(path.join(dir, 'created-through-link'), dangling);
    await assert.rejects(createExclusive(dangling, new TextEncoder().encode('attack')), /EEXIST/);
    await assert.rejects(
      fs.stat(path.join(dir, 'created-through-link')),
      /ENOENT/,
      'a dangling link does not create its target',
    );
  });

  it('replace writes the file whole and leaves no temporary file; a link at the target is replaced, not followed', async function () {
    const target = path.join(dir, 'snapshot.json');
    await files().replace('snapshot.json', new TextEncoder().encode('one'));
    await files().replace('snapshot.json', new TextEncoder().encode('two'));
    assert.equal(await fs.readFile(target, 'utf8'), 'two');
    assert.deepEqual(await fs.readdir(dir), ['snapshot.json']);
    if (!posix) return;
    const victim = path.join(dir, 'victim.txt');
    await fs.writeFile(victim, 'untouched');
    await fs.rm(target);
    await fs.symlink(victim, target);
    await files().replace('snapshot.json', new TextEncoder().encode('three'));
    assert.equal(await fs.readFile(victim, 'utf8'), 'untouched');
    assert.ok((await fs.lstat(target)).isFile());
    assert.equal(await fs.readFile(target, 'utf8'), 'three');
  });
});
