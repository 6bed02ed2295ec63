import * as assert from 'node:assert/strict';
import { parseServiceUrl } from '../../../src/api/url';
import { SINGLE_SERVICE_ID, serviceScope, serviceTargets } from '../../../src/services/serviceTargets';

describe('serviceTargets', () => {
  const entry = (name: string, url: string, teamId?: string) => ({ id: `${name}@${url}`, name, url: parseServiceUrl(url, {}), teamId });

  it('no entries: the one service of flowsync.baseUrl, with flowsync.teamId, its key kept for its origin (as ever)', () => {
    assert.deepEqual(serviceTargets({ baseUrl: 'https://flow.example.com/base', teamId: '7' }, []), [
      { id: SINGLE_SERVICE_ID, baseUrl: 'https://flow.example.com/base', teamId: '7', bind: 'origin' },
    ]);
  });

  it('entries: one target each, in order, with its own team filter; flowsync.baseUrl and flowsync.teamId are not used', () => {
    const targets = serviceTargets({ baseUrl: 'https://ignored.example.com', teamId: '7' }, [entry('Production', 'https://flow.example.com'), entry('Staging', 'https://staging.example.com/', '42')]);
    assert.deepEqual(
      targets.map((t) => [t.name, t.baseUrl, t.teamId, t.bind]),
      [
        ['Production', 'https://flow.example.com', '', 'baseUrl'],
        ['Staging', 'https://staging.example.com', '42', 'baseUrl'],
      ],
    );
  });

  it('the scope of a key: the origin for the one service, the base URL for one of several (two may share an origin)', () => {
    assert.equal(serviceScope({ baseUrl: 'https://flow.example.com/eu', bind: 'origin' }, false), 'https://flow.example.com');
    const eu = serviceScope({ baseUrl: 'https://flow.example.com/eu', bind: 'baseUrl' }, false);
    const us = serviceScope({ baseUrl: 'https://flow.example.com/us', bind: 'baseUrl' }, false);
    assert.equal(eu, 'https://flow.example.com/eu');
    assert.notEqual(eu, us, 'same origin, different path prefixes: different keys');
    assert.equal(serviceScope({ baseUrl: 'https://flow.example.com', bind: 'baseUrl' }, false), 'https://flow.example.com', 'at the root of its host: the same slot as before');
  });

  it('no scope (so no key is read) while the URL is not usable', () => {
    assert.equal(serviceScope({ baseUrl: '', bind: 'origin' }, false), undefined);
    assert.equal(serviceScope({ baseUrl: 'not a url', bind: 'baseUrl' }, false), undefined);
    assert.equal(serviceScope({ baseUrl: 'http://flow.example.com', bind: 'baseUrl' }, false), undefined, 'plain http to another host needs allowHttp');
    assert.equal(serviceScope({ baseUrl: 'http://flow.example.com', bind: 'baseUrl' }, true), 'http://flow.example.com');
  });
});
