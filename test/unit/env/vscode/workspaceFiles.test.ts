/**
 * The storage port through vscode.workspace.fs (the browser, a global storage not on a local disk), in plain Node with
 * a stand-in for the `vscode` module: only what workspaceFiles uses (workspace.fs over a map, Uri.joinPath, FileType,
 * FileSystemError). workspace.fs has no ranged read: a file is read whole, so its size bounds every read.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Files } from '../../../../src/env/types';

// Compiled to out/test/unit/env/vscode/: the repository root is five levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { useVscode } = require(
  path.join(root, 'test', 'unit', 'helpers', 'vscodeStandIn.js'),
) as typeof import('../../helpers/vscodeStandIn');

const STAND_IN = 'vscode-stand-in-workspaceFiles';
const FILE = 1;
const DIRECTORY = 2;

class FileSystemError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** A file system of paths to bytes; `size` overrides what stat says (a file that grows, or a huge one not in memory). */
class FakeFs {
  readonly files = new Map<string, Uint8Array>();
  readonly size = new Map<string, number>();
  /** Runs after stat and before readFile (the file changes in between). */
  betweenStatAndRead: (path: string) => void = () => undefined;
  readonly reads: string[] = [];

  async stat(uri: { path: string }) {
    const bytes = this.files.get(uri.path);
    if (!bytes) throw new FileSystemError(uri.path, 'FileNotFound');
    return { type: FILE, size: this.size.get(uri.path) ?? bytes.length, mtime: 0, ctime: 0 };
  }

  async readFile(uri: { path: string }) {
    this.betweenStatAndRead(uri.path);
    this.reads.push(uri.path);
    const bytes = this.files.get(uri.path);
    if (!bytes) throw new FileSystemError(uri.path, 'FileNotFound');
    return bytes;
  }
}

describe('workspace files: the storage port through vscode.workspace.fs (a stand-in for vscode)', () => {
  let fake: FakeFs;
  let files: Files;
  let workspaceFiles: (root: { path: string }) => Files;
  let stopUsing: () => void;

  before(() => {
    const vscode = {
      workspace: {
        get fs() {
          return fake;
        },
      },
      Uri: { joinPath: (root: { path: string }, ...names: string[]) => ({ path: [root.path, ...names].join('/') }) },
      FileType: { File: FILE, Directory: DIRECTORY },
      FileSystemError,
    };
    stopUsing = useVscode(vscode, STAND_IN);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the 'vscode' stand-in is in place
    ({ workspaceFiles } = require('../../../../src/env/vscode/workspaceFiles') as {
      workspaceFiles: typeof workspaceFiles;
    });
  });
  after(() => {
    stopUsing();
  });
  beforeEach(() => {
    fake = new FakeFs();
    files = workspaceFiles({ path: '/storage' });
  });

  const put = (path: string, text: string) => fake.files.set(`/storage/${path}`, new TextEncoder().encode(text));
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  it('read: the bytes asked for, of a file read whole', async () => {
    put('h/a.log', '0123456789');
    assert.equal(text(await files.read('h/a.log', 2, 5)), '23456');
    assert.equal(text(await files.read('h/a.log', 8, 5)), '89', 'fewer at its end');
  });

  it('read: a file much larger than asked for is refused from its size, without reading it', async () => {
    put('h.cleared', '{"clearedAt":1}');
    fake.size.set('/storage/h.cleared', 1024 * 1024 * 1024); // a gigabyte, as stat says
    await assert.rejects(files.read('h.cleared', 0, 1024), /larger than/);
    assert.deepEqual(fake.reads, [], 'not read');
  });

  it('read: a file that became much larger between its stat and its read is refused after the read', async () => {
    put('h/a.log', 'small');
    fake.betweenStatAndRead = () => put('h/a.log', 'x'.repeat(3 * 1024 * 1024));
    await assert.rejects(files.read('h/a.log', 0, 5), /larger than/);
  });

  it('read: a file that grew a little since it was listed (another window appended) is read', async () => {
    put('h/a.log', '0123456789');
    assert.equal(text(await files.read('h/a.log', 0, 5)), '01234');
  });

  it('readCapped: tooLarge from the size before the read, and from the length after it; undefined when missing', async () => {
    assert.equal(await files.readCapped('lease.json', 10), undefined);
    put('lease.json', '{"a":1}');
    assert.equal(text((await files.readCapped('lease.json', 7)) as Uint8Array), '{"a":1}');
    fake.size.set('/storage/lease.json', 1024 * 1024 * 1024);
    assert.equal(await files.readCapped('lease.json', 100), 'tooLarge');
    assert.deepEqual(fake.reads, ['/storage/lease.json'], 'the gigabyte was not read');
    fake.size.clear();
    fake.betweenStatAndRead = () => put('lease.json', 'x'.repeat(1000));
    assert.equal(await files.readCapped('lease.json', 100), 'tooLarge');
  });
});
