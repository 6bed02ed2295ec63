import type { Connection } from '../api/types';
import { Emitter, type Event } from '../base/events';
import { teamLabel } from './grouping';
import { inert } from '../base/inert';

export interface TeamInfo {
  id: string;
  name: string;
  /** Connections seen for the team in the last load that covered it. */
  connections: number;
}

/** What is persisted: the known teams of each service origin. */
export type TeamSnapshot = Record<string, TeamInfo[]>;

/** Teams kept per service: a service that invents a new team on every answer cannot grow the list without bound. */
export const MAX_TEAMS = 1_000;
/** Longest team name kept (and shown in the team filter). */
export const MAX_TEAM_NAME = 100;
/** Services whose teams are remembered; the one used longest ago is forgotten first. */
export const MAX_TEAM_ORIGINS = 5;

/**
 * The teams seen in connection lists, per service origin: the team filter of one service never offers another
 * service's teams. An unfiltered load replaces the origin's teams; a filtered load only updates its own team, so the
 * filter keeps offering every team while one is chosen. Bounded in teams, name length and origins.
 */
export class TeamDirectory {
  /** Origin → team id → team; Map order is least recently used first. */
  private readonly byOrigin = new Map<string, Map<string, TeamInfo>>();
  private origin?: string;
  private readonly learned = new Emitter<void>();
  /** Fires after a load taught teams (to persist them, and to name the filtered team in the views). */
  readonly onDidLearn: Event<void> = this.learned.event;

  /** `apiKey`: the key now in use, masked in team names (they are persisted in globalState, which is a file). */
  constructor(private readonly apiKey: () => string | undefined = () => undefined) {}

  /** The service whose teams are learned and offered from now on (undefined: none is configured). */
  useOrigin(origin: string | undefined): void {
    this.origin = origin;
    if (origin === undefined) return;
    const teams = this.byOrigin.get(origin) ?? new Map<string, TeamInfo>();
    this.byOrigin.delete(origin);
    this.byOrigin.set(origin, teams); // most recently used last
    while (this.byOrigin.size > MAX_TEAM_ORIGINS) this.byOrigin.delete(this.byOrigin.keys().next().value!);
  }

  learn(connections: readonly Connection[], complete: boolean): void {
    const teams = this.current();
    if (!teams) return;
    const seen = new Map<string, TeamInfo>();
    for (const c of connections) {
      const id = String(c.team_id);
      const team = seen.get(id) ?? { id, name: inert(teamLabel(c), MAX_TEAM_NAME, this.apiKey()), connections: 0 };
      team.connections++;
      seen.set(id, team);
    }
    if (complete) teams.clear();
    for (const team of seen.values()) {
      teams.delete(team.id); // most recently seen last
      teams.set(team.id, team);
    }
    while (teams.size > MAX_TEAMS) teams.delete(teams.keys().next().value!);
    this.learned.fire();
  }

  /**
   * Restores teams remembered from an earlier session. The stored value comes from outside this session: anything
   * without the expected shape is ignored, and the bounds apply. (0.1.0 stored one list without its origin: ignored,
   * since it cannot be told which service it belongs to.)
   */
  restore(snapshot: unknown): void {
    if (typeof snapshot !== 'object' || snapshot === null || Array.isArray(snapshot)) return;
    const active = this.origin;
    for (const [origin, list] of Object.entries(snapshot).slice(-MAX_TEAM_ORIGINS)) {
      if (!Array.isArray(list) || this.byOrigin.has(origin)) continue;
      this.useOrigin(origin);
      const teams = this.current()!;
      for (const t of list.slice(-MAX_TEAMS)) {
        if (!isTeamInfo(t)) continue;
        teams.set(t.id, { id: t.id, name: inert(t.name, MAX_TEAM_NAME), connections: t.connections });
      }
    }
    if (active !== undefined) this.useOrigin(active);
    else this.origin = undefined;
  }

  /** Every origin's teams, to persist. */
  snapshot(): TeamSnapshot {
    return Object.fromEntries([...this.byOrigin].map(([origin, teams]) => [origin, [...teams.values()]]));
  }

  get(id: string): TeamInfo | undefined {
    return this.current()?.get(id);
  }

  /** The current service's teams, sorted by name. */
  list(): TeamInfo[] {
    return [...(this.current()?.values() ?? [])].sort(
      (a, b) => a.name.localeCompare(b.name) || Number(a.id) - Number(b.id),
    );
  }

  private current(): Map<string, TeamInfo> | undefined {
    return this.origin === undefined ? undefined : this.byOrigin.get(this.origin);
  }
}

function isTeamInfo(v: unknown): v is TeamInfo {
  const t = v as TeamInfo | null;
  return (
    typeof t === 'object' &&
    t !== null &&
    typeof t.id === 'string' &&
    /^\d{1,18}$/.test(t.id) &&
    typeof t.name === 'string' &&
    Number.isSafeInteger(t.connections) &&
    t.connections >= 0
  );
}
