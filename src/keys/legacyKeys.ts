import { moveKey, type KeyMove, type KeySlots } from './moveKey';

/** A service as the legacy move sees it: where its key is kept (its base URL) and the origin of that URL. */
export interface KeyPlace {
  readonly baseUrl: string;
  readonly origin: string;
  readonly name?: string;
}

/** What the legacy move reads and writes, behind small ports (the vscode side: globalState, settings, SecretStorage). */
export interface LegacyKeyPorts {
  readonly slots: KeySlots;
  /** flowsync.baseUrl (the user's own value), parsed; undefined when unset or not usable. */
  readonly baseUrl: KeyPlace | undefined;
  /** The entries of flowsync.services. */
  readonly services: readonly KeyPlace[];
  /** Origins this installation used before (the teams remembered per origin, the watches), parsed. */
  readonly knownOrigins: readonly string[];
  /**
   * Asked when the move cannot decide: which of `targets` (services under the origin of `from`) the key kept for
   * `from` belongs to. The base URL chosen, 'remove', or undefined (not answered: the move is tried at the next start).
   */
  ask(question: { from: string; targets: readonly KeyPlace[] }): Promise<string | 'remove' | undefined>;
  done(): boolean;
  markDone(): Promise<void>;
}

/** One slot's outcome, for the caller to say. */
export interface LegacyKeyOutcome {
  readonly from: string;
  readonly to?: string;
  readonly result: KeyMove;
}

/** Origins looked at, at most (the known ones are bounded where they are kept; this bounds the keyring's calls). */
export const MAX_LEGACY_ORIGINS = 64;

/**
 * Earlier versions kept the key of the one service of `flowsync.baseUrl` for its origin (scheme://host:port), where a
 * service at the root of that host would read it. At the upgrade, every origin this installation knows (of
 * flowsync.baseUrl, of each entry of flowsync.services, and those it used before) is looked at: a key kept there is
 * moved or removed unless a service sits at that root (then the slot is that service's own):
 * - moved to flowsync.baseUrl when that is under the origin (the key was entered for it; where it holds another key,
 *   the origin's old copy goes);
 * - removed when a service under the origin already holds the same key (a leftover copy), or when no service under
 *   the origin has an empty slot (nothing can need it);
 * - otherwise the person is asked once which service it belongs to (or to remove it); without an answer nothing
 *   changes and the move is not done: it is tried again at the next start.
 * A slot is written only while it is still empty right before the write (moveKey), so two windows moving at once
 * never overwrite a key typed in between. Done (for good) only when every origin was decided without a failure.
 */
export async function moveLegacyKeys(ports: LegacyKeyPorts): Promise<LegacyKeyOutcome[]> {
  if (ports.done()) return [];
  const { slots, baseUrl, services } = ports;
  const origins = [
    ...new Set([...(baseUrl ? [baseUrl.origin] : []), ...services.map((s) => s.origin), ...ports.knownOrigins]),
  ].slice(0, MAX_LEGACY_ORIGINS);
  const outcomes: LegacyKeyOutcome[] = [];
  let settled = true;
  let asked = false;
  for (const from of origins) {
    // A service at the root reads this slot as its own: whatever it holds is that service's key.
    if (baseUrl?.baseUrl === from || services.some((s) => s.baseUrl === from)) continue;
    let key: string | undefined;
    try {
      key = await slots.get(from);
    } catch (error) {
      outcomes.push({ from, result: { kind: 'failed', error } });
      settled = false;
      continue;
    }
    if (!key) continue;
    let to: string | 'remove' | undefined;
    if (baseUrl?.origin === from) to = baseUrl.baseUrl;
    else {
      const under = [...new Map(services.filter((s) => s.origin === from).map((s) => [s.baseUrl, s])).values()];
      const held = await Promise.all(under.map((s) => slots.get(s.baseUrl).catch(() => key)));
      const empty = under.filter((_, i) => !held[i]);
      if (held.includes(key) || empty.length === 0) to = 'remove';
      else if (!asked) {
        asked = true;
        to = await ports.ask({ from, targets: empty }).catch(() => undefined);
        if (to !== undefined && to !== 'remove' && !empty.some((s) => s.baseUrl === to)) to = undefined;
      }
    }
    if (to === undefined) {
      settled = false;
      continue;
    }
    const result = to === 'remove' ? await remove(slots, from, key) : await moveKey(slots, from, to);
    // The base URL holds another key (typed since): the origin's is an old copy, and goes.
    const final = result.kind === 'kept' ? await remove(slots, from, key) : result;
    outcomes.push({ from, ...(to === 'remove' || result.kind === 'kept' ? {} : { to }), result: final });
    if (final.kind === 'failed' || final.kind === 'copiedNotRemoved') settled = false;
  }
  if (settled) await ports.markDone();
  return outcomes;
}

/** Removes `key` from `from`, if it still holds it. */
async function remove(slots: KeySlots, from: string, key: string): Promise<KeyMove> {
  try {
    if ((await slots.get(from)) !== key) return { kind: 'nothing' };
    await slots.delete(from);
    return { kind: 'moved' };
  } catch (error) {
    return { kind: 'failed', error };
  }
}
