import * as assert from 'node:assert/strict';
import { parseErrorBody, parseRetryAfter } from '../../src/api/errors';

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
