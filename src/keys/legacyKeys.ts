import type { LegacyKeyring } from './keySlots';

/** A service as the legacy move sees it: where its key is kept (its base URL) and the origin of that URL. */
export interface KeyPlace {
  readonly baseUrl: string;
  readonly origin: string;
  readonly name?: string;
}

/** What the move remembers (globalState, `flowsync.legacyKeyOrigins`), bounded. */
export interface LegacyRecord {
  /** Origins decided: their slot holds no earlier version's key (moved, removed, empty, or a root service's own). */
  readonly decided: readonly string[];
  /** Origins seen and not decided yet (not answered, or the keyring failed): looked at again at each start. */
  readonly pending: readonly string[];
}

/** The person is asked which service the key kept for `from` belongs to: one of `targets`, or to remove it. */
export interface LegacyQuestion {
  readonly from: string;
  readonly targets: readonly KeyPlace[];
  /** The service at that root, when there is one: it reads nothing there until the answer. */
  readonly root?: KeyPlace;
}

/** What a pass did to one origin's slot, for the caller to say. */
export type LegacyOutcome =
  | { readonly from: string; readonly kind: 'moved'; readonly to: string }
  | { readonly from: string; readonly kind: 'removed' | 'kept' }
  | { readonly from: string; readonly kind: 'failed'; readonly error: unknown }
  | { readonly from: string; readonly kind: 'copiedNotRemoved'; readonly to: string; readonly error: unknown };

/** What the move reads and writes, behind small ports (the vscode side: globalState, settings, SecretStorage). */
export interface LegacyKeyPorts {
  readonly keyring: LegacyKeyring;
  /** The services now: flowsync.baseUrl's (the user's own value, parsed) and the entries of flowsync.services. */
  places(): { readonly baseUrl: KeyPlace | undefined; readonly services: readonly KeyPlace[] };
  /** Origins an earlier version left a trace of (teams remembered, watches, History's folders): read at the first pass. */
  traces(): Promise<readonly string[]>;
  /** The record as stored (anything; checked here); undefined before the first pass. */
  readRecord(): unknown;
  writeRecord(record: LegacyRecord): Promise<void>;
  /** Asks the person without waiting; `answer` is called with a target's base URL or 'remove' if they choose. */
  ask(question: LegacyQuestion, answer: (choice: string) => void): void;
  report(outcomes: readonly LegacyOutcome[]): void;
  /** A decision changed what a service reads without a keyring write (its key kept where it is): read again. */
  changed(): void;
}

/** Origins looked at in one pass, at most (bounds the keyring's calls). */
export const MAX_LEGACY_ORIGINS = 64;
/** Origins the record keeps as decided, at most (the oldest go: a service there later is decided again). */
const MAX_DECIDED = 512;

