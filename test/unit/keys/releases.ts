/**
 * What each earlier release left in an installation, as fixtures for the legacy key move's tests
 * (test/unit/keys/legacyKeys.test.ts), from CHANGELOG.md and the releases' code:
 * - 0.1.0: the one service of the user's `flowsync.baseUrl`; Set API Key kept its key for the URL's origin
 *   (SecretStorage `flowsync.apiKey:<origin>`). Nothing else names the origin.
 * - 0.2.0: the same key slots; History in `history/<originFolder(origin)>`, the teams it listed in
 *   `flowsync.knownTeamsByOrigin` and the watches in `flowsync.watches`, each per origin.
 * - 0.3.0: keys per exact base URL; at its first start it moved the origin's key to `flowsync.baseUrl` when that had a
 *   path (with `flowsync.services` in use, only a copy the base URL already held went) and set
 *   `flowsync.keysByBaseUrl` whatever it left (start030 is its code, ported).
 * - 0.4.0: looked at the origins of the settings and of the remembered teams, and set the same flag; an origin it did
 *   not know kept its key (start040).
 */
import { originFolder } from '../../../src/history/store';
import { FakeClock } from '../helpers/fakeClock';
import { LaggingKeyring } from '../helpers/laggingKeyring';

export const ROOT = 'https://host';
export const A = 'https://host/a';
const OTHER = 'https://other.example.com';
const OTHER_X = 'https://other.example.com/x';
/** Typed in 0.1 or 0.2 for https://host/a, kept for https://host. */
export const OLD = 'fs_old_tenant_key_0000';
/** Typed in 0.2 for https://other.example.com/x, kept for https://other.example.com. */
const OTHER_KEY = 'fs_other_host_key_2222';

const FLAG = 'flowsync.keysByBaseUrl';
const secretId = (slot: string) => `flowsync.apiKey:${slot}`;

export interface ServiceEntry {
  readonly name: string;
  readonly url: string;
}

/** One installation: its keyring, globalState, user settings and History's folders. */
export class Installation {
  readonly clock = new FakeClock();
  readonly keyring = new LaggingKeyring(this.clock);
  readonly state = new Map<string, unknown>();
  readonly folders: string[] = [];
  baseUrl = '';
  services: ServiceEntry[] = [];

  /** The key in a slot, as every window reads it once writes have landed. */
  slot(slot: string): string | undefined {
    return this.keyring.values.get(secretId(slot));
  }

  setSlot(slot: string, key: string | undefined): void {
    if (key === undefined) this.keyring.values.delete(secretId(slot));
    else this.keyring.values.set(secretId(slot), key);
  }
}

/** 0.1.0 or 0.2.0: Set API Key with `flowsync.baseUrl` at `baseUrl` kept `key` for its origin. */
export function typedBefore030(inst: Installation, baseUrl: string, key: string): void {
  inst.baseUrl = baseUrl;
  inst.setSlot(new URL(baseUrl).origin, key);
}

/** 0.2.0's traces of an origin it polled: History's folder, and (`teams`) the teams it listed and a watch. */
export function used020(inst: Installation, baseUrl: string, { teams = true } = {}): void {
  const origin = new URL(baseUrl).origin;
  inst.folders.push(originFolder(origin));
  if (!teams) return;
  const add = (key: string, value: unknown) =>
    inst.state.set(key, { ...(inst.state.get(key) as object | undefined), [origin]: value });
  add('flowsync.knownTeamsByOrigin', [{ id: 1, name: 'Team 1' }]);
  add('flowsync.watches', { syncs: [5], flows: [] });
}

/** 0.3.0's first start (src/services/vscode/legacyKey.ts and src/keys/moveKey.ts at d07f9d7, ported). */
function start030(inst: Installation): void {
  if (inst.state.get(FLAG) === true) return;
  const url = inst.baseUrl ? new URL(inst.baseUrl) : undefined;
  const to = url && url.pathname !== '/' ? inst.baseUrl.replace(/\/+$/, '') : undefined;
  if (url && to) {
    const from = url.origin;
    const key = inst.slot(from);
    const there = inst.slot(to);
    const onlyLeftover = inst.services.length > 0;
    if (key && !((there && there !== key) || (!there && onlyLeftover))) {
      if (!there) inst.setSlot(to, key);
      inst.setSlot(from, undefined);
    }
  }
  inst.state.set(FLAG, true);
}

/**
 * 0.4.0's first start, for the fixtures that use it: the origins it knew (the settings', the remembered teams') are
 * those `decided` (the layout given is what it left there), and it set the flag; any other origin kept its key.
 */
function start040(inst: Installation, decided: (inst: Installation) => void): void {
  if (inst.state.get(FLAG) === true) return;
  decided(inst);
  inst.state.set(FLAG, true);
}

/** What the test asks of a start of the version under test. */
export interface Started {
  /** What a service at `baseUrl` reads now (through the same path a service reads it). */
  read(baseUrl: string): Promise<string | undefined>;
  /** The questions asked so far, and their answers (a base URL or 'remove'). */
  readonly questions: ReadonlyArray<{ from: string; targets: readonly string[]; answer(choice: string): void }>;
}

