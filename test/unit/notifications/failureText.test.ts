import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { failureText } from '../../../src/notifications/failureText';

describe('failureText: what a failure notification says (issue #49: only what is true)', () => {
  it('says it retries only when an automatic attempt is planned', () => {
    const refused = new ApiError('certificate', 'The certificate of flow.example.com is not trusted.');
    assert.equal(
      failureText(refused, undefined, true),
      'Flow Sync: The certificate of flow.example.com is not trusted. Retrying automatically.',
    );
    const unusable = new ApiError('invalidUrl', 'The service URL must start with https:// (got ftp:).');
    const text = failureText(unusable, undefined, false);
    assert.ok(!/Retrying/.test(text), text);
    assert.equal(text, 'Flow Sync: The service URL must start with https:// (got ftp:). Refresh to try again.');
  });

  it('names the service when there are several; a refused key says what it says', () => {
    const key = new ApiError('unauthorized', 'The service refused the API key.');
    assert.equal(failureText(key, 'Staging', false), 'Flow Sync (Staging): The service refused the API key.');
  });

  it('service text in the message stays inert', () => {
    const error = new ApiError('http', 'The service answered [x](command:foo) $(alert) \u202e');
    const text = failureText(error, undefined, true);
    assert.ok(!text.includes('](command:'), text);
    assert.ok(!text.includes('$(alert)'), text);
    assert.ok(!text.includes('\u202e'), text);
  });
});
