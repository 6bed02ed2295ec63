import * as assert from 'node:assert/strict';
import { parseErrorBody, parseRetryAfter } from '../../../src/api/errorAnswers';

describe('error helpers', () => {
  it('parses the documented error body', () => {
    assert.deepEqual(parseErrorBody('{"errors":[{"message":"E_UNAUTHORIZED_ACCESS: Unauthorized access"}]}'), {
      code: 'E_UNAUTHORIZED_ACCESS',
      description: 'Unauthorized access',
    });
    assert.deepEqual(parseErrorBody('{"errors":[{"message":"something broke"}]}'), { description: 'something broke' });
    assert.equal(parseErrorBody('<html>'), undefined);
    assert.equal(parseErrorBody('[]'), undefined);
    assert.equal(parseErrorBody('{"errors":[]}'), undefined);
    assert.equal(parseErrorBody('{"errors":[{"message":42}]}'), undefined);
  });

  it('parses Retry-After in seconds and as an HTTP date', () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter(new Date(now + 30_000).toUTCString(), now), 30_000);
    assert.equal(parseRetryAfter(new Date(now - 30_000).toUTCString(), now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });
});

describe('a hostile service', () => {
  it('Retry-After: only delta-seconds or an HTTP-date; anything else is ignored (ordinary backoff)', () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    for (const bad of [
      '1.5',
      '-5',
      '5, 6',
      '+5',
      '0x10',
      '5s',
      '',
      ' ',
      'Infinity',
      '1e3',
      '2026-11-22T12:00:10Z',
      '12',
    ]) {
      if (bad === '12') continue;
      assert.equal(parseRetryAfter(bad, now), undefined, `"${bad}"`);
    }
    assert.equal(parseRetryAfter('12', now), 12_000);
    assert.equal(parseRetryAfter(' 7 ', now), 7_000);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Sunday, 22-Nov-26 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Sun Nov 22 12:00:30 2026', now), 30_000);
  });
});
