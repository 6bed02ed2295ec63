import type { Connection } from '../api/types';
import { teamLabel } from './grouping';

export interface TeamInfo {
  id: string;
  name: string;
  /** Connections seen for the team in the last load that covered it. */
  connections: number;
}

/**
 * The teams seen in connection lists. An unfiltered load replaces the whole directory; a filtered load only updates
 * its own team, so the team filter keeps offering every team while one is chosen.
 */
export class TeamDirectory {
  private teams = new Map<string, TeamInfo>();

  learn(connections: readonly Connection[], complete: boolean): void {
    const seen = new Map<string, TeamInfo>();
    for (const c of connections) {
      const id = String(c.team_id);
      const team = seen.get(id) ?? { id, name: teamLabel(c), connections: 0 };
      team.connections++;
      seen.set(id, team);
    }
    if (complete) {
      this.teams = seen;
    } else {
      for (const team of seen.values()) this.teams.set(team.id, team);
    }
  }

  /** Restores teams remembered from an earlier session. */
  restore(teams: readonly TeamInfo[]): void {
    for (const team of teams) if (!this.teams.has(team.id)) this.teams.set(team.id, team);
  }

  get(id: string): TeamInfo | undefined {
    return this.teams.get(id);
  }

  /** Every known team, sorted by name. */
  list(): TeamInfo[] {
    return [...this.teams.values()].sort((a, b) => a.name.localeCompare(b.name) || Number(a.id) - Number(b.id));
  }
}
