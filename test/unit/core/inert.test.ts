import * as assert from 'node:assert/strict';
import { inert } from '../../../src/core/inert';
import { assertInert } from '../helpers/inertText';

describe('inert: service text is data, never markup', () => {
  it('neutralises links, theme icons, HTML, control and bidi characters, and bounds the length', () => {
    const hostile = 'E_X: [Set API Key](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D "Set API Key") $(key) <img src=x onerror=alert(1)> a\u202Eb\u0007c\u0085d';
    const text = inert(hostile);
    assertInert(text);
    assert.match(text, /Set API Key/, 'the words stay readable');
    assert.equal(inert('x'.repeat(10_000)).length, 300);
    assert.equal(inert('a\n\n b\tc'), 'a b c');
  });

  it('is idempotent and leaves ordinary text alone', () => {
    for (const s of ['[a](command:x)', '$(zap)', 'Database unavailable', 'a ] ( b', '<<>>']) assert.equal(inert(inert(s)), inert(s));
    assert.equal(inert('Database unavailable (retry later).'), 'Database unavailable (retry later).');
  });
});
