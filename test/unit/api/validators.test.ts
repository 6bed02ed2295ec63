import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { conditionalHeaders, readValidators } from '../../../src/api/validators';
import { LONG_KEY, keyPiece } from '../helpers/keyPieces';

/** A response's headers as the client reads them: by lower-case name, null when absent. */
const headers =
  (values: Record<string, string>) =>
  (name: string): string | null =>
    values[name] ?? null;

describe('validators: what of an ETag or Last-Modified goes back into a request header (issue #38)', () => {
  it('keeps a strong or weak entity tag and an IMF-fixdate as the service sent them, and sends them back', () => {
    const v = readValidators(headers({ etag: 'W/"abc-123"', 'last-modified': 'Fri, 27 Nov 2026 09:00:00 GMT' }));
    assert.deepEqual(v, { etag: 'W/"abc-123"', lastModified: 'Fri, 27 Nov 2026 09:00:00 GMT' });
    assert.deepEqual(conditionalHeaders(v), {
      'If-None-Match': 'W/"abc-123"',
      'If-Modified-Since': 'Fri, 27 Nov 2026 09:00:00 GMT',
    });
    assert.deepEqual(readValidators(headers({ etag: '""' })), { etag: '""' }, 'an empty quoted tag is a tag');
    assert.deepEqual(conditionalHeaders(undefined), {}, 'no validators: an ordinary request');
  });

  it('ignores a value out of bounds: not quoted, a quote or a line break inside, too long, another date form', () => {
    for (const etag of [
      'abc',
      '"a"b"',
      '"a\r\nX-Injected: 1"',
      '"a\nb"',
      '"tab\there"',
      '"\u00e9"',
      `"${'a'.repeat(199)}"`,
      'w/"lower-case weak"',
      ' "leading space"',
    ]) {
      assert.equal(readValidators(headers({ etag }))?.etag, undefined, JSON.stringify(etag));
    }
    assert.equal(readValidators(headers({ etag: `"${'a'.repeat(198)}"` }))?.etag?.length, 200, 'at the bound: kept');
    for (const date of [
      'Friday, 27-Nov-26 09:00:00 GMT',
      'Fri Nov 27 09:00:00 2026',
      'Fri, 27 Nov 2026 09:00:00 UTC',
      'Fri, 27 Nov 2026 09:00:00 GMT\r\nX: 1',
      'Fri, 99 Nov 2026 99:99:99 GMT',
      '2026-11-27T09:00:00Z',
    ]) {
      assert.equal(readValidators(headers({ 'last-modified': date })), undefined, JSON.stringify(date));
    }
  });

  it('keeps no entity tag that holds a piece of the key (it is kept nowhere)', () => {
    const piece = LONG_KEY.slice(3, 11);
    assert.equal(keyPiece(`x${piece}y`, LONG_KEY), piece, 'an 8-character piece of the key');
    assert.equal(readValidators(headers({ etag: `"x${piece}y"` }), LONG_KEY), undefined);
    assert.deepEqual(readValidators(headers({ etag: '"x-y"' }), LONG_KEY), { etag: '"x-y"' });
  });

  it('property: whatever the service sends, no header value sent back carries a control character, a line break or more than its bound', () => {
    const anyText = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.constantFrom('"ok"', 'W/"ok"', 'Fri, 27 Nov 2026 09:00:00 GMT', '"a\r\nb"', '"\u0000"', '"\u2028"'),
    );
    fc.assert(
      fc.property(anyText, anyText, (etag, lastModified) => {
        const sent = conditionalHeaders(readValidators(headers({ etag, 'last-modified': lastModified })));
        for (const [name, value] of Object.entries(sent)) {
          assert.ok(/^[\x20-\x7e]*$/.test(value), `${name}: only visible ASCII and spaces: ${JSON.stringify(value)}`);
          assert.ok(value.length <= (name === 'If-None-Match' ? 200 : 29), `${name}: ${value.length} characters`);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
