import * as assert from 'node:assert/strict';
import { apiKeyProblem } from '../../../src/api/apiKey';

describe('apiKeyProblem (the rule a key must meet: the client and Set API Key... hold it)', () => {
  it('says why a key that cannot travel in an HTTP header is refused, and accepts visible ASCII', () => {
    for (const bad of ['abc€def', 'ab\u0000c', 'ab\ncd', 'ab cd', 'ключ', '\uD800']) {
      assert.match(apiKeyProblem(bad) ?? '', /letters, digits and punctuation|spaces/, JSON.stringify(bad));
    }
    assert.equal(apiKeyProblem('fs_live_0123456789abcdef-._~+/='), undefined);
    assert.match(apiKeyProblem('') ?? '', /Enter the API key/);
  });
});
