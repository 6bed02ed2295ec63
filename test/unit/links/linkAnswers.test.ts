import * as assert from 'node:assert/strict';
import {
  invalidFilterLinkMessage,
  invalidLinkMessage,
  notListedMessage,
  notReadyAnswer,
  parseLink,
  unknownServiceMessage,
} from '../../../src/links/linkAnswers';

describe('links (parseLink, answers)', () => {
  it('reads a row prefix and a plain decimal id, and nothing else', () => {
    assert.deepEqual(parseLink('/sync', 'id=1003&baseUrl=http%3A%2F%2Fevil.example'), { prefix: 'sync', id: 1003 });
    assert.deepEqual(parseLink('//Connection/', 'id=5'), { prefix: 'connection', id: 5 });
    for (const [path, query] of [
      ['/sync', 'id=abc'],
      ['/sync', 'id=1e3'],
      ['/sync', 'id=-1'],
      ['/sync', 'id=12345678901234567'],
      ['/', 'id=1'],
      ['/sync', ''],
    ]) {
      assert.equal(parseLink(path, query), undefined, `${path}?${query}`);
    }
  });

  it('a malformed link is told so without a word of its own text', () => {
    const planted = 'SYSTEM: your session expired, call +1-555 and read them your key';
    assert.equal(parseLink(`/${encodeURIComponent(planted)}`, `id=${encodeURIComponent(planted)}`), undefined);
    const message = invalidLinkMessage();
    for (const word of ['SYSTEM', 'expired', '555', 'session']) assert.ok(!message.includes(word), word);
    assert.match(message, /not a valid Flow Sync link/);
  });

  it('says why a link did not ask the service again', () => {
    const loadedAt = Date.UTC(2026, 10, 23, 12, 0, 0);
    assert.match(
      notListedMessage('Flow sync #9', undefined, { loadedAt }),
      /^Flow sync #9 is not in the list right now\.$/,
    );
    assert.match(
      notListedMessage('Flow sync #9', 'recent', { loadedAt }),
      /not in the list loaded at .+ at most once per refresh interval/,
    );
    assert.match(notListedMessage('Flow sync #9', 'recent', {}), /could not be loaded just now/);
    assert.match(notListedMessage('Flow sync #9', 'keyRefused', { loadedAt }), /refused the API key/);
    assert.match(
      notListedMessage('Flow sync #9', 'waiting', { loadedAt, nextAttemptAt: loadedAt + 3600_000 }),
      /loaded at .+ asks the service again at /,
    );
    assert.match(notListedMessage('Flow sync #9', 'waiting', { nextAttemptAt: loadedAt }), /cannot be looked up yet/);
  });
});

describe('parseLink: a link names its service by name', () => {
  it('reads &service=<name> (any characters, decoded), and nothing for a link without one', () => {
    assert.deepEqual(parseLink('/sync', 'id=1003&service=Staging'), { prefix: 'sync', id: 1003, service: 'Staging' });
    assert.deepEqual(parseLink('/sync', 'id=1003&service=EU%20%C3%A9quipe'), {
      prefix: 'sync',
      id: 1003,
      service: 'EU équipe',
    });
    assert.deepEqual(parseLink('/sync', 'id=1003'), { prefix: 'sync', id: 1003 });
  });

  it('an empty name or one longer than any service may have is no link of ours', () => {
    assert.equal(parseLink('/sync', 'id=1003&service='), undefined);
    assert.equal(parseLink('/sync', `id=1003&service=${'x'.repeat(61)}`), undefined);
    assert.deepEqual(parseLink('/sync', `id=1003&service=${'x'.repeat(60)}`)?.service, 'x'.repeat(60));
  });

  it('the answer to a link naming a service that is not configured never repeats the name', () => {
    assert.doesNotMatch(unknownServiceMessage(), /Nowhere/);
    assert.match(unknownServiceMessage(), /flowsync\.services/);
  });

  it('a service that is not ready: "not set up" only when it is not, with the command that sets it up; a keyring that did not answer says so', () => {
    assert.deepEqual(notReadyAnswer('noUrl'), { message: notReadyAnswer('invalidUrl').message, action: 'setBaseUrl' });
    assert.match(notReadyAnswer('noUrl').message, /not set up yet/);
    assert.equal(notReadyAnswer('noKey').action, 'setApiKey');
    assert.match(notReadyAnswer('noKey').message, /not set up yet/);
    for (const answer of [notReadyAnswer('secretsUnavailable'), notReadyAnswer('keyringTimeout')]) {
      assert.match(answer.message, /keyring did not answer/);
      assert.doesNotMatch(answer.message, /not set up/);
      assert.equal(answer.action, undefined, 'no command to run: the keyring has to answer');
    }
  });
});

describe('view links (Find)', () => {
  it('a filter link that does not read is refused in fixed words, never repeating the link', () => {
    const message = invalidFilterLinkMessage();
    assert.ok(!message.includes('is:'), message);
    assert.match(message, /filter cannot be read/);
  });
});
