import { originFolder } from '../history/store';
import {
  LegacyKeyMove,
  MAX_LEGACY_ORIGINS,
  type LegacyKeyPorts,
  type LegacyOutcome,
  type LegacyQuestion,
} from '../keys/legacyKeys';
import { legacyKeyring, type SecretStore } from '../keys/keySlots';
import { STATE_KEYS } from '../base/stateKeys';

/** Which origins the legacy move has decided (src/keys/legacyKeys.ts LegacyRecord). */
const RECORD_KEY = STATE_KEYS.legacyKeyOrigins;
/** The teams remembered per origin (src/lists/vscode/teamMemory.ts): origins this installation used before. */
const TEAMS_STATE_KEY = STATE_KEYS.knownTeamsByOrigin;
/** The watches, kept per origin by 0.2 (src/history/vscode/historyService.ts). */
const WATCHES_STATE_KEY = STATE_KEYS.watches;

/** The keys as the move needs them (ApiKeyStore). */
export interface GuardedKeys {
  readonly bounded: SecretStore;
  guardReads(guard: Pick<LegacyKeyMove, 'mayRead' | 'wrote'>): void;
  changed(): void;
}

/**
 * The legacy key move of this installation (src/keys/legacyKeys.ts) over its globalState and keys: its record and
 * the traces an earlier version left there, the History folders from `historyFolders`; it guards the keys' reads.
 * Resolves once the start's pass is done (before the services read their keys).
 */
export async function startLegacyKeyMove(deps: {
  readonly state: { get(key: string): unknown; update(key: string, value: unknown): PromiseLike<void> };
  readonly keys: GuardedKeys;
  readonly places: LegacyKeyPorts['places'];
  historyFolders(): Promise<readonly string[]>;
  ask(question: LegacyQuestion, answer: (choice: string) => void): void;
  report(outcomes: readonly LegacyOutcome[]): void;
}): Promise<LegacyKeyMove> {
  const { state, keys } = deps;
  const move = new LegacyKeyMove({
    keyring: legacyKeyring(keys.bounded),
    places: deps.places,
    traces: async () =>
      tracedOrigins(
        { teams: state.get(TEAMS_STATE_KEY), watches: state.get(WATCHES_STATE_KEY) },
        await deps.historyFolders(),
      ),
    readRecord: () => state.get(RECORD_KEY),
    writeRecord: async (record) => void (await state.update(RECORD_KEY, record)),
    ask: deps.ask,
    report: deps.report,
    changed: () => keys.changed(),
  });
  keys.guardReads(move);
  await move.run();
  return move;
}

/**
 * The origins an earlier version left a trace of, where it may also have kept a key (src/keys/legacyKeys.ts): 0.2
 * remembered teams (`flowsync.knownTeamsByOrigin`) and watches (`flowsync.watches`) per origin, and kept History in a
 * folder per origin (`history/<originFolder(origin)>`); later versions key them by base URL, whose origin counts too.
 * 0.1 left no trace but its key and `flowsync.baseUrl`: an origin no trace names is decided when a service there
 * reads its key (LegacyKeyMove.mayRead). At most MAX_LEGACY_ORIGINS.
 */
function tracedOrigins(
  state: { readonly teams: unknown; readonly watches: unknown },
  historyFolders: readonly string[],
): string[] {
  const keysOf = (v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.keys(v).slice(0, MAX_LEGACY_ORIGINS) : [];
  const origins = [
    ...[...keysOf(state.teams), ...keysOf(state.watches)].flatMap((url) => originOfUrl(url) ?? []),
    ...historyFolders.slice(0, 4 * MAX_LEGACY_ORIGINS).flatMap((name) => originOfFolder(name) ?? []),
  ];
  return [...new Set(origins)].slice(0, MAX_LEGACY_ORIGINS);
}

/** The origin of an http(s) URL (a scope may carry `#team=…`), or undefined. */
function originOfUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The origin whose History folder `name` is (originFolder: the host and port readable, then a hash of the whole
 * origin): each scheme tried, kept only when its folder is `name` exactly. A folder of a base URL with a path, or of a
 * host too long to read back, gives none.
 */
function originOfFolder(name: string): string | undefined {
  const match = /^([a-z0-9.-]+?)(?:_(\d{1,5}))?-[0-9a-f]{8}$/.exec(name);
  if (!match) return undefined;
  const [, host, port] = match;
  for (const scheme of ['https', 'http']) {
    const origin = originOfUrl(`${scheme}://${host}${port ? `:${port}` : ''}`);
    if (origin !== undefined && originFolder(origin) === name) return origin;
  }
  return undefined;
}
