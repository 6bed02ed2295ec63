import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
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

  it('reads back its own write while an earlier write is on its way, and every window reads both after', async () => {
    const teams = state.update('teams', { a: [1] });
    await settle();
    memento.turn(); // the teams are sent
    const watched = state.update('watches', { syncs: [7] });
    await settle();
    assert.deepEqual(state.get('watches'), { syncs: [7] }, 'this window reads what it wrote');
    assert.ok(state.keys().includes('watches'));
    memento.workbenchTakes();
    await memento.hostTakes(); // the teams' echo: VS Code's copy has no watches now
    assert.deepEqual(state.get('watches'), { syncs: [7] });
    await memento.quiet();
    await Promise.all([teams, watched]);
    assert.deepEqual(state.get('watches'), { syncs: [7] });
    assert.deepEqual(memento.shared('watches'), { syncs: [7] }, 'every window reads it');
    assert.deepEqual(memento.shared('teams'), { a: [1] });
  });

  it('a write of another key, made once the first is acknowledged, does not undo a write on its way', async () => {
    // What lost the watch with writes sent side by side: teams sent, watches sent, the teams' echo and
    // acknowledgement arrive, the caller that awaited the teams pins (its send carries the copy without the watches).
    const teams = state.update('teams', ['A']);
    await settle();
    const watched = state.update('watches', [7]);
    const pinned = teams.then(() => state.update('pins', [3]));
    await memento.quiet();
    await Promise.all([watched, pinned]);
    for (const [key, value] of [
      ['teams', ['A']],
      ['watches', [7]],
      ['pins', [3]],
    ] as const) {
      assert.deepEqual(memento.shared(key), value, key);
      assert.deepEqual(state.get(key), value, key);
    }
  });

  it('three quick writes of one key: the last is stored and read, whatever arrives between them', async () => {
    const writes = [state.update('pins', ['a'])];
    await settle();
    memento.turn();
    writes.push(state.update('pins', ['a', 'b']));
    memento.workbenchTakes();
    await memento.hostTakes();
    writes.push(state.update('pins', ['a', 'b', 'c']));
    await memento.quiet();
    await Promise.all(writes);
    assert.deepEqual(memento.shared('pins'), ['a', 'b', 'c']);
    assert.deepEqual(state.get('pins'), ['a', 'b', 'c']);
  });

  it("writes again a write that another window's echo undid before it was sent (their change kept)", async () => {
    const watched = state.update('watches', [7]);
    await settle();
    memento.otherWindowWrites('teams', ['B']);
    await memento.hostTakes(); // their echo arrives before this window's send: the send carries no watches
    assert.deepEqual(state.get('watches'), [7]);
    await memento.quiet();
    await watched;
    assert.deepEqual(memento.shared('watches'), [7], 'written again: every window reads it');
    assert.deepEqual(memento.shared('teams'), ['B']);
  });

  it("another window's later write of the key is read once this window's write is done, and not written over", async () => {
    const pinned = state.update('pins', ['mine']);
    await settle();
    memento.turn();
    memento.workbenchTakes();
    memento.otherWindowWrites('pins', ['theirs']);
    await memento.quiet();
    await pinned;
    assert.deepEqual(state.get('pins'), ['theirs']);
    assert.deepEqual(memento.shared('pins'), ['theirs']);
  });

  it('a key removed reads as removed while the removal is on its way; get gives the fallback', async () => {
    const watched = state.update('watches', { syncs: [1] });
    await memento.quiet();
    await watched;
    const removed = state.update('watches', undefined);
    await settle();
    assert.equal(state.get('watches'), undefined);
    assert.equal(state.get('watches', 'none'), 'none');
    assert.equal(state.keys().includes('watches'), false);
    await memento.quiet();
    await removed;
    assert.equal(memento.shared('watches'), undefined);
  });

  it('what a caller changes in a value after writing it is not stored; an unchanged value reads as the same object', async () => {
    const value = ['a'];
    const pinned = state.update('pins', value);
    value.push('b');
    await memento.quiet();
    await pinned;
    assert.deepEqual(state.get('pins'), ['a']);
    assert.equal(state.get('pins'), state.get('pins'), 'a reader may cache by identity (the pins do)');
  });

  it('a write the store refuses rejects; the writes after it still go', async () => {
    let refuse = true;
    const stored = new Map<string, unknown>();
    const refusing = new ReadYourWritesState({
      get: (key) => stored.get(key),
      keys: () => [...stored.keys()],
      update: async (key, value) => {
        if (refuse) throw new Error('disk full');
        stored.set(key, value);
      },
    });
    await assert.rejects(refusing.update('k', 'mine'), /disk full/);
    assert.equal(refusing.get('k'), undefined, 'what the store holds is read again');
    refuse = false;
    await refusing.update('k', 'then');
    assert.equal(refusing.get('k'), 'then');
  });

  it('passes the keys to sync on', () => {
    state.setKeysForSync(['pins']);
    assert.deepEqual(memento.synced, ['pins']);
  });

  it('in any order of sends, echoes and acknowledgements, the last write of each key is read and stored', async () => {
    // Another window's changes of another key come in between (what it writes of this window's keys wins: above).
    const command = fc.oneof(
      fc.record({ write: fc.constantFrom('teams', 'watches', 'pins') }),
      fc.record({ step: fc.nat(2) }),
      fc.record({ otherWindow: fc.constant(true) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 40 }), async (commands) => {
        const m = new EchoingMemento();
        const s = new ReadYourWritesState(m);
        const last = new Map<string, number>();
        const writes: Promise<void>[] = [];
        for (const [n, c] of commands.entries()) {
          if ('write' in c) {
            last.set(c.write, n);
            writes.push(s.update(c.write, [n]));
            await settle();
          } else if ('otherWindow' in c) {
            m.otherWindowWrites('theirs', n);
          } else {
            const possible = m.possible;
            if (possible.length) await m.step(possible[c.step % possible.length]);
          }
          for (const [key, n] of last) assert.deepEqual(s.get(key), [n], `${key} read while on its way`);
        }
        await m.quiet();
        await Promise.all(writes);
        for (const [key, n] of last) {
          assert.deepEqual(s.get(key), [n], `${key} read`);
          assert.deepEqual(m.shared(key), [n], `${key} stored`);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('globalState in the extension', () => {
  it('every feature is handed globalState through ReadYourWritesState: src reads context.globalState once, to wrap it', () => {
    // Compiled to out/test/unit/base/: the repository root is four levels up.
    const root = path.resolve(__dirname, '..', '..', '..', '..');
    const uses = listSources(path.join(root, 'src')).flatMap((file) =>
      [
        ...fs
          .readFileSync(file, 'utf8')
          .matchAll(/\bcontext\.globalState\b(.*)|\{[^}]*\bglobalState\b[^}]*\}\s*=\s*context\b/g),
      ].map((m) => `${path.basename(file)}: ${m[1]}`),
    );
    assert.deepEqual(uses, ['extension.ts: ); // what this window wrote, read back at once']);
  });
});
