import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { confusableSkeleton } from '../../../src/services/confusables';
import { parseServiceEntries, serviceNameKey } from '../../../src/services/serviceEntries';

const root = join(__dirname, '..', '..', '..', '..');

/** The 16 look-alike forms of issue #38 item 12, each beside the name it imitates (10 of them passed before). */
const LOOK_ALIKE_FORMS: ReadonlyArray<[string, string, string]> = [
  ['Cyrillic о', 'Production', 'Pr\u043eduction'],
  ['Cyrillic Р', 'Production', '\u0420roduction'],
  ['Cyrillic с', 'Production', 'Produ\u0441tion'],
  ['Greek ο', 'Production', 'Pr\u03bfduction'],
  ['Greek Ρ', 'Production', '\u03a1roduction'],
  ['full-width Ｐ', 'Production', '\uff30roduction'],
  ['Armenian օ', 'Production', 'Pr\u0585duction'],
  ['Armenian ս', 'Production', 'Prod\u057dction'],
  ['Cherokee Ꮲ', 'Production', '\u13e2roduction'],
  ['Coptic Ⲣ', 'Production', '\u2ca2roduction'],
  ['Lisu ꓑ', 'Production', '\ua4d1roduction'],
  ['Latin ı', 'Production', 'Product\u0131on'],
  ['Latin ᴘ', 'Production', '\u1d18roduction'],
  ['Latin ɑ', 'Staging', 'St\u0251ging'],
  ['Latin ɡ', 'Staging', 'Sta\u0261ing'],
  ['"rn" for "m"', 'Platform', 'Platforrn'],
];

describe('confusableSkeleton (UTS #39, issue #38 item 12)', () => {
  it('every one of the 16 look-alike forms has the skeleton of the name it imitates', () => {
    const passing = LOOK_ALIKE_FORMS.filter(([, name, form]) => confusableSkeleton(form) !== confusableSkeleton(name));
    assert.deepEqual(
      passing.map(([what]) => what),
      [],
      'forms told apart from the name they imitate',
    );
  });

  it('names a person tells apart keep apart: other letters, digits and accents', () => {
    const distinct = [
      'Production',
      'Staging',
      'Prod',
      'Prod 2',
      'Café',
      'Cafe',
      'Москва',
      'Zürich',
      'Zurich',
      'Team 1',
    ];
    const keys = new Set(distinct.map(confusableSkeleton));
    assert.equal(keys.size, distinct.length);
    assert.equal(confusableSkeleton('PRODUCTION'), confusableSkeleton('production'), 'any letter case');
    assert.equal(confusableSkeleton('\u0401'), confusableSkeleton('\u00cb'), 'Cyrillic "Ё" reads as "Ë"');
    assert.equal(confusableSkeleton('\uabb2roduction'), confusableSkeleton('production'), 'Cherokee ꮲ → ᴘ → p');
  });

  it('read with it, the settings refuse each form beside its name (it looks like the other, or mixes scripts in a word)', () => {
    const key = (name: string) => confusableSkeleton(serviceNameKey(name));
    for (const [what, name, form] of LOOK_ALIKE_FORMS) {
      const raw = [
        { name, url: 'https://prod.example.com' },
        { name: form, url: 'https://evil.example.net' },
      ];
      const { entries, warnings } = parseServiceEntries(raw, {}, key);
      assert.deepEqual(
        entries.map((e) => e.name),
        [name],
        what,
      );
      assert.match(
        warnings[0],
        /looks like the name of another service|mixes letters of different scripts|has the same name/,
        what,
      );
    }
  });

  it('the committed table is what scripts/confusables.mjs makes from the package (node scripts/confusables.mjs)', () => {
    const made = execFileSync(process.execPath, [join(root, 'scripts', 'confusables.mjs'), '--stdout'], {
      encoding: 'utf8',
    });
    assert.equal(readFileSync(join(root, 'src', 'services', 'confusableTable.ts'), 'utf8'), made);
  });
});
