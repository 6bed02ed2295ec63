import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { foldForSearch } from '../../../src/filter/foldText';

/** The fold as its steps say it, for any text (what foldForSearch gave before its quick paths). */
const folded = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

describe('foldForSearch: its quick paths give what its steps give', () => {
  it('case, accents, compatibility forms, invisibles and spaces', () => {
    assert.equal(foldForSearch('  Café  CRÈME\u00a0brûlée '), 'cafe creme brulee');
    assert.equal(foldForSearch('ﬁle Ǆemal ŉ ſ ½'), 'file dzemal ʼn s 1⁄2');
    assert.equal(foldForSearch('soft\u00adhyphen, İstanbul, Ångström\u0301'), 'softhyphen, istanbul, angstrom');
    assert.equal(foldForSearch('ΟΔΟΣ Straße'), 'οδος straße', 'Greek lowers by context: the steps, whole');
    assert.equal(foldForSearch('a\t\n b'), 'a b');
    assert.equal(foldForSearch('plain text 12'), 'plain text 12');
    for (const text of [
      'a \u0301 b',
      ' ¨x',
      'x¨ ',
      'a\u00ad b',
      ' lead',
      'trail ',
      'two  spaces',
      'x\u00a0 y',
      '\u0301',
    ]) {
      assert.equal(foldForSearch(text), folded(text), JSON.stringify(text));
    }
  });

  it('every character below U+0370, alone and between others', () => {
    for (let c = 0; c < 0x370; c++) {
      const ch = String.fromCharCode(c);
      for (const text of [ch, `A${ch}b`, `${ch}${ch} É${ch}`]) {
        assert.equal(foldForSearch(text), folded(text), `U+${c.toString(16)}`);
      }
    }
  });

  it('property: any text, mostly Latin with accents, marks, spaces and some of any script', () => {
    const latin = fc.integer({ min: 0, max: 0x36f }).map((c) => String.fromCharCode(c));
    const any = fc.string({ unit: 'grapheme', maxLength: 3 });
    const text = fc.array(fc.oneof({ weight: 8, arbitrary: latin }, { weight: 1, arbitrary: any }), { maxLength: 30 });
    fc.assert(
      fc.property(text, (parts) => {
        const t = parts.join('');
        assert.equal(foldForSearch(t), folded(t));
      }),
      { numRuns: 2_000 },
    );
  });
});
