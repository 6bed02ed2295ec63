import * as assert from 'node:assert/strict';
import { StoreError, storeErrorOf } from '../../../src/teamHistory/storeErrors';

const PASSWORD = 'Tr0ub4dor&3-horse';

function driverError(message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(message), fields);
}

describe('teamHistory store errors: our words, never the password', () => {
  it('says the problem by its code', () => {
    const cases: Array<[string, string]> = [
      ['28P01', 'refusedPassword'],
      ['3D000', 'noDatabase'],
      ['42501', 'noPrivilege'],
      ['25006', 'readOnly'],
      ['53100', 'serverFull'],
      ['57014', 'timeout'],
      ['CONNECT_TIMEOUT', 'timeout'],
      ['57P01', 'connectionLost'],
      ['CONNECTION_CLOSED', 'connectionLost'],
      ['ECONNREFUSED', 'unreachable'],
      ['ENOTFOUND', 'unreachable'],
      ['DEPTH_ZERO_SELF_SIGNED_CERT', 'certificate'],
      ['ERR_TLS_CERT_ALTNAME_INVALID', 'certificate'],
      ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls'],
      ['XX000', 'other'],
    ];
    for (const [code, problem] of cases) {
      const error = storeErrorOf(driverError('failed', { code }), []);
      assert.equal(error.problem, problem, code);
      assert.equal(error.code, code);
    }
    assert.equal(storeErrorOf('a string', []).problem, 'other');
    assert.equal(storeErrorOf(driverError('x', { code: 'not a code; DROP' }), []).code, undefined);
  });

  it('keeps no field, cause or stack of the driver error; masks the password a server echoed', () => {
    const original = driverError(`password authentication failed for "anna" with ${PASSWORD}\u202e\u0000<b>`, {
      code: '28P01',
      query: `postgres://anna:${PASSWORD}@db/x`,
      parameters: [PASSWORD],
    });
    const error = storeErrorOf(original, [PASSWORD, encodeURIComponent(PASSWORD)]);
    assert.ok(error instanceof StoreError);
    const everything = [
      String(error),
      error.message,
      error.stack ?? '',
      JSON.stringify(error),
      JSON.stringify(Object.entries(error)),
    ];
    for (const text of everything) assert.ok(!text.includes(PASSWORD) && !text.includes('Tr0ub4dor'), text);
    assert.equal(error.cause, undefined);
    assert.ok(!error.message.includes('\u202e') && !error.message.includes('<b>'));
    assert.match(error.message, /refused the user name or password \(28P01: password authentication failed/);
  });

  it('bounds what a hostile server says', () => {
    const error = storeErrorOf(driverError('x'.repeat(1_000_000), { code: 'XX000' }), [PASSWORD]);
    assert.ok(error.message.length < 400);
  });

  it('a StoreError stays as it is', () => {
    const error = new StoreError('newerSchema', undefined);
    assert.equal(storeErrorOf(error, [PASSWORD]), error);
  });
});
