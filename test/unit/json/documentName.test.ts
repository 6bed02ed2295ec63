import * as assert from 'node:assert/strict';
import { documentName } from '../../../src/json/documentName';

describe('documentName: the editor tab of a JSON document', () => {
  it('the title, after the service name with several services; a file name without path separators', () => {
    assert.equal(documentName('Flow sync 5'), '/Flow sync 5.json');
    assert.equal(documentName('Flow sync 5', 'Staging'), '/Staging · Flow sync 5.json');
    assert.equal(documentName('Syncs with status a/b\\c', 'Staging'), '/Staging · Syncs with status a_b_c.json');
  });

  it('a name from the settings and a group key from the service are shown inert: no bidi override, control or line break reorders or splits the tab', () => {
    const name = documentName('Syncs with status done\u202e\u2066 \n', 'Pro\u202eduction\u0000\nX\u200b');

    assert.doesNotMatch(
      name,
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\u2028\u2029\ufeff]/,
      JSON.stringify(name),
    );
    assert.equal(name, '/Production X · Syncs with status done.json');
  });

  it('bounded: a 10 KB group key makes a short tab', () => {
    assert.ok(documentName(`Syncs with status ${'x'.repeat(10_000)}`, 'Staging').length <= 400);
  });
});
