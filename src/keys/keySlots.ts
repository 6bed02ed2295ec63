/** The store under the keys: VS Code's SecretStorage (each call bounded by ApiKeyStore's timeout), or a test's fake. */
export interface SecretStore {
  get(id: string): PromiseLike<string | undefined>;
  store(id: string, value: string): PromiseLike<void>;
  delete(id: string): PromiseLike<void>;
}

/**
 * The two key slots of a base URL in SecretStorage: its own (`flowsync.apiKey:<base URL>`, what Set API Key writes)
 * and below it the moved one (`flowsync.movedApiKey:<base URL>`, written only by the move of an earlier version's key,
 * src/keys/legacyKeys.ts). A service reads its own slot, else the moved one. So the move never writes a slot a person
 * writes: SecretStorage has no compare-and-set, and a window's write reaches the other windows' view of the keyring
 * only later (VS Code keeps a copy per window and sends writes on), so a write checked "still empty" right before it
 * can still land after a key typed meanwhile in another window; here the typed key wins by its place, whichever write
 * lands last.
 */
export const OWN_SLOT = 'flowsync.apiKey:';
export const MOVED_SLOT = 'flowsync.movedApiKey:';

/** The key of the service at `slot` (its base URL): its own, else the one a move gave it. */
export async function readSlot(secrets: SecretStore, slot: string): Promise<string | undefined> {
  return (await secrets.get(OWN_SLOT + slot)) || (await secrets.get(MOVED_SLOT + slot)) || undefined;
}

/** The keyring as the legacy move (legacyKeys.ts) sees it. */
export interface LegacyKeyring {
  /** What an origin's own slot holds: an earlier version's key kept there, or the key of a service at that root. */
  atOrigin(origin: string): Promise<string | undefined>;
  /** The key the service at `baseUrl` reads: its own slot's, else the one a move gave it. */
  read(baseUrl: string): Promise<string | undefined>;
  /** Gives `key` to the service at `baseUrl` below its own slot: a key a person sets there wins, whichever lands last. */
  give(baseUrl: string, key: string): Promise<void>;
  /** Empties an origin's own slot. */
  removeAtOrigin(origin: string): Promise<void>;
}

export function legacyKeyring(secrets: SecretStore): LegacyKeyring {
  return {
    atOrigin: async (origin) => (await secrets.get(OWN_SLOT + origin)) || undefined,
    read: (baseUrl) => readSlot(secrets, baseUrl),
    give: async (baseUrl, key) => secrets.store(MOVED_SLOT + baseUrl, key),
    removeAtOrigin: async (origin) => secrets.delete(OWN_SLOT + origin),
  };
}
