import * as assert from 'node:assert/strict';
import * as url from '../../../src/api/url';
import { parseServiceUrl } from '../../../src/api/url';
import { Explorer } from '../../../src/lists/explorer';
import { FakeClock } from '../helpers/fakeClock';
import {
  SINGLE_SERVICE_ID,
  dataScope,
  historyScope,
  legacyKeyMove,
  sameTarget,
  scopes,
  serviceScope,
  serviceSettings,
  serviceTargets,
  type ServiceTarget,
} from '../../../src/services/serviceTargets';

describe('serviceTargets', () => {
  const entry = (name: string, url: string, teamId?: string) => ({
    id: `${name}@${url}`,
    name,
    url: parseServiceUrl(url, {}),
    teamId,
  });

  it('no entries: the one service of flowsync.baseUrl, with flowsync.teamId, its key kept for its origin (as ever)', () => {
    assert.deepEqual(serviceTargets({ baseUrl: 'https://flow.example.com/base', teamId: '7' }, []), [
      { id: SINGLE_SERVICE_ID, baseUrl: 'https://flow.example.com/base', teamId: '7', bind: 'origin' },
    ]);
  });

  it('entries: one target each, in order, with its own team filter; flowsync.baseUrl and flowsync.teamId are not used', () => {
    const targets = serviceTargets({ baseUrl: 'https://ignored.example.com', teamId: '7' }, [
      entry('Production', 'https://flow.example.com'),
      entry('Staging', 'https://staging.example.com/', '42'),
    ]);
    assert.deepEqual(
      targets.map((t) => [t.name, t.baseUrl, t.teamId, t.bind]),
      [
        ['Production', 'https://flow.example.com', '', 'baseUrl'],
        ['Staging', 'https://staging.example.com', '42', 'baseUrl'],
      ],
    );
  });

  it('the slot of a key: the exact base URL, also for the one service (a key typed for /eu is never read for the root)', () => {
    assert.equal(
      serviceScope({ baseUrl: 'https://flow.example.com/eu', bind: 'origin' }, false),
      'https://flow.example.com/eu',
    );
    const eu = serviceScope({ baseUrl: 'https://flow.example.com/eu', bind: 'baseUrl' }, false);
    const us = serviceScope({ baseUrl: 'https://flow.example.com/us', bind: 'baseUrl' }, false);
    assert.equal(eu, 'https://flow.example.com/eu');
    assert.notEqual(eu, us, 'same origin, different path prefixes: different keys');
    const root = serviceScope({ baseUrl: 'https://flow.example.com', bind: 'baseUrl' }, false);
    assert.equal(root, 'https://flow.example.com', 'at the root of its host: the same slot as before');
    assert.notEqual(
      serviceScope({ baseUrl: 'https://flow.example.com/eu', bind: 'origin' }, false),
      root,
      'the one service at /eu and an entry at the root of its host: two keys',
    );
    assert.equal(
      serviceScope({ baseUrl: 'https://flow.example.com', bind: 'origin' }, false),
      root,
      'the one service at the root: its slot as ever',
    );
  });

  it('where History, teams, watches and leases are kept: the origin for the one service (as ever), the base URL for one of several', () => {
    assert.equal(
      dataScope({ baseUrl: 'https://flow.example.com/eu', bind: 'origin' }, false),
      'https://flow.example.com',
    );
    assert.equal(
      dataScope({ baseUrl: 'https://flow.example.com/eu', bind: 'baseUrl' }, false),
      'https://flow.example.com/eu',
    );
    assert.equal(dataScope({ baseUrl: 'not a url', bind: 'baseUrl' }, false), undefined);
  });

  it('the key of the one service kept for its origin by earlier versions moves to its base URL once (none at the root)', () => {
    assert.deepEqual(legacyKeyMove('https://flow.example.com/eu/', false), {
      from: 'https://flow.example.com',
      to: 'https://flow.example.com/eu',
    });
    assert.equal(legacyKeyMove('https://flow.example.com', false), undefined, 'at the root: the slot is the same');
    assert.equal(legacyKeyMove('', false), undefined);
    assert.equal(legacyKeyMove('http://flow.example.com/eu', false), undefined, 'not usable: nothing moves');
  });

  it('no scope (so no key is read) while the URL is not usable', () => {
    assert.equal(serviceScope({ baseUrl: '', bind: 'origin' }, false), undefined);
    assert.equal(serviceScope({ baseUrl: 'not a url', bind: 'baseUrl' }, false), undefined);
    assert.equal(
      serviceScope({ baseUrl: 'http://flow.example.com', bind: 'baseUrl' }, false),
      undefined,
      'plain http to another host needs allowHttp',
    );
    assert.equal(
      serviceScope({ baseUrl: 'http://flow.example.com', bind: 'baseUrl' }, true),
      'http://flow.example.com',
    );
  });

  it('History, watches and the Clear marker: one per entry (its base URL and team filter); where they were kept before for the one service and entries without a team', () => {
    const team1 = historyScope({ baseUrl: 'https://flow.example.com', bind: 'baseUrl', teamId: '1' }, false);
    const team2 = historyScope({ baseUrl: 'https://flow.example.com', bind: 'baseUrl', teamId: '2' }, false);
    const all = historyScope({ baseUrl: 'https://flow.example.com', bind: 'baseUrl', teamId: '' }, false);
    assert.notEqual(team1, team2, 'two entries of one URL, one per team: two Histories');
    assert.notEqual(team1, all);
    assert.equal(all, 'https://flow.example.com', 'an entry without a team filter keeps its History');
    assert.equal(
      historyScope({ baseUrl: 'https://flow.example.com/eu', bind: 'origin', teamId: '7' }, false),
      'https://flow.example.com',
      'the one service keeps its History (its origin), whatever its team filter',
    );
    assert.equal(historyScope({ baseUrl: 'nope', bind: 'baseUrl', teamId: '1' }, false), undefined);
    for (const teamId of ['01', ' 001 ', '0001']) {
      assert.equal(
        historyScope({ baseUrl: 'https://flow.example.com', bind: 'baseUrl', teamId }, false),
        team1,
        `team ${JSON.stringify(teamId)} is team 1: one History`,
      );
    }
  });

  it('sameTarget: a change of any field of a target retargets its service (derived from the declared fields)', () => {
    // Every field, optional ones too: a field added to ServiceTarget fails to compile here until it is listed, and
    // then this test fails unless sameTarget (TARGET_FIELDS) reads it.
    const full: Required<ServiceTarget> = {
      id: 'Production\u0000https://flow.example.com',
      name: 'Production',
      baseUrl: 'https://flow.example.com',
      teamId: '42',
      bind: 'baseUrl',
      teamHistory: false,
    };
    const other: Required<ServiceTarget> = {
      id: 'Staging\u0000https://staging.example.com',
      name: 'Staging',
      baseUrl: 'https://staging.example.com',
      teamId: '7',
      bind: 'origin',
      teamHistory: true,
    };
    assert.equal(sameTarget(full, { ...full }), true);
    for (const key of Object.keys(full) as Array<keyof ServiceTarget>) {
      assert.equal(sameTarget(full, { ...full, [key]: other[key] }), false, `a new ${key} retargets`);
    }
    assert.equal(sameTarget(full, { ...full, name: undefined }), false, 'a name that goes retargets');
  });

  it("a service's settings: its target with the window's settings, the URL parsed once for its key slot and scopes", () => {
    const target: ServiceTarget = {
      id: 'x',
      name: 'EU',
      baseUrl: 'https://flow.example.com/eu',
      teamId: '7',
      bind: 'baseUrl',
    };
    const window = { allowHttp: false, autoRefresh: true, refreshIntervalSeconds: 30, requestTimeoutSeconds: 15 };
    assert.deepEqual(serviceSettings(target, window), {
      baseUrl: 'https://flow.example.com/eu',
      service: { kind: 'ok', service: parseServiceUrl('https://flow.example.com/eu', {}) },
      keySlot: 'https://flow.example.com/eu',
      scope: 'https://flow.example.com/eu',
      historyScope: 'https://flow.example.com/eu#team=7',
      teamId: '7',
      allowHttp: false,
      timeoutMs: 15_000,
      autoRefresh: true,
      refreshIntervalMs: 30_000,
    });
    for (const t of [target, { ...target, bind: 'origin' as const }, { ...target, baseUrl: 'nope' }]) {
      assert.deepEqual(
        scopes(t, false),
        { keySlot: serviceScope(t, false), scope: dataScope(t, false), historyScope: historyScope(t, false) },
        'the three scopes, as each one alone says',
      );
    }
  });

  it("a service's URL is parsed once per configure: for its settings (key slot, scopes) and its Explorer's client alike", () => {
    let parses = 0;
    const real = url.parseServiceUrl;
    const counting: typeof real = (...args) => (parses++, real(...args));
    const window = { allowHttp: false, autoRefresh: false, refreshIntervalSeconds: 30, requestTimeoutSeconds: 15 };
    const explorer = new Explorer(new FakeClock());
    (url as { parseServiceUrl: typeof real }).parseServiceUrl = counting;
    try {
      for (const target of [
        serviceTargets({ baseUrl: 'https://flow.example.com/base', teamId: '' }, [])[0],
        serviceTargets({ baseUrl: '', teamId: '' }, [entry('EU', 'https://flow.example.com/eu', '7')])[0],
        serviceTargets({ baseUrl: 'http://flow.example.com', teamId: '' }, [])[0],
      ]) {
        parses = 0;
        const settings = serviceSettings(target, window);
        explorer.configure({ ...settings, apiKey: 'k'.repeat(20), userAgent: 'test' });
        assert.equal(parses, 1, `${target.baseUrl}: parsed once per configure`);
      }
      assert.equal(explorer.status, 'invalidUrl', 'the last one, plain http to another host, is refused');
      assert.match(explorer.detail!, /unencrypted/);
    } finally {
      (url as { parseServiceUrl: typeof real }).parseServiceUrl = real;
      explorer.dispose();
    }
  });
});