/** A start of the version under test in `inst` (its user settings as they are then). */
export type Start = (inst: Installation) => Promise<Started>;

/** One upgrade path: the installation an earlier release left, and the settings now. */
export interface UpgradePath {
  readonly name: string;
  /** The layout before the first start of the version under test. */
  build(): Installation;
  /** The tenant service and the key it should read afterwards. */
  readonly reads: readonly [baseUrl: string, key: string];
  /** Questions asked by the end of runPath (the start, then the root service's first read). */
  readonly asks: number;
}

const withServices = (inst: Installation, services: ServiceEntry[]) => {
  inst.services = services;
  return inst;
};

/** Paths 1-5 of issue #38 (the key typed in 0.2 for https://host/a), each directly and via 0.3.0's first start. */
function path(n: number, route: 'direct' | 'via 0.3.0'): UpgradePath {
  const via = (inst: Installation) => {
    if (route === 'via 0.3.0') start030(inst);
    return inst;
  };
  const from02 = () => {
    const inst = new Installation();
    typedBefore030(inst, A, OLD);
    used020(inst, A);
    return inst;
  };
  const paths: Record<number, Omit<UpgradePath, 'name'> & { what: string }> = {
    1: { what: 'flowsync.baseUrl kept', build: () => via(from02()), reads: [A, OLD], asks: 0 },
    2: {
      what: 'services added beside flowsync.baseUrl, the base URL holding a copy (an early Add Service)',
      build: () => {
        const inst = withServices(from02(), [
          { name: 'A', url: A },
          { name: 'Other', url: OTHER },
        ]);
        inst.setSlot(A, OLD);
        return via(inst);
      },
      reads: [A, OLD],
      asks: 0,
    },
    3: {
      what: 'flowsync.baseUrl removed once services exist',
      build: () => {
        const inst = withServices(from02(), [
          { name: 'A', url: A },
          { name: 'Other', url: OTHER },
        ]);
        inst.setSlot(A, OLD);
        inst.baseUrl = '';
        return via(inst);
      },
      reads: [A, OLD],
      asks: 0,
    },
    4: {
      what: 'flowsync.services written by hand while the base-URL slot is empty',
      build: () => via(withServices(from02(), [{ name: 'A', url: A }])),
      reads: [A, OLD],
      asks: 0,
    },
    5: {
      what: 'flowsync.baseUrl changed to another host before the upgrade',
      build: () => {
        const inst = from02();
        typedBefore030(inst, OTHER_X, OTHER_KEY);
        used020(inst, OTHER_X);
        return via(inst);
      },
      reads: [OTHER_X, OTHER_KEY],
      asks: 0,
    },
  };
  const { what, ...rest } = paths[n];
  return { name: `path ${n} (${what}), ${route}`, ...rest };
}

/** Origins no setting names at the upgrade: the first host of a base URL changed before it. */
function unknownOrigin(route: '0.1.0' | '0.1.0 via 0.4.0' | '0.2.0 (History only)' | '0.2.0 via 0.4.0'): UpgradePath {
  const build = () => {
    const inst = new Installation();
    typedBefore030(inst, A, OLD);
    if (route.startsWith('0.2.0')) used020(inst, A, { teams: false }); // its teams never listed: History's folder only
    typedBefore030(inst, OTHER_X, OTHER_KEY);
    if (route.startsWith('0.2.0')) used020(inst, OTHER_X);
    if (route.endsWith('via 0.4.0')) {
      start040(inst, (i) => {
        i.setSlot(OTHER_X, OTHER_KEY);
        i.setSlot(OTHER, undefined);
      });
    }
    return inst;
  };
  return {
    name: `an origin no setting names (${route})`,
    build,
    reads: [OTHER_X, OTHER_KEY],
    // 0.1.0 left nothing that names https://host: the root service added later is asked about (it reads nothing).
    asks: route.startsWith('0.1.0') ? 1 : 0,
  };
}

export const UPGRADE_PATHS: readonly UpgradePath[] = [
  ...[1, 2, 3, 4, 5].flatMap((n) => [path(n, 'direct'), path(n, 'via 0.3.0')]),
  unknownOrigin('0.1.0'),
  unknownOrigin('0.1.0 via 0.4.0'),
  unknownOrigin('0.2.0 (History only)'),
  unknownOrigin('0.2.0 via 0.4.0'),
];

/**
 * Runs one path with `start`: the first start, then a service added at the root of https://host (what 0.3.0 and 0.4.0
 * left could reach it): returns what it reads, and what the tenant service reads.
 */
export async function runPath(
  p: UpgradePath,
  start: Start,
): Promise<{ tenant: string | undefined; root: string | undefined; questions: number; inst: Installation }> {
  const inst = p.build();
  const first = await start(inst);
  const tenant = await first.read(p.reads[0]);
  inst.services = [...inst.services, { name: 'Root', url: ROOT }];
  const root = await first.read(ROOT);
  return { tenant, root, questions: first.questions.length, inst };
}
