import * as assert from 'node:assert/strict';
import { inert } from '../../../src/base/inert';
import { parseServiceEntries } from '../../../src/services/serviceEntries';
import { withService, withTeam, withoutService } from '../../../src/services/serviceEdits';

describe('serviceEdits: edits of flowsync.services keep every entry they do not change', () => {
  const raw = [
    { name: 'Production', url: 'https://flow.example.com' },
    'not an entry',
    { name: 'Staging', url: 'https://staging.example.com', teamId: '4', extra: true },
    { url: 'no name' },
  ];

  it('adds at the end; nothing before it changes', () => {
    const next = withService(raw, { name: 'Dev', url: 'http://127.0.0.1:8080' });
    assert.deepEqual(next.slice(0, raw.length), raw);
    assert.deepEqual(next.at(-1), { name: 'Dev', url: 'http://127.0.0.1:8080' });
    assert.deepEqual(withService(undefined, { name: 'A', url: 'https://a.example.com', teamId: '9' }), [
      { name: 'A', url: 'https://a.example.com', teamId: '9' },
    ]);
  });

  it('removes the entry of a name, in any letter case; the invalid entries stay', () => {
    assert.deepEqual(withoutService(raw, 'staging'), [raw[0], raw[1], raw[3]]);
    assert.deepEqual(withoutService(raw, 'Nowhere'), raw);
  });

  it('an edit finds entries by the name as reading does (serviceNameKey): removing Production leaves no look-alike that becomes "Production" elsewhere', () => {
    const lookAlike = [
      { name: 'Production', url: 'https://prod.example.com' },
      { name: 'Produc\u200Btion', url: 'https://evil.example.com' },
    ];
    assert.deepEqual(
      parseServiceEntries(lookAlike, {}).entries.map((e) => e.url.origin),
      ['https://prod.example.com'],
      'the look-alike is skipped',
    );
    const left = parseServiceEntries(withoutService(lookAlike, 'Production'), {}).entries;
    assert.deepEqual(
      left.map((e) => [inert(e.name), e.url.origin]),
      [],
    );
    assert.deepEqual(withTeam(lookAlike, 'Ｐｒｏｄｕｃｔｉｏｎ', '5')[0], { ...lookAlike[0], teamId: '5' });
  });

  it("sets or clears one entry's team filter, keeping its other fields", () => {
    assert.deepEqual(withTeam(raw, 'Staging', '12')[2], {
      name: 'Staging',
      url: 'https://staging.example.com',
      teamId: '12',
      extra: true,
    });
    assert.deepEqual(withTeam(raw, 'Staging', '')[2], {
      name: 'Staging',
      url: 'https://staging.example.com',
      extra: true,
    });
    assert.deepEqual(withTeam(raw, 'Production', '3')[0], {
      name: 'Production',
      url: 'https://flow.example.com',
      teamId: '3',
    });
    assert.deepEqual(withTeam(raw, 'Production', '3').slice(1), raw.slice(1));
  });

  it('does not change what it is given', () => {
    const copy = JSON.parse(JSON.stringify(raw));
    withService(raw, { name: 'X', url: 'https://x.example.com' });
    withoutService(raw, 'Production');
    withTeam(raw, 'Staging', '1');
    assert.deepEqual(raw, copy);
  });
});