/** The origin a slot (a base URL) is the root of, or undefined when it has a path (or is no URL). */
function rootOrigin(slot: string): string | undefined {
  try {
    const url = new URL(slot);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === slot ? slot : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Earlier versions (0.1, 0.2) kept the key of the one service of `flowsync.baseUrl` for its origin (scheme://host:port),
 * where a service at the root of that host reads it; 0.3 and 0.4 moved it at their first start, and marked that done
 * in `flowsync.keysByBaseUrl` also where they left it (0.3: a base URL changed or removed, services written by hand;
 * 0.4: an origin it did not know). That flag is not read: every origin slot an earlier version could have written is
 * decided here, once, and remembered per origin (LegacyRecord):
 * - at the first pass, the origins of the settings, the pending ones, and those an earlier version left a trace of;
 *   at each later start, those of the settings and the pending ones; and whenever a service at a root reads its key
 *   for an origin not decided yet (mayRead), before it reads it.
 * - a key kept for an origin is moved to flowsync.baseUrl when that is under the origin (the key was entered for it;
 *   where that holds another key, the origin's copy goes); removed when a service under the origin holds the same key
 *   (a leftover copy) or when no service under it lacks a key; otherwise the person is asked which service it is for.
 * - a service at the root: at the first pass, the slot is its own (0.3 and 0.4 kept root services' keys there);
 *   a root service that comes later, at an origin whose slot holds a key not typed for it since, reads nothing there
 *   until the person says whose key it is.
 * A move writes only the moved slot below the service's own (LegacyKeyring.give, src/keys/keySlots.ts), so a key a
 * person types meanwhile, in any window, is never replaced; an origin's slot is emptied only while it still holds the
 * key read.
 */
export class LegacyKeyMove {
  private queue: Promise<unknown> = Promise.resolve();
  /** Origins asked about in this window (once per start): a root service there reads nothing until the answer. */
  private readonly asked = new Set<string>();
  /** Roots whose key a person set in this window: their own. */
  private readonly typed = new Set<string>();

  constructor(private readonly ports: LegacyKeyPorts) {}

  /** At the start, before any service reads its key. */
  async run(): Promise<void> {
    await this.serially(() => this.pass({}));
  }

  /**
   * Whether the key of `slot` may be read now: always for a slot with a path, or a root no service sits at (no service
   * reads it); for the slot of a root service once its origin is decided (decided now if need be). Throws the
   * keyring's error when that could not be read.
   */
  async mayRead(slot: string): Promise<boolean> {
    const origin = rootOrigin(slot);
    if (origin === undefined || this.typed.has(origin) || this.record()?.decided.includes(origin)) return true;
    const { baseUrl, services } = this.ports.places();
    if (![...services, ...(baseUrl ? [baseUrl] : [])].some((s) => s.baseUrl === origin)) return true;
    const outcomes = await this.serially(() => this.pass({ only: origin }));
    const failed = outcomes.find((o) => o.from === origin && o.kind === 'failed');
    if (failed?.kind === 'failed') throw failed.error;
    return this.record()?.decided.includes(origin) ?? false;
  }

  /** A person set the key of `slot` (Set API Key): a root's slot is then that service's own. */
  wrote(slot: string): void {
    const origin = rootOrigin(slot);
    if (origin === undefined) return;
    this.typed.add(origin);
    void this.serially(async () => {
      const record = this.record(); // none yet: the first pass takes it from `typed`
      if (record && !record.decided.includes(origin)) {
        await this.save(new Set([...record.decided, origin]), new Set(record.pending));
      }
    }).catch(() => undefined);
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private record(): LegacyRecord | undefined {
    const stored = this.ports.readRecord();
    if (typeof stored !== 'object' || stored === null) return undefined;
    const { decided, pending } = stored as Partial<Record<keyof LegacyRecord, unknown>>;
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
    return { decided: strings(decided), pending: strings(pending) };
  }

  private async save(decided: Set<string>, pending: Set<string>): Promise<void> {
    for (const origin of decided) pending.delete(origin);
    await this.ports.writeRecord({
      decided: [...decided].slice(-MAX_DECIDED),
      pending: [...pending].slice(-MAX_LEGACY_ORIGINS),
    });
  }

  /** One pass over the origins to decide: all of them, `only` one (a root service's first read), or one `answered`. */
  private async pass(how: { only?: string; answered?: { from: string; choice: string } }): Promise<LegacyOutcome[]> {
    const record = this.record();
    const first = record === undefined;
    const decided = new Set([...(record?.decided ?? []), ...this.typed]);
    const pending = new Set(record?.pending);
    const { baseUrl, services } = this.ports.places();
    const places = [...new Map([...services, ...(baseUrl ? [baseUrl] : [])].map((s) => [s.baseUrl, s])).values()];
    const origins =
      first || (!how.only && !how.answered)
        ? [...places.map((s) => s.origin), ...pending, ...(first ? await this.ports.traces().catch(() => []) : [])]
        : [how.only ?? how.answered!.from];
    const outcomes: LegacyOutcome[] = [];
    let mayAsk = true;
    const looked = [...new Set(origins)].filter((o) => !decided.has(o)).slice(0, MAX_LEGACY_ORIGINS);
    for (const from of looked) {
      const answer = how.answered?.from === from ? how.answered.choice : undefined;
      let step: LegacyOutcome | 'decided' | 'pending' | 'asked';
      try {
        step = await this.decide(from, { first, places, baseUrl, answer, mayAsk });
      } catch (error) {
        step = { from, kind: 'failed', error };
      }
      if (step === 'asked') mayAsk = false;
      if (typeof step === 'object') outcomes.push(step);
      const done =
        typeof step === 'object' ? step.kind !== 'failed' && step.kind !== 'copiedNotRemoved' : step === 'decided';
      (done ? decided : pending).add(from);
    }
    if (first || looked.length > 0) await this.save(decided, pending);
    this.ports.report(outcomes);
    if (how.answered) this.ports.changed();
    return outcomes;
  }

  /** One origin: its slot read, then decided, asked about, or left for the next start. Throws what the keyring throws. */
  private async decide(
    from: string,
    how: { first: boolean; places: KeyPlace[]; baseUrl?: KeyPlace; answer?: string; mayAsk: boolean },
  ): Promise<LegacyOutcome | 'decided' | 'pending' | 'asked'> {
    const { keyring } = this.ports;
    const under = how.places.filter((s) => s.origin === from);
    const root = under.find((s) => s.baseUrl === from);
    // 0.3 and 0.4 kept a root service's own key in this slot: at the first pass, a service there owns it.
    if (root && how.first) return 'decided';
    const key = await keyring.atOrigin(from);
    if (!key) return 'decided';
    const others = under.filter((s) => s !== root);
    const held = await Promise.all(others.map((s) => keyring.read(s.baseUrl)));
    const empty = others.filter((_, i) => !held[i]);
    const targets = root ? [root, ...empty] : empty;
    let to: string | undefined;
    if (how.answer !== undefined) {
      to = how.answer === 'remove' || targets.some((s) => s.baseUrl === how.answer) ? how.answer : undefined;
    } else if (!root && how.baseUrl?.origin === from) to = how.baseUrl.baseUrl;
    else if (!root && (held.includes(key) || empty.length === 0)) to = 'remove';
    if (to === undefined) {
      if (!how.mayAsk || this.asked.has(from) || targets.length === 0) return 'pending';
      this.asked.add(from);
      this.ports.ask({ from, targets, root }, (choice) => {
        void this.serially(() => this.pass({ answered: { from, choice } })).catch(() => undefined);
      });
      return 'asked';
    }
    if (to === from) return { from, kind: 'kept' };
    if (to === 'remove') {
      await this.remove(from, key);
      return { from, kind: 'removed' };
    }
    // Given below `to`'s own slot unless that holds a key (the same, a leftover copy; or another, typed since).
    const give = !(await keyring.read(to));
    if (give) await keyring.give(to, key);
    try {
      await this.remove(from, key);
    } catch (error) {
      if (!give) throw error;
      return { from, to, kind: 'copiedNotRemoved', error };
    }
    return give ? { from, kind: 'moved', to } : { from, kind: 'removed' };
  }

  /** Empties the origin's slot, if it still holds `key`. */
  private async remove(from: string, key: string): Promise<void> {
    if ((await this.ports.keyring.atOrigin(from)) === key) await this.ports.keyring.removeAtOrigin(from);
  }
}
