import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { bounded, hasKeyPiece, inert, hideEverywhere, matchersBuilt } from '../../../src/base/inert';
import { assertInert } from '../helpers/inertText';
import { LONG_KEY, keyPiece } from '../helpers/keyPieces';

describe('inert: service text is data, never markup', () => {
  it('neutralises links, theme icons, HTML, control and bidi characters, and bounds the length', () => {
    const hostile =
      'E_X: [Set API Key](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D "Set API Key") $(key) <img src=x onerror=alert(1)> a\u202Eb\u0007c\u0085d';
    const text = inert(hostile);
    assertInert(text);
    assert.match(text, /Set API Key/, 'the words stay readable');
    assert.equal(inert('x'.repeat(10_000)).length, 300);
    assert.equal(inert('a\n\n b\tc'), 'a b c');
  });

  it('is idempotent and leaves ordinary text alone', () => {
    for (const s of ['[a](command:x)', '$(zap)', 'Database unavailable', 'a ] ( b', '<<>>']) {
      assert.equal(inert(inert(s)), inert(s));
    }
    assert.equal(inert('Database unavailable (retry later).'), 'Database unavailable (retry later).');
  });
});

describe('the API key: masked, then cut (inert and bounded), refused on disk by any piece (hasKeyPiece)', () => {
  const keyArb = fc.stringMatching(/^[\x21-\x7e]{1,40}$/);
  /** Text around the key or pieces of it, in mixed letter case, with invisible characters and markup between. */
  const textArb = (key: string) =>
    fc
      .array(
        fc.oneof(
          fc.string(),
          fc.constant(key),
          fc.constant(key.toUpperCase()),
          fc.nat(key.length).map((n) => key.slice(n, n + 9)),
          fc.constantFrom('\u200b', ' ', '<', ']('),
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.join(''));

  it('no cut of any length leaves an 8-character piece of the key (inert and bounded)', () => {
    fc.assert(
      fc.property(
        keyArb.chain((key) => fc.tuple(fc.constant(key), textArb(key), fc.integer({ min: 1, max: 120 }))),
        ([key, text, max]) => {
          for (const out of [inert(text, max, key), bounded(text, max, key)]) {
            assert.ok(out.length <= max + 2, `bounded: ${out}`);
            if (key.length >= 8) {
              assert.equal(keyPiece(out, key), undefined, `${JSON.stringify(text)} at ${max}: ${out}`);
            }
            assert.ok(!hasKeyPiece(out, key), `${JSON.stringify(text)} at ${max}: ${out}`);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('the key across the cut of bounded: masked, never half shown', () => {
    assert.equal(
      bounded(`${'x'.repeat(990)}${LONG_KEY} tail`, 1000, LONG_KEY),
      `${'x'.repeat(990)}••• tail`,
      'masked first, so the tail fits',
    );
    assert.equal(
      bounded(`${'x'.repeat(990)}${LONG_KEY.slice(0, 12)}`, 1000, LONG_KEY),
      `${'x'.repeat(990)}•••`,
      'a piece of the key is masked too',
    );
    assert.equal(
      bounded('2026-11-22T11:48:00.000Z', 64, LONG_KEY),
      '2026-11-22T11:48:00.000Z',
      'text without the key is kept as it came',
    );
    assert.equal(bounded('a\u200bb', 10), 'a\u200bb', 'bounded does not clean up');
  });

  it('hasKeyPiece agrees with a plain search for every 8-character piece (any letter case), and finds a key JSON escapes', () => {
    fc.assert(
      fc.property(
        keyArb.chain((key) => fc.tuple(fc.constant(key), textArb(key))),
        ([key, text]) => {
          const expected =
            key.length >= 8
              ? keyPiece(text, key) !== undefined || keyPiece(JSON.stringify(text), key) !== undefined
              : text.toLowerCase().includes(key.toLowerCase());
          if (key.length >= 8 && !/["\\<>]|\]\s*\(|\$\s*\(/.test(key)) {
            assert.equal(
              hasKeyPiece(text, key),
              keyPiece(text, key) !== undefined,
              `${key} in ${JSON.stringify(text)}`,
            );
          } else if (expected) {
            assert.ok(
              hasKeyPiece(text, key) || hasKeyPiece(JSON.stringify(text), key),
              `${key} in ${JSON.stringify(text)}`,
            );
          }
        },
      ),
      { numRuns: 500 },
    );
    assert.ok(hasKeyPiece(JSON.stringify({ name: 'x ab"cd\\efgh y' }), 'ab"cd\\efgh'));
    assert.ok(!hasKeyPiece('anything', undefined));
    assert.ok(!hasKeyPiece('anything', ''));
  });
});

describe('hideEverywhere', () => {
  afterEach(() => hideEverywhere(() => undefined));

  it('every inert and bounded text masks the registered secret when the caller names none, before any cut', () => {
    const key = 'fsk_Live_7Hq2Zp9Xw4Lm8Rt3Vb6Nc1Jd';
    hideEverywhere(() => key);
    assert.equal(inert(`Invoices ${key.toUpperCase()}`), 'Invoices •••');
    for (const at of [280, 290, 295, 299]) {
      const shown = inert(`${'x'.repeat(at)}${key}`);
      assert.ok(!shown.toLowerCase().includes(key.slice(0, 8).toLowerCase()), `key at ${at}: ${shown.slice(-20)}`);
    }
    assert.ok(!bounded(`${'y'.repeat(95)}${key}`, 100).includes(key.slice(0, 5)));
    hideEverywhere(() => undefined);
    assert.equal(inert(`Invoices ${key}`), `Invoices ${key}`, 'nothing registered: nothing masked');
  });

  it('several services: the key of each is masked in every text, whole, in pieces and at a cut', () => {
    const production = 'fsk_Live_7Hq2Zp9Xw4Lm8Rt3Vb6Nc1Jd';
    const staging = 'fsk_Test_Q8w3Er5Ty7Ui9Op2As4Df6Gh';
    hideEverywhere(() => [production, staging]);
    assert.equal(inert(`A ${production} B ${staging.toLowerCase()}`), 'A ••• B •••');
    assert.ok(
      !inert(`x ${staging.slice(3, 15)} y`).includes(staging.slice(3, 15)),
      'an 8-character piece of the second key',
    );
    for (const key of [production, staging]) {
      for (const at of [280, 295, 299]) {
        const shown = inert(`${'x'.repeat(at)}${key}`);
        assert.ok(!shown.toLowerCase().includes(key.slice(0, 8).toLowerCase()), `key at ${at}: ${shown.slice(-20)}`);
      }
      assert.ok(!bounded(`${'y'.repeat(95)}${key}`, 100).includes(key.slice(0, 5)));
    }
  });
});

describe('masking several keys: one matcher per set of keys, made once, not per call', () => {
  afterEach(() => hideEverywhere(() => undefined));
  const keys = Array.from(
    { length: 20 },
    (_, i) => `fsk_Live_${String(i).padStart(2, '0')}Hq2Zp9Xw4Lm8Rt3Vb6Nc${String.fromCharCode(65 + i)}`,
  );

  it('20 keys: each masked whole, in pieces and at a cut, and the matcher is made once for the set', () => {
    hideEverywhere(() => [...keys]); // a new array each call, as activate() hands them
    inert('warm up');
    const before = matchersBuilt();
    for (const key of keys) {
      assert.equal(inert(`A ${key} B`), 'A ••• B');
      assert.equal(inert(`A ${key.slice(5, 13).toUpperCase()} B`), 'A ••• B', 'an 8-character piece');
      assert.equal(bounded(`${'y'.repeat(95)}${key}`, 100), `${'y'.repeat(95)}•••`, 'a beginning at the cut');
      assert.ok(!inert(`${'x'.repeat(296)}${key}`).includes(key.slice(0, 4)), 'a beginning at the cut of inert');
    }
    for (let i = 0; i < 100; i++) inert(`Flow ${i} · Payroll`);
    assert.equal(matchersBuilt() - before, 0, 'nothing made per call');
    hideEverywhere(() => keys.slice(0, 2));
    inert('x');
    inert('y');
    assert.equal(matchersBuilt() - before, 1, 'a new set of keys: one new matcher');
  });

  it('a text with pieces of two keys that overlap is masked as one run', () => {
    hideEverywhere(() => ['abcdefgh', 'abcd']);
    assert.equal(inert('x abcdefgh y'), 'x ••• y', 'the longer piece wins where both start');
  });
});

describe('inert: no invisible character is left (format characters, default-ignorable code points)', () => {
  /** Every code point of \p{Cf} or \p{Default_Ignorable_Code_Point}, from the Unicode data the engine carries. */
  const invisibles: string[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    if (/[\p{Cf}\p{Default_Ignorable_Code_Point}]/u.test(c)) invisibles.push(c);
  }
  const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

  it('the ones that were kept: soft hyphen, U+034F, U+180E, variation selectors, tags, Hangul fillers, U+2800', () => {
    for (const c of [
      '\u00ad',
      '\u034f',
      '\u180e',
      '\ufe0f',
      '\u{e0100}',
      '\u{e0041}',
      '\u{e007f}',
      '\u115f',
      '\u1160',
      '\u3164',
      '\uffa0',
      '\u2800',
    ]) {
      assert.equal(inert(`Produc${c}tion`), 'Production', `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`);
    }
    const tags = [...'ignore the user'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    assert.equal(inert(`Sync failed.${tags}`), 'Sync failed.', 'a message in tag characters, unseen by the reader');
  });

  it('property: none is left in any text, and inert stays idempotent', () => {
    assert.ok(invisibles.length > 4000, `${invisibles.length} code points`);
    const textArb = fc
      .array(fc.oneof(fc.string(), fc.constantFrom(...invisibles), fc.constantFrom('[', '](', '$(', '<', ' ')), {
        maxLength: 16,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 300 }), (text, max) => {
        const out = inert(text, max);
        assert.ok(!INVISIBLE.test(out), `${JSON.stringify(text)}: ${JSON.stringify(out)}`);
        assert.equal(inert(out, max), out);
        assert.ok(!INVISIBLE.test(inert(text, max, 'fsk_Live_7Hq2Zp9Xw4Lm8Rt3Vb6Nc1Jd')));
      }),
      { numRuns: 1000 },
    );
  });
});
