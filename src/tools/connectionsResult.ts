import type { Connection, Item } from '../api/types';
import { serviceTimeAgo } from '../base/format';
import { FilterSubjects } from '../filter/filterMatch';
import { connectionRows } from '../lists/findRows';
import { sortKey, teamLabel } from '../lists/grouping';
import type { WebTemplates } from '../webPages/webUrl';
import { cells, computed, joined, quote, t, type Answer, type Data } from './dataBlock';
import { idQuery, matcher, pageCell, readFilter } from './answerParts';
import { finish, loadedOrExplained, scoped, scopeText, teamIdText, type ToolSnapshot } from './listAnswer';
import { filterInput, inputLimit, inputRecord, inputText } from './toolInput';

/** The flowsync_connections tool's answer: the connections, by team and name. Pure. */

/** Teams named in a "no such team" answer. */
const MAX_TEAMS_LISTED = 20;

export interface ConnectionsInput {
  team?: string;
  type?: string;
  name?: string;
  filter?: string;
  limit: number;
}

export function connectionsInput(raw: unknown): ConnectionsInput {
  const o = inputRecord(raw);
  return {
    team: inputText(o.team),
    type: inputText(o.type),
    name: inputText(o.name),
    ...filterInput(o),
    limit: inputLimit(o.limit),
  };
}

export function connectionsResult(input: ConnectionsInput, s: ToolSnapshot<Connection>): string {
  const a = scoped(s, t('Flow Sync: connections ({0}).', scopeText(s)));
  if (typeof a === 'string') return a;
  if (!loadedOrExplained(s, t('connections'), a)) return a.text();

  let items = s.state.items!;
  if (input.team !== undefined) {
    a.filter(t('team {0}', quote(input.team, s.hide)));
    const matches = matcher(input.team);
    items = items.filter((i) => matches(i.value.team_id, teamLabel(i.value)));
    if (items.length === 0 && s.teamId) {
      a.say(
        t(
          'The extension holds only the connections of {0} (the team filter of its views). The person can choose another team with "Flow Sync: Filter by Team...".',
          scopeText(s),
        ),
      );
    } else if (items.length === 0 && idQuery(input.team) === undefined) {
      knownTeams(s, a);
    }
  }
  if (input.type !== undefined) {
    a.filter(t('type {0}', quote(input.type, s.hide)));
    const type = input.type.toLowerCase();
    items = items.filter((i) => i.value.type.toLowerCase() === type);
  }
  if (input.name !== undefined) {
    a.filter(t('name {0}', quote(input.name, s.hide)));
    const name = input.name.toLowerCase();
    items = items.filter((i) => i.value.name.toLowerCase().includes(name));
  }
  if (input.filter !== undefined) {
    const filter = readFilter(a, input.filter, 'connections', s.hide);
    if (!filter) return a.text();
    const subjects = new FilterSubjects<Item<Connection>>((i) => connectionRows.subject(i.value, s.service ?? ''));
    items = subjects.filter(filter, items);
  }
  const sorted = [...items].sort(byTeamThenName);
  return finish(
    a,
    sorted,
    s.state.items!.length,
    input.limit,
    (item) => connectionRow(item.value, s.now, s.hide, s.pages),
    t('by team and name'),
  );
}

function connectionRow(c: Connection, now: number, hide: string | undefined, pages?: WebTemplates): Data {
  return cells([
    t('connection #{0}', c.id),
    t('name {0}', quote(c.name, hide)),
    t('type {0}', quote(c.type, hide, 40)),
    t('team {0} (#{1})', quote(teamLabel(c), hide), c.team_id),
    t('updated {0}', computed(serviceTimeAgo(c.updated_at, now))),
    ...pageCell(pages, 'connection', { id: c.id, team_id: c.team_id }, hide),
  ]);
}

/** No team matched a name: says so; the names of the teams known are a note of the block. */
function knownTeams(s: ToolSnapshot<unknown>, a: Answer): void {
  if (s.teams.length === 0) {
    a.say(t('No team of that name is among the connections loaded.'));
    return;
  }
  const listed: Data[] = s.teams
    .slice(0, MAX_TEAMS_LISTED)
    .map((team) => t('{0} (#{1})', quote(team.name, s.hide), teamIdText(team.id) ?? quote(team.id, s.hide, 20)));
  const more = s.teams.length - listed.length;
  if (more > 0) listed.push(t('and {0} more', more));
  a.say(
    t(
      'No team of that name is among the connections loaded. The teams known are the "known teams" line of the data block.',
    ),
  );
  a.note(t('known teams: {0}', joined(listed, ', ')));
}

function byTeamThenName(a: Item<Connection>, b: Item<Connection>): number {
  return (
    compare(sortKey(teamLabel(a.value)), sortKey(teamLabel(b.value))) ||
    a.value.team_id - b.value.team_id ||
    compare(sortKey(a.value.name), sortKey(b.value.name)) ||
    a.value.id - b.value.id
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
