import type * as vscode from 'vscode';
import { inert } from '../../base/inert';
import { failedToLoad } from '../../base/onFirstUse';
import { TeamSlot } from '../../history/teamPort';
import { teamChunk } from './teamChunk';
import type { OpenedStore, TeamAnswer, TeamHistoryDeps } from './teamHistoryTypes';

export type { TeamAnswer } from './teamHistoryTypes';

/** The one place the connection string is kept: SecretStorage, under this key (never a setting, log or file). */
const TEAM_HISTORY_SECRET = 'flowsync.teamHistory.connection';

/**
 * Team History in this window (made with the services' code, never in activate()): it connects at start when a
 * connection string is kept in SecretStorage, follows another window's Connect or Disconnect (SecretStorage tells every
 * window), and runs the two commands. The store's code is a chunk of its own, loaded only then; in the web build there
 * is none (`available` false).
 */
export class TeamHistory implements vscode.Disposable {
  private readonly code: ReturnType<typeof teamChunk>;
  private store: OpenedStore | undefined;
  /** The connection string of the store open now (to tell another window's change apart from ours). */
  private text: string | undefined;
  /** Opens and closes one after another. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly secretChanges: vscode.Disposable;

  /** The window's team History, which each service's History joins. */
  readonly slot: TeamSlot;

  constructor(private readonly deps: TeamHistoryDeps) {
    this.slot = deps.slot;
    this.code = teamChunk(failedToLoad(deps.log)('Team History'));
    this.secretChanges = deps.secrets.onDidChange((e) => {
      if (e.key === TEAM_HISTORY_SECRET) void this.follow();
    });
  }

  /** False in VS Code for the Web: no TCP, so no store. */
  get available(): boolean {
    return this.code !== undefined;
  }

  get connected(): boolean {
    return this.store !== undefined;
  }

  /** After the services are made: connects in the background when a connection string is kept. */
  start(): Promise<void> {
    return this.follow();
  }

  /** Connect Team History: opens the store and keeps the string when it could be opened; says what open() found. */
  connect(text: string): Promise<TeamAnswer> {
    return this.serially(async () => {
      await this.closeNow();
      const code = await this.code?.get();
      if (!code) return { level: 'error', text: '' };
      const { store, answer } = await code.openTeamStore(this.deps, text, true);
      if (store) {
        this.store = store;
        this.text = text;
        await this.deps.secrets.store(TEAM_HISTORY_SECRET, text);
      } else await this.followNow(); // not kept: the store kept before, if any, is open again
      return answer;
    });
  }

  /** Disconnect Team History: forgets the string, deletes this installation's rows when asked; local History stays. */
  disconnect(deleteRows: boolean): Promise<TeamAnswer | undefined> {
    return this.serially(async () => {
      this.text = undefined;
      await this.deps.secrets.delete(TEAM_HISTORY_SECRET);
      const answer = deleteRows ? await this.store?.deleteOwn() : undefined;
      await this.closeNow();
      return answer;
    });
  }

  dispose(): void {
    this.secretChanges.dispose();
    void this.serially(() => this.closeNow()).finally(() => this.slot.dispose());
  }

  /** Opens the store of the string kept (another window connected, or this start), or closes it (forgotten). */
  private follow(): Promise<void> {
    return this.serially(() => this.followNow());
  }

  private async followNow(): Promise<void> {
    if (!this.code) return;
    const text = await this.deps.secrets.get(TEAM_HISTORY_SECRET);
    if (text === this.text) return;
    await this.closeNow();
    if (!text) return;
    this.text = text;
    const { store, answer } = await (await this.code.get()).openTeamStore(this.deps, text, false);
    this.store = store;
    if (!store) this.deps.log.warn(`Team History: ${answer.text}`); // a kept string it cannot use (never the string)
  }

  private async closeNow(): Promise<void> {
    const store = this.store;
    this.store = undefined;
    this.text = undefined;
    this.deps.slot.use(undefined);
    await store?.close();
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** Team History of this window, started: it connects in the background when a connection string is kept. */
export function teamHistory(deps: Omit<TeamHistoryDeps, 'slot'>): TeamHistory {
  const made = new TeamHistory({ ...deps, slot: new TeamSlot() });
  void made.start().catch((e: unknown) => deps.log.error(`Team History could not start: ${inert(String(e), 300)}`));
  return made;
}
