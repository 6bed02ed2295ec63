import * as assert from 'node:assert/strict';
import { moveLegacyKeys, type KeyPlace, type LegacyKeyPorts } from '../../../src/keys/legacyKeys';
import type { KeySlots } from '../../../src/keys/moveKey';

const ROOT = 'https://host';
const A = 'https://host/a';
const B = 'https://host/b';
const OLD = 'fs_old_key_0000000000';
const NEW = 'fs_new_key_1111111111';

const place = (baseUrl: string, name = baseUrl): KeyPlace => ({ baseUrl, origin: new URL(baseUrl).origin, name });

/** One window's view of the keyring: a `get` reads, then `after` (if any) runs before the value read reaches it. */
function keyring(held: Map<string, string>, after?: (slot: string, n: number) => Promise<void>): KeySlots {
  let n = 0;
  return {
    async get(slot) {
      const value = held.get(slot);
      await after?.(slot, n++);
      return value;
    },
    async set(slot, key) {
      held.set(slot, key);
    },
    async delete(slot) {
      held.delete(slot);
    },
  };
}

function ports(
  held: Map<string, string>,
  over: Partial<LegacyKeyPorts> = {},
): LegacyKeyPorts & { asked: Array<{ from: string; targets: readonly KeyPlace[] }>; isDone: () => boolean } {
  let done = false;
  const asked: Array<{ from: string; targets: readonly KeyPlace[] }> = [];
  return {
    slots: keyring(held),
    baseUrl: undefined,
    services: [],
    knownOrigins: [],
    ask: async (q) => {
      asked.push(q);
      return undefined;
    },
    done: () => done,
    markDone: async () => {
      done = true;
    },
    ...over,
    asked,
    isDone: () => done,
  };
}

describe('moveLegacyKeys (the key an earlier version kept for an origin, at the upgrade)', () => {
  it('flowsync.baseUrl removed once services exist: the origin copy goes (no entry sits at the root)', async () => {
    // Add Service (0.3.0) copied the key to /a; then the person removed flowsync.baseUrl.
    const held = new Map([
      [ROOT, OLD],
      [A, OLD],
    ]);
    const p = ports(held, { services: [place(A), place('https://other.example.com')] });
    await moveLegacyKeys(p);
    assert.equal(held.get(ROOT), undefined, 'a service added at the root later never reads the old key');
    assert.equal(held.get(A), OLD);
    assert.ok(p.isDone());
  });

  it('flowsync.services written by hand while the base-URL slot is empty: the key moves to the base URL it was entered for', async () => {
    const held = new Map([[ROOT, OLD]]);
    const p = ports(held, { baseUrl: place(A), services: [place(A)] });
    await moveLegacyKeys(p);
    assert.deepEqual([...held], [[A, OLD]]);
    assert.ok(p.isDone());
  });

  it('flowsync.baseUrl changed to another host before the upgrade: the first host’s origin slot is emptied too', async () => {
    const held = new Map([
      [ROOT, OLD],
      ['https://other.example.com', NEW],
    ]);
    const p = ports(held, { baseUrl: place('https://other.example.com/x'), knownOrigins: [ROOT] });
    await moveLegacyKeys(p);
    assert.deepEqual([...held], [['https://other.example.com/x', NEW]]);
    assert.ok(p.isDone());
  });

  it('an entry of flowsync.services at the root: the slot is its own and stays', async () => {
    const held = new Map([[ROOT, NEW]]);
    const p = ports(held, { baseUrl: place(A), services: [place(ROOT), place(A)] });
    await moveLegacyKeys(p);
    assert.deepEqual([...held], [[ROOT, NEW]]);
    assert.ok(p.isDone());
  });

  it('when it cannot decide (two services under the origin, neither holds it) it asks once and is not done until answered', async () => {
    const held = new Map([[ROOT, OLD]]);
    const p = ports(held, { services: [place(A, 'A'), place(B, 'B')] });
    await moveLegacyKeys(p);
    assert.equal(p.asked.length, 1, 'asked once');
    assert.deepEqual(
      p.asked[0].targets.map((t) => t.baseUrl),
      [A, B],
    );
    assert.deepEqual([...held], [[ROOT, OLD]], 'nothing changed without an answer');
    assert.ok(!p.isDone(), 'tried again at the next start');
    const answered = ports(held, { services: [place(A, 'A'), place(B, 'B')], ask: async () => B });
    await moveLegacyKeys(answered);
    assert.deepEqual([...held], [[B, OLD]]);
    assert.ok(answered.isDone());
  });

  it('two windows move at once: a key the person typed in between is never overwritten by the old key', async () => {
    const held = new Map([[ROOT, OLD]]);
    const services: KeyPlace[] = []; // the one service of flowsync.baseUrl
    // Window b reads both slots (the old key at the root, /a empty); then window a moves the key, and the person,
    // seeing it, types a new key for /a; only then does window b go on.
    const a = ports(held, { baseUrl: place(A), services });
    let first = true;
    const slotsB = keyring(held, async (slot) => {
      if (slot === A && first) {
        first = false;
        await moveLegacyKeys(a);
        held.set(A, NEW);
      }
    });
    await moveLegacyKeys(ports(held, { baseUrl: place(A), services, slots: slotsB }));
    assert.equal(held.get(A), NEW, 'the key typed in between stays');
    assert.equal(held.get(ROOT), undefined);
  });
});
