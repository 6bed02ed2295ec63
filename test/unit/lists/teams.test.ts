import * as assert from 'node:assert/strict';
import type { Connection } from '../../../src/api/types';
import { MAX_TEAM_NAME, MAX_TEAMS, MAX_TEAM_ORIGINS, TeamDirectory } from '../../../src/lists/teams';

const connection = (id: number, teamId: number, teamName = `Team ${teamId}`): Connection => ({
  id,
  name: `c${id}`,
  type: 'pdf',
  team_id: teamId,
  team: { id: teamId, name: teamName },
  user_id: 1,
  created_at: '',
  updated_at: '',
  meta: {},
});

describe('TeamDirectory', () => {
  it('an unfiltered load replaces the teams; a filtered one updates only its own team', () => {
    const d = new TeamDirectory();
    d.useOrigin('https://a.example');
    d.learn([connection(1, 1), connection(2, 2), connection(3, 2)], true);
    assert.deepEqual(
      d.list().map((t) => [t.id, t.connections]),
      [
        ['1', 1],
        ['2', 2],
      ],
    );
    d.learn([connection(4, 2)], false);
    assert.deepEqual(
      d.list().map((t) => [t.id, t.connections]),
      [
        ['1', 1],
        ['2', 1],
      ],
    );
  });

  it('is bounded in count and name length, however many filtered loads add teams', () => {
    const d = new TeamDirectory();
    d.useOrigin('https://a.example');
    for (let i = 0; i < 3 * MAX_TEAMS; i++) {
      d.learn([connection(i, i, `${'x'.repeat(5000)} [a](command:x) ${i}`)], false);
    }
    assert.ok(d.list().length <= MAX_TEAMS, `${d.list().length} teams kept`);
    for (const team of d.list()) {
      assert.ok(team.name.length <= MAX_TEAM_NAME, `name of ${team.name.length} characters`);
      assert.doesNotMatch(team.name, /\]\(/);
    }
    const snapshot = JSON.stringify(d.snapshot());
    assert.ok(snapshot.length < 200_000, `${snapshot.length} bytes persisted`);
  });

  it('a team name that holds the API key (a service echoing it) is kept with the key masked: it is persisted', () => {
    const key = 'fs_unit_SENTINEL_teams_41';
    const d = new TeamDirectory(() => key);
    d.useOrigin('https://a.example');
    d.learn([connection(1, 1, `Billing ${key.toUpperCase()} team`)], true);
    assert.ok(
      !JSON.stringify(d.snapshot()).toLowerCase().includes(key.toLowerCase()),
      'the key is not in what globalState keeps',
    );
    assert.match(d.list()[0].name, /^Billing .+ team$/);
  });

  it('keeps teams per service origin: another service never offers them', () => {
    const d = new TeamDirectory();
    d.useOrigin('https://a.example');
    d.learn([connection(1, 1, 'Billing')], true);
    d.useOrigin('https://b.example');
    assert.deepEqual(d.list(), []);
    assert.equal(d.get('1'), undefined);
    d.useOrigin('https://a.example');
    assert.deepEqual(
      d.list().map((t) => t.name),
      ['Billing'],
    );
  });

  it('restores a snapshot, ignoring what does not have the expected shape, and keeps a few origins only', () => {
    const d = new TeamDirectory();
    d.restore({
      'https://a.example': [{ id: '1', name: 'Billing', connections: 2 }, { id: 'x', name: 5 }, null],
      'https://b.example': 'garbage',
    });
    d.restore([{ id: '9', name: 'from 0.1.0, origin unknown', connections: 1 }]);
    d.useOrigin('https://a.example');
    assert.deepEqual(d.list(), [{ id: '1', name: 'Billing', connections: 2 }]);
    d.useOrigin('https://b.example');
    assert.deepEqual(d.list(), []);
    for (let i = 0; i < MAX_TEAM_ORIGINS + 3; i++) {
      d.useOrigin(`https://o${i}.example`);
      d.learn([connection(1, 1)], true);
    }
    assert.ok(Object.keys(d.snapshot()).length <= MAX_TEAM_ORIGINS);
  });
});
