import * as assert from 'node:assert/strict';
import { connectionIcon, flowSyncIcon } from '../../../src/lists/icons';

describe('icons', () => {
  it('maps statuses: spinning for pending, distinct for others, an error icon when errors is set', () => {
    assert.equal(flowSyncIcon({ status: 'pending', errors: null }).id, 'sync~spin');
    assert.notEqual(flowSyncIcon({ status: 'queued', errors: null }).id, 'sync~spin');
    assert.equal(flowSyncIcon({ status: 'something-new', errors: null }).id, 'circle-outline');
    assert.equal(flowSyncIcon({ status: 'pending', errors: [{ message: 'x' }] }).id, 'warning');
  });

  it('maps types: a PDF icon for pdf, a generic one for unknown types', () => {
    assert.equal(connectionIcon({ type: 'pdf' }).id, 'file-pdf');
    assert.equal(connectionIcon({ type: 'PDF' }).id, 'file-pdf');
    assert.equal(connectionIcon({ type: 'brand-new' }).id, 'plug');
  });

  it('icon lookups use own properties only: a status or type named like an Object member gets the generic icon', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      assert.equal(flowSyncIcon({ status: name, errors: null }).id, 'circle-outline', name);
      assert.equal(connectionIcon({ type: name }).id, 'plug', name);
    }
  });
});
