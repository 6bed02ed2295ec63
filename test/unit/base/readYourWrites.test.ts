import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ReadYourWritesState } from '../../../src/base/readYourWrites';
import { EchoingMemento, settle } from '../helpers/echoingMemento';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listSources } = require(
  path.resolve(__dirname, '..', '..', '..', '..', 'scripts', 'lib', 'sourceFiles.js'),
) as typeof import('../../../scripts/lib/sourceFiles');

/**
 * globalState as VS Code's extension host keeps it (the model: test/unit/helpers/echoingMemento.ts) takes each echo of
 * the workbench whole, so a write made while an earlier write's echo is on its way reads back the older value for a
 * while, or is lost. Watches and pins are such writes: an integration run lost a watch that way (the poll that saw its
 * sync get errors read the watches without it, and nothing was said).
 */
describe('ReadYourWritesState', () => {
  let memento: EchoingMemento;
  let state: ReadYourWritesState;
  beforeEach(() => {
    memento = new EchoingMemento();
    state = new ReadYourWritesState(memento);
  });

  /** Another key written and taken by the workbench: its echo and acknowledgement are on their way to the host. */
  async function earlierWriteOnItsWay(): Promise<void> {
    const teams = state.update('teams', { a: [1] });
    await settle(); // sent
    memento.workbenchTakes();
    await memento.hostTakes(0);
    void teams;
  }

  it('reads back its own write while the echo of an earlier write is on its way, and after', async () => {
    await earlierWriteOnItsWay();
    const watched = state.update('watches', { syncs: [7] });
    await settle(); // this write is sent
    await memento.hostTakes(1); // the earlier echo arrives: the host's copy has no watches
    assert.equal(memento.get('watches'), undefined, 'the model: VS Code reads the older value now');
    assert.deepEqual(state.get('watches'), { syncs: [7] }, 'this window reads what it wrote');
    assert.ok(state.keys().includes('watches'));
    await memento.quiet();
    await watched;
    assert.deepEqual(state.get('watches'), { syncs: [7] });
    assert.deepEqual(memento.shared('watches'), { syncs: [7] }, 'every window reads it');
  });

  it('writes again a write that the earlier echo undid before it was sent', async () => {
    await earlierWriteOnItsWay();
    const watched = state.update('watches', { syncs: [7] });
    await memento.hostTakes(1); // the echo arrives before the send: the send carries the older copy
    assert.deepEqual(state.get('watches'), { syncs: [7] });
    await memento.quiet();
    await watched;
    assert.deepEqual(memento.shared('watches'), { syncs: [7] }, 'written again: every window reads it');
    assert.deepEqual(state.get('watches'), { syncs: [7] });
  });

  it("another window's later write is read once this window's write is done", async () => {
    const pinned = state.update('pins', ['mine']);
    await settle();
    memento.workbenchTakes();
    memento.otherWindowWrites('pins', ['theirs']);
    await memento.hostTakes();
    await pinned;
    assert.deepEqual(state.get('pins'), ['theirs']);
    assert.deepEqual(memento.shared('pins'), ['theirs'], 'not written over');
  });

  it('a key removed reads as removed while the removal is on its way; get gives the fallback', async () => {
    const watched = state.update('watches', { syncs: [1] });
    await memento.quiet();
    await watched;
    await earlierWriteOnItsWay();
    const removed = state.update('watches', undefined);
    await settle();
    await memento.hostTakes(1);
    assert.equal(state.get('watches'), undefined);
    assert.equal(state.get('watches', 'none'), 'none');
    assert.equal(state.keys().includes('watches'), false);
    await memento.quiet();
    await removed;
    assert.equal(memento.shared('watches'), undefined);
  });

  it('a later write of the key is what is read, not the earlier one; what is read is a copy', async () => {
    const first = state.update('pins', ['a']);
    const second = state.update('pins', ['b']);
    await memento.quiet();
    await Promise.all([first, second]);
    assert.deepEqual(state.get('pins'), ['b']);
    (state.get('pins') as string[]).push('c');
    assert.deepEqual(state.get('pins'), ['b'], 'a reader that changes what it read changes nothing stored');
  });

  it('a write the store refuses rejects, and the stored value is read again', async () => {
    const refusing = {
      get: () => 'stored',
      keys: () => ['k'],
      update: () => Promise.reject(new Error('disk full')),
    };
    const failing = new ReadYourWritesState(refusing);
    await assert.rejects(failing.update('k', 'mine'), /disk full/);
    assert.equal(failing.get('k'), 'stored');
  });

  it('passes the keys to sync on', () => {
    state.setKeysForSync(['pins']);
    assert.deepEqual(memento.synced, ['pins']);
  });
});

describe('globalState in the extension', () => {
  it('every feature is handed globalState through ReadYourWritesState: src reads context.globalState once, to wrap it', () => {
    // Compiled to out/test/unit/base/: the repository root is four levels up.
    const root = path.resolve(__dirname, '..', '..', '..', '..');
    const uses = listSources(path.join(root, 'src')).flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/\bcontext\.globalState\b(.*)/g)].map(
        (m) => `${path.basename(file)}: ${m[1]}`,
      ),
    );
    assert.deepEqual(uses, ['extension.ts: ); // what this window wrote, read back at once']);
  });
});
