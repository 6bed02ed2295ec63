import { Emitter, type Disposable, type Event } from '../base/events';
import type { HistoryEntry } from './entry';

/*
 * The seam between History and team History (src/teamHistory/: a higher layer, in a chunk loaded only when a store is
 * connected). Each service's History joins the window's one TeamSlot with what team History needs of it (its service
 * key and team filter, whether it is shared, its own runs); while a store is connected, the slot's port (the team
 * session) hands History the team's runs merged with its own, and takes what this window observed. Without a port,
 * History is what this window kept, as before.
 */

/** A service's History as team History sees it. */
export interface TeamReader {
  /** The service's key in the store: its base URL; undefined while it has none. */
  service(): string | undefined;
  /** Its team filter: '' for every team. */
  team(): string;
  /** Whether its runs are shared (its `flowsync.services` entry does not say `"teamHistory": false`). */
  shared(): boolean;
  /** This window's History of it (each run once, newest first): what is offered again after the outbox dropped runs. */
  local(): readonly HistoryEntry[];
}

/** What one complete answer of a poll this window made showed History (the poll lease's holder only). */
export interface TeamObservation {
  /** When the answer was loaded. */
  readonly at: number;
  /** The runs that left with it. */
  readonly left: readonly HistoryEntry[];
  /** The runs processing now, as this window tracks them (texts inert, the key masked): asked every few minutes. */
  open(): readonly OpenSighting[];
}

/** A run still processing, as this window saw it so far. */
export type OpenSighting = Pick<
  HistoryEntry,
  'id' | 'flowId' | 'flowName' | 'createdAt' | 'firstSeen' | 'lastSeen' | 'hadErrors'
>;

/** What team History is for the window (src/teamHistory/teamSession.ts). */
export interface TeamHistoryPort {
  /**
   * Changes whenever the team's runs of the reader's service change (another service's runs leave it as it was);
   * undefined while there are none: History is `local` as it is.
   */
  version(reader: TeamReader): string | undefined;
  /**
   * `local` merged with the team's runs of the reader's service, newest first, one run at a time (each as asked for:
   * the first page costs the page); valid while `version` says the same. Undefined: `local` as it is.
   */
  newestFirst(reader: TeamReader, local: readonly HistoryEntry[]): Iterator<HistoryEntry, undefined> | undefined;
  observed(reader: TeamReader, observation: TeamObservation): void;
  /** The one-line status (connected, read-only and why, the problem) and the installations that watched today. */
  summary(): TeamSummary;
  /** The stretches of [from, to) nobody of the team watched the reader's service, in time order (at most 50). */
  unwatched(reader: TeamReader, from: number, to: number): readonly TeamGap[];
  readonly onDidChange: Event<void>;
}

/** A stretch nobody watched, or only windows with a team filter did (`teams`: their filters). */
export interface TeamGap {
  readonly from: number;
  readonly to: number;
  readonly teams: readonly string[];
}

export interface TeamSummary {
  readonly status: string;
  readonly watchedToday: number;
}

/** The window's team History: the Histories that joined it and the port while a store is connected. */
export class TeamSlot implements Disposable {
  private port: TeamHistoryPort | undefined;
  private portChanges: Disposable | undefined;
  private readonly joined = new Set<TeamReader>();
  private readonly changes = new Emitter<void>();
  /** The port came or went, or the team's runs or status changed. */
  readonly onDidChange = this.changes.event;

  /** A service's History joins (until disposed). */
  join(reader: TeamReader): Disposable {
    this.joined.add(reader);
    return { dispose: () => this.joined.delete(reader) };
  }

  /** The Histories joined now. */
  readers(): TeamReader[] {
    return [...this.joined];
  }

  /** The store connected (a port) or gone (undefined). */
  use(port: TeamHistoryPort | undefined): void {
    this.portChanges?.dispose();
    this.port = port;
    this.portChanges = port?.onDidChange(() => this.changes.fire());
    this.changes.fire();
  }

  /** Changes whenever what the reader's History merges changes: the store came or went, the team's runs, the opt-out. */
  version(reader: TeamReader): string | undefined {
    return this.port && reader.shared() ? this.port.version(reader) : undefined;
  }

  newestFirst(reader: TeamReader, local: readonly HistoryEntry[]): Iterator<HistoryEntry, undefined> | undefined {
    return this.port && reader.shared() ? this.port.newestFirst(reader, local) : undefined;
  }

  observed(reader: TeamReader, observation: TeamObservation): void {
    if (this.port && reader.shared()) this.port.observed(reader, observation);
  }

  /** The stretches of [from, to) nobody watched the reader's service; undefined while no store is connected. */
  unwatched(reader: TeamReader, from: number, to: number): readonly TeamGap[] | undefined {
    return this.port && reader.shared() ? this.port.unwatched(reader, from, to) : undefined;
  }

  /** What the History view's tooltip says of team History; undefined while no store is connected. */
  summary(): TeamSummary | undefined {
    return this.port?.summary();
  }

  dispose(): void {
    this.portChanges?.dispose();
    this.changes.dispose();
  }
}
