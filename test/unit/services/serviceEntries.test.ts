import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  MAX_SERVICES,
  MAX_SERVICE_NAME,
  MAX_SERVICE_WARNINGS,
  mixesScripts,
  parseServiceEntries,
  ServiceEntriesRead,
  serviceNameKey,
} from '../../../src/services/serviceEntries';
import { serviceTargets } from '../../../src/services/serviceTargets';

describe('serviceEntries: reading flowsync.services', () => {
  const parse = (raw: unknown, allowHttp = false) => parseServiceEntries(raw, { allowHttp });

  it('valid entries in order, URLs normalised, team filters kept; none for an empty or missing setting', () => {
    const { entries, warnings } = parse([
      { name: ' Production ', url: 'https://flow.example.com/' },
      { name: 'Staging', url: 'https://flow.example.com/staging', teamId: '42' },
      { name: 'Numbers', url: 'https://n.example.com', teamId: 7 },
    ]);
    assert.deepEqual(warnings, []);
    assert.deepEqual(
      entries.map((e) => [e.name, e.url.baseUrl, e.url.origin, e.teamId]),
      [
        ['Production', 'https://flow.example.com', 'https://flow.example.com', undefined],
        ['Staging', 'https://flow.example.com/staging', 'https://flow.example.com', '42'],
        ['Numbers', 'https://n.example.com', 'https://n.example.com', '7'],
      ],
    );
    assert.notEqual(entries[0].id, entries[1].id, 'same origin, different path prefixes: two services');
    assert.deepEqual(parse(undefined), { entries: [], warnings: [] });
    assert.deepEqual(parse([]), { entries: [], warnings: [] });
  });

  it('"teamHistory": false keeps a service out of team History; anything else shares it', () => {
    const { entries } = parse([
      { name: 'A', url: 'https://a.example.com', teamHistory: false },
      { name: 'B', url: 'https://b.example.com', teamHistory: 'false' },
      { name: 'C', url: 'https://c.example.com' },
    ]);
    assert.deepEqual(
      serviceTargets({ baseUrl: '', teamId: '' }, entries).map((t) => t.teamHistory !== false),
      [false, true, true],
    );
  });

  it('a bad entry is skipped with one warning naming it; the others work', () => {
    const { entries, warnings } = parse([
      { name: 'Good', url: 'https://good.example.com' },
      { name: 'No URL' },
      { name: 'Bad URL', url: 'not a url' },
      { name: 'good', url: 'https://other.example.com' },
      'a string',
      { url: 'https://nameless.example.com' },
      { name: 'x'.repeat(MAX_SERVICE_NAME + 1), url: 'https://long.example.com' },
      { name: 'Team', url: 'https://team.example.com', teamId: 'abc' },
      { name: 'Plain', url: 'http://plain.example.com' },
      { name: 'Last', url: 'https://last.example.com' },
    ]);
    assert.deepEqual(
      entries.map((e) => e.name),
      ['Good', 'Last'],
    );
    assert.equal(warnings.length, 8, warnings.join('\n'));
    assert.match(warnings[0], /service 2 \("No URL"\).*no url/);
    assert.match(warnings[1], /service 3 \("Bad URL"\)/);
    assert.match(warnings[2], /service 4 \("good"\).*same name/);
    assert.match(warnings[3], /service 5 of flowsync\.services.*not an object/);
    assert.match(warnings[4], /service 6 of flowsync\.services.*no name/);
    assert.match(warnings[5], /longer than 60 characters/);
    assert.match(warnings[6], /digits only/);
    assert.match(
      warnings[7],
      /service 9 \("Plain"\)/,
      'plain http to another host is refused, as for flowsync.baseUrl',
    );
    assert.deepEqual(
      parse([{ name: 'Plain', url: 'http://plain.example.com' }], true).entries.map((e) => e.name),
      ['Plain'],
      'unless allowHttp',
    );
  });

  it('one entry per team of a URL: another with the same URL and the same team filter is skipped with a warning', () => {
    const { entries, warnings } = parse([
      { name: 'Team 1', url: 'https://flow.example.com', teamId: '1' },
      { name: 'Team 2', url: 'https://flow.example.com/', teamId: 2 },
      { name: 'All teams', url: 'https://flow.example.com' },
      { name: 'Team 1 again', url: 'https://flow.example.com/api/public/v1/flows', teamId: '1' },
      { name: 'All again', url: 'https://FLOW.example.com' },
      { name: 'Other path', url: 'https://flow.example.com/eu', teamId: '1' },
    ]);
    assert.deepEqual(
      entries.map((e) => e.name),
      ['Team 1', 'Team 2', 'All teams', 'Other path'],
    );
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[0], /service 4 \("Team 1 again"\).*same url and team filter as "Team 1"/);
    assert.match(warnings[1], /service 5 \("All again"\).*same url and team filter as "All teams"/);
  });

  it('team ids are compared as numbers: 1, "01" and " 001 " of one URL are one entry, kept as 1', () => {
    const { entries, warnings } = parse([
      { name: 'One', url: 'https://flow.example.com', teamId: 1 },
      { name: 'Zero one', url: 'https://flow.example.com', teamId: '01' },
      { name: 'Spaced', url: 'https://flow.example.com', teamId: ' 001 ' },
      { name: 'Zero', url: 'https://flow.example.com', teamId: '000' },
    ]);
    assert.deepEqual(
      entries.map((e) => [e.name, e.teamId]),
      [
        ['One', '1'],
        ['Zero', '0'],
      ],
    );
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[0], /service 2 \("Zero one"\).*same url and team filter as "One"/);
    assert.match(warnings[1], /service 3 \("Spaced"\).*same url and team filter as "One"/);
  });

  it('at most 20 services; the rest are skipped with a warning each', () => {
    const raw = Array.from({ length: MAX_SERVICES + 3 }, (_, i) => ({
      name: `S${i}`,
      url: `https://s${i}.example.com`,
    }));
    const { entries, warnings } = parse(raw);
    assert.equal(entries.length, MAX_SERVICES);
    assert.equal(warnings.length, 3);
    assert.match(warnings[0], /service 21 \("S20"\).*at most 20/);
  });

  it('two names that look the same are one name: invisible or control characters, width or letter case do not tell services apart', () => {
    // A pick, a row or a link shows a name inert (src/base/inert.ts: invisible and bidi characters removed, controls
    // as spaces): two entries that read alike there would be two services a person cannot tell apart, one of which
    // could get the key meant for the other.
    const { entries, warnings } = parse([
      { name: 'Production', url: 'https://prod.example.com' },
      { name: 'Produc\u200Btion', url: 'https://evil.example.com' },
      { name: 'Ｐｒｏｄｕｃｔｉｏｎ', url: 'https://evil2.example.com' },
      { name: 'Pro\u202Educt\u202Cion', url: 'https://evil3.example.com' },
      { name: '\u200B\u200D\u2060', url: 'https://blank.example.com' },
      { name: 'Prod\nEU', url: 'https://eu.example.com' },
      { name: 'Prod EU', url: 'https://eu2.example.com' },
    ]);
    assert.deepEqual(
      entries.map((e) => e.url.baseUrl),
      ['https://prod.example.com', 'https://eu.example.com'],
    );
    assert.equal(warnings.length, 5, warnings.join('\n'));
    assert.equal(warnings.filter((w) => /same name/.test(w)).length, 4, warnings.join('\n'));
    assert.equal(warnings.filter((w) => /no name/.test(w)).length, 1, warnings.join('\n'));
  });

  it('invisible variants of a name are the same name: every format or default-ignorable character is ignored', () => {
    const variants = [
      '\u00ad',
      '\u034f',
      '\u180e',
      '\ufe0f',
      '\u{e0100}',
      '\u{e0041}',
      '\u115f',
      '\u3164',
      '\uffa0',
      '\u2800',
    ].map((c, i) => ({ name: `Produc${c}tion`, url: `https://evil${i}.example.com` }));
    const { entries, warnings } = parse([{ name: 'Production', url: 'https://prod.example.com' }, ...variants]);
    assert.deepEqual(
      entries.map((e) => e.url.baseUrl),
      ['https://prod.example.com'],
    );
    assert.equal(warnings.length, MAX_SERVICE_WARNINGS, warnings.join('\n'));
  });

  it('names that look alike across scripts: a word mixing Latin, Cyrillic or Greek letters is refused, and so is a name that looks like another', () => {
    const { entries, warnings } = parse([
      { name: 'Production', url: 'https://prod.example.com' },
      { name: 'Pr\u043Eduction', url: 'https://evil.example.com' }, // a Cyrillic о
      { name: '\u0420\u0430\u0443', url: 'https://pay.example.com' }, // "Рау": every letter Cyrillic
      { name: 'Pay', url: 'https://evil2.example.com' },
      { name: '\u0395\u03a4\u0391', url: 'https://eta.example.com' }, // "ΕΤΑ": Greek
      { name: 'eta', url: 'https://evil3.example.com' },
      { name: '\u041c\u043e\u0441\u043a\u0432\u0430 Production EU', url: 'https://moscow.example.com' }, // a Cyrillic word beside Latin ones
    ]);
    assert.deepEqual(
      entries.map((e) => e.name),
      ['Production', '\u0420\u0430\u0443', '\u0395\u03a4\u0391', '\u041c\u043e\u0441\u043a\u0432\u0430 Production EU'],
    );
    assert.equal(warnings.length, 3, warnings.join('\n'));
    assert.match(warnings[0], /mixes letters of different scripts/);
    assert.match(warnings[1], /looks like the name of another service \("\u0420\u0430\u0443"\)/);
    assert.match(warnings[2], /looks like the name of another service/);
  });

  it('serviceNameKey, what links, tools and edits find a service by: look-alike letters read as Latin, accents kept; mixesScripts looks at each word', () => {
    assert.equal(serviceNameKey('Pr\u043Eduction'), serviceNameKey('Production'));
    assert.equal(serviceNameKey('\u0421\u0420\u041C'), serviceNameKey('CPM'), 'Cyrillic "СРМ" reads as "CPM"');
    assert.equal(serviceNameKey('\u0401'), serviceNameKey('\u00cb'), 'Cyrillic "Ё" reads as "Ë"');
    assert.notEqual(
      serviceNameKey('\u041c\u043e\u0441\u043a\u0432\u0430'),
      serviceNameKey('Mockba'),
      'only letters that look alike: "в" is not a "b" here',
    );
    assert.ok(mixesScripts('Pr\u200b\u043E\u200bduction'), 'invisible characters do not split a word');
    assert.ok(!mixesScripts('\u6771\u4eac Production'), 'Han beside Latin is no look-alike');
    assert.ok(!mixesScripts('Caf\u00e9 EU'));
  });

  it('10,000 entries: 20 services and a few warnings, the last counting the rest (each warning is a notification)', () => {
    const raw = Array.from({ length: 10_000 }, (_, i) =>
      i % 2 ? { name: `S${i}`, url: `https://s${i}.example.com` } : { name: `Bad${i}` },
    );
    const { entries, warnings } = parse(raw);
    assert.equal(entries.length, MAX_SERVICES);
    assert.ok(warnings.length <= MAX_SERVICE_WARNINGS, `${warnings.length} warnings`);
    assert.match(warnings[0], /service 1 \("Bad0"\).*no url/);
    assert.match(
      warnings.at(-1)!,
      new RegExp(`${(10_000 - MAX_SERVICES - (warnings.length - 1)).toLocaleString('en-US')} more entries`),
    );
  });

  it('not a list: one warning, no service', () => {
    const { entries, warnings } = parse({ name: 'A', url: 'https://a.example.com' });
    assert.equal(entries.length, 0);
    assert.equal(warnings.length, 1);
  });

  it('a name from the settings is shown inert in a warning: no link, icon or markup', () => {
    const { warnings } = parse([{ name: '[Open](command:evil) $(alert)', url: 'nope' }]);
    assert.doesNotMatch(warnings[0], /\]\(|\$\(/);
  });

  it('any input: never throws, at most 20 entries, names unique in any letter case, every entry accounted for', () => {
    const entry = fc.record(
      {
        name: fc.oneof(fc.string(), fc.constantFrom('A', 'a', 'B', ' A '), fc.integer()),
        url: fc.oneof(
          fc.string(),
          fc.constantFrom('https://a.example.com', 'https://b.example.com/x', 'http://127.0.0.1:9'),
        ),
        teamId: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(entry, fc.anything()), { maxLength: 30 }), (raw) => {
        const { entries, warnings } = parse(raw);
        assert.ok(entries.length <= MAX_SERVICES);
        const names = entries.map((e) => e.name.toLowerCase());
        assert.equal(new Set(names).size, names.length);
        const skipped = raw.length - entries.length;
        if (skipped <= MAX_SERVICE_WARNINGS) {
          assert.equal(warnings.length, skipped, 'each entry is taken or warned about, once');
        } else {
          assert.equal(warnings.length, MAX_SERVICE_WARNINGS, 'a few warnings, however many entries are skipped');
          assert.match(
            warnings.at(-1)!,
            new RegExp(`Skipped ${skipped - (MAX_SERVICE_WARNINGS - 1)} more entries`),
            'the last one counts the rest',
          );
        }
      }),
      { seed: 20261123, numRuns: 300 },
    );
  });

  it('entries chosen again from one read (another way of comparing names) are those of a fresh read: nothing is read twice', () => {
    const entry = fc.record(
      {
        name: fc.constantFrom('A', 'a', 'B', 'C', 'Ꭺ', 'D'),
        url: fc.constantFrom('https://a.example.com', 'https://b.example.com/x', 'http://127.0.0.1:9', 'nope'),
        teamId: fc.constantFrom(undefined, '1', 'x'),
        webUrl: fc.constantFrom(undefined, { sync: 'https://app.example/{id}' }, { flow: 'javascript:x' }),
      },
      { requiredKeys: ['name'] },
    );
    /** Compares names by their first letter only: it refuses entries the settings' key took, and so admits later ones. */
    const firstLetter = (name: string) => serviceNameKey(name).slice(0, 1);
    fc.assert(
      fc.property(fc.array(entry, { maxLength: MAX_SERVICES + 5 }), (raw) => {
        const read = new ServiceEntriesRead(raw, {});
        const first = read.choose();
        assert.deepEqual(first, parseServiceEntries(raw, {}));
        assert.deepEqual(read.choose(firstLetter), parseServiceEntries(raw, {}, firstLetter));
        const again = read.choose();
        assert.deepEqual(again, first);
        again.entries.forEach((e, i) => {
          assert.equal(e.url, first.entries[i].url, 'the URL as first parsed');
          assert.equal(e.web, first.entries[i].web, 'the web pages as first read');
        });
      }),
      { seed: 20261124, numRuns: 200 },
    );
  });
});
