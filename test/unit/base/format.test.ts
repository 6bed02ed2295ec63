import * as assert from 'node:assert/strict';
import { asSentence, escapeMarkdown, timeAgo } from '../../../src/base/format';
import { NOW, iso } from '../helpers/items';

describe('format', () => {
  it('says how long ago', () => {
    assert.equal(timeAgo(iso(1000), NOW), 'just now');
    assert.equal(timeAgo(iso(42_000), NOW), '42 s ago');
    assert.equal(timeAgo(iso(3 * 60_000 + 5), NOW), '3 min ago');
    assert.equal(timeAgo(iso(5 * 3600_000), NOW), '5 h ago');
    assert.equal(timeAgo(iso(50 * 3600_000), NOW), '2 d ago');
    assert.equal(timeAgo('not a date', NOW), 'unknown time');
  });

  it('rounds ages down at each unit boundary; a time in the future is "just now"', () => {
    assert.equal(timeAgo(iso(4_999), NOW), 'just now');
    assert.equal(timeAgo(iso(5_000), NOW), '5 s ago');
    assert.equal(timeAgo(iso(59_999), NOW), '59 s ago');
    assert.equal(timeAgo(iso(60_000), NOW), '1 min ago');
    assert.equal(timeAgo(iso(24 * 3600_000 - 1), NOW), '23 h ago');
    assert.equal(timeAgo(iso(-60_000), NOW), 'just now');
  });

  it('escapes every Markdown character and makes links and icons from the service inert', () => {
    assert.equal(escapeMarkdown('*a* _b_ `c` #d'), '\\*a\\* \\_b\\_ \\`c\\` \\#d');
    const text = escapeMarkdown('[Set API Key](command:flowsync.clearApiKey) $(key) <img>');
    assert.doesNotMatch(text, /\]\(|\$\(|[<>]/);
    assert.ok(text.includes('Set API Key'));
  });

  it('leaves no autolink: no bare scheme colon, slash, www dot or e-mail at sign; every ASCII punctuation escaped', () => {
    const text = escapeMarkdown(
      'Log in at https://evil.example/login or www.evil.example, mail help@evil.example; ftp://x',
    );
    assert.equal(
      text,
      'Log in at https\\:\\/\\/evil\\.example\\/login or www\\.evil\\.example\\, mail help\\@evil\\.example\\; ftp\\:\\/\\/x',
    );
    // fast-check style sweep over every ASCII punctuation character: each comes out escaped, letters and digits do not.
    for (let c = 0x21; c < 0x7f; c++) {
      const ch = String.fromCharCode(c);
      if ('<>'.includes(ch)) continue; // inert turns these into ‹ ›
      const out = escapeMarkdown(`a${ch}b`);
      assert.equal(out, /[A-Za-z0-9]/.test(ch) ? `a${ch}b` : `a\\${ch}b`, ch);
    }
  });

  it('ends a message with a full stop only when it has no closing punctuation', () => {
    assert.equal(asSentence('Database unavailable'), 'Database unavailable.');
    assert.equal(asSentence('  Done.  '), 'Done.');
    for (const ended of ['Why?', 'Stop!', 'Wait…', 'HTTP 500 (E_X)']) assert.equal(asSentence(ended), ended);
  });
});
