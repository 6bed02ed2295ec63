import * as assert from 'node:assert/strict';
import { moveKey, type KeySlots } from '../../../src/keys/moveKey';

/** Slots in memory; `failing` names the calls that throw. */
function slots(
  initial: Record<string, string>,
  failing: Array<'get' | 'set' | 'delete'> = [],
): KeySlots & { held: Map<string, string>; calls: string[] } {
  const held = new Map(Object.entries(initial));
  const calls: string[] = [];
  const fail = (op: 'get' | 'set' | 'delete') => {
    calls.push(op);
    if (failing.includes(op)) throw new Error(`${op} failed`);
  };
  return {
    held,
    calls,
    async get(slot: string) {
      fail('get');
      return held.get(slot);
    },
    async set(slot: string, key: string) {
      fail('set');
      held.set(slot, key);
    },
    async delete(slot: string) {
      fail('delete');
      held.delete(slot);
    },
  };
}

const ROOT = 'https://host';
const TENANT = 'https://host/tenantA';

describe('moveKey (a key moves: copied, then removed from where it was)', () => {
  it('moves the key: the new slot has it, the old one does not (the root of the host is not sent it)', async () => {
    const s = slots({ [ROOT]: 'fsk_TENANT_A' });
    assert.deepEqual(await moveKey(s, ROOT, TENANT), { kind: 'moved' });
    assert.equal(s.held.get(TENANT), 'fsk_TENANT_A');
    assert.equal(s.held.has(ROOT), false, 'no copy is left behind');
  });

  it('nothing there: nothing to do', async () => {
    const s = slots({});
    assert.deepEqual(await moveKey(s, ROOT, TENANT), { kind: 'nothing' });
    assert.deepEqual(s.calls, ['get']);
  });

  it('the new slot holds the same key already: the old copy goes (what an earlier Add Service left behind)', async () => {
    const s = slots({ [ROOT]: 'k1', [TENANT]: 'k1' });
    assert.deepEqual(await moveKey(s, ROOT, TENANT), { kind: 'moved' });
    assert.deepEqual([...s.held], [[TENANT, 'k1']]);
  });

  it('the new slot holds another key: both stay as they are (neither is known to be a copy)', async () => {
    const s = slots({ [ROOT]: 'k1', [TENANT]: 'k2' });
    assert.deepEqual(await moveKey(s, ROOT, TENANT), { kind: 'kept' });
    assert.deepEqual(Object.fromEntries(s.held), { [ROOT]: 'k1', [TENANT]: 'k2' });
  });

  it('onlyLeftover: only a copy the new slot holds goes; a key it does not hold stays where it is', async () => {
    const copy = slots({ [ROOT]: 'k1', [TENANT]: 'k1' });
    assert.deepEqual(await moveKey(copy, ROOT, TENANT, { onlyLeftover: true }), { kind: 'moved' });
    assert.deepEqual([...copy.held], [[TENANT, 'k1']]);
    const own = slots({ [ROOT]: 'k1' });
    assert.deepEqual(await moveKey(own, ROOT, TENANT, { onlyLeftover: true }), { kind: 'kept' });
    assert.deepEqual(Object.fromEntries(own.held), { [ROOT]: 'k1' });
  });

  it('the copy fails: the key stays where it was, and the failure is told', async () => {
    const s = slots({ [ROOT]: 'k1' }, ['set']);
    const result = await moveKey(s, ROOT, TENANT);
    assert.equal(result.kind, 'failed');
    assert.deepEqual(Object.fromEntries(s.held), { [ROOT]: 'k1' });
  });

  it('the removal fails: told as two live copies (the caller says so to the person)', async () => {
    const s = slots({ [ROOT]: 'k1' }, ['delete']);
    const result = await moveKey(s, ROOT, TENANT);
    assert.equal(result.kind, 'copiedNotRemoved');
    assert.equal(s.held.get(TENANT), 'k1');
  });

  it('the same slot: nothing moves', async () => {
    const s = slots({ [ROOT]: 'k1' });
    assert.deepEqual(await moveKey(s, ROOT, ROOT), { kind: 'nothing' });
    assert.deepEqual(s.calls, []);
  });
});
