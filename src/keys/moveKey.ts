/** The key slots a move works on (ApiKeyStore implements them: SecretStorage, each call bounded by its timeout). */
export interface KeySlots {
  get(slot: string): Promise<string | undefined>;
  set(slot: string, key: string): Promise<void>;
  delete(slot: string): Promise<void>;
}

/**
 * What a move did: `moved` (the new slot holds the key, the old one is empty), `nothing` (no key to move), `kept` (the
 * new slot holds another key: both stay, as neither is known to be a copy of the other), `failed` (nothing changed:
 * the key stays where it was) or `copiedNotRemoved` (two live copies: the caller must say so to the person).
 */
export type KeyMove = { kind: 'moved' | 'nothing' | 'kept' } | { kind: 'failed' | 'copiedNotRemoved'; error: unknown };

/**
 * Moves a key from one slot to another: copied, then removed from where it was, so that it is sent only to the service
 * it now belongs to. When the new slot already holds the same key, the old one is a leftover copy and goes. With
 * `onlyLeftover`, only such a copy goes: a key the new slot does not hold stays where it is. The new slot is written only
 * if it is still empty right before the write (both slots are read again then). Never throws.
 */
export async function moveKey(
  slots: KeySlots,
  from: string,
  to: string,
  { onlyLeftover = false } = {},
): Promise<KeyMove> {
  if (from === to) return { kind: 'nothing' };
  let key: string | undefined;
  try {
    key = await slots.get(from);
    if (!key) return { kind: 'nothing' };
    const there = await slots.get(to);
    if ((there && there !== key) || (!there && onlyLeftover)) return { kind: 'kept' };
    if (!there) {
      // Right before the write, both slots again: another window may have moved the key meanwhile, and the person may
      // have typed a key for `to` since; a slot is written only while it is still empty.
      const [still, now] = [await slots.get(from), await slots.get(to)];
      if (still !== key) return { kind: 'nothing' };
      if (now && now !== key) return { kind: 'kept' };
      if (!now) await slots.set(to, key);
    }
  } catch (error) {
    return { kind: 'failed', error };
  }
  try {
    await slots.delete(from);
  } catch (error) {
    return { kind: 'copiedNotRemoved', error };
  }
  return { kind: 'moved' };
}
