import * as assert from 'node:assert/strict';
import { MAX_SERVICE_NAME, serviceName } from '../../../src/base/serviceSet';
import { MAX_SERVICE_NAME as ENTRIES_MAX } from '../../../src/services/serviceEntries';

describe('serviceName: the one way a service is named where a person reads it', () => {
  it('with several services: its name, inert; with one, or the service of flowsync.baseUrl: none', () => {
    assert.equal(serviceName({ several: true }, { name: 'Production' }), 'Production');
    assert.equal(
      serviceName({ several: false }, { name: 'Production' }),
      undefined,
      'one service: nothing to tell apart',
    );
    assert.equal(serviceName({ several: true }, {}), undefined, 'the service of flowsync.baseUrl has no name');
    assert.equal(
      serviceName({ several: true }, { name: 'Prod\u202euction\n' }),
      'Production',
      'no bidi override, no line break',
    );
    assert.equal(serviceName({ several: true }, { name: '$(alert) x' })!.includes('$('), false, 'no icon syntax');
  });

  it('at most as long as flowsync.services lets a name be', () => {
    assert.equal(MAX_SERVICE_NAME, ENTRIES_MAX);
    assert.ok(serviceName({ several: true }, { name: 'x'.repeat(500) })!.length <= MAX_SERVICE_NAME);
  });
});
