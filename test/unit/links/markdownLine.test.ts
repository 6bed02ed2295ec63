import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { inert } from '../../../src/base/inert';
import { markdownAddress, markdownLine, markdownLines, type MarkdownRow } from '../../../src/links/markdownLine';

/** VS Code's Markdown preview renders with markdown-it, HTML on and links found in plain text (linkify). */
const preview = new MarkdownIt({ html: true, linkify: true });

/** What a renderer makes of Markdown: its blocks, links (their addresses), HTML, line breaks, marks and visible text. */
function rendered(markdown: string) {
  const blocks: string[] = [];
  const links: string[] = [];
  const html: string[] = [];
  const marks: string[] = [];
  const texts: string[] = [];
  let breaks = 0;
  let items = 0;
  for (const token of preview.parse(markdown, {})) {
    if (token.type === 'list_item_open') items++;
    if (token.type !== 'inline') {
      blocks.push(token.type);
      continue;
    }
    texts.push('');
    for (const child of token.children ?? []) {
      if (child.type === 'text') texts[texts.length - 1] += child.content;
      else if (child.type === 'link_open') links.push(child.attrGet('href') ?? '');
      else if (child.type === 'link_close') continue;
      else if (child.type === 'html_inline') html.push(child.content);
      else if (child.type === 'softbreak' || child.type === 'hardbreak') breaks++;
      else marks.push(child.type);
    }
  }
  return {
    blocks: blocks.filter((b) => b.startsWith('html') || !/_(open|close)$/.test(b)),
    links,
    html,
    marks,
    texts,
    breaks,
    items,
    all: blocks,
  };
}

/** What a row says in words, as it should read once rendered: its id, then every text made inert, joined. */
const visible = (row: MarkdownRow) =>
  [[row.id !== undefined ? `#${row.id}` : '', inert(row.name)].filter((p) => p.length > 0).join(' ')]
    .concat(row.parts.map((p) => inert(p)))
    .filter((p) => p.length > 0)
    .join(' · ');

/** A row whose title is linked: it has one (an id, or a name with something left once inert) and an http(s) address. */
const titled = (row: MarkdownRow) =>
  (row.id !== undefined || inert(row.name) !== '') && row.url !== undefined && markdownAddress(row.url) !== undefined;

const PAGE = 'https://app.example.com/flows/7/syncs/1003';

describe('markdownLine: a row as one line of Markdown (Copy as Markdown, issue #52 item 7)', () => {
  it('the link where the row has a page, then its words; plain text without one', () => {
    const row = { id: 1003, name: 'Invoices → Sheets', parts: ['pending', 'started 12 min ago'] };
    assert.equal(
      markdownLine({ ...row, url: PAGE }),
      `[#1003 Invoices → Sheets](${PAGE}) · pending · started 12 min ago`,
    );
    assert.equal(markdownLine(row), '#1003 Invoices → Sheets · pending · started 12 min ago');
    assert.equal(markdownLine({ name: 'Nightly export', parts: ['3 syncs'] }), 'Nightly export · 3 syncs');
  });

  it('service text is escaped in the link text and beside it: a link, an HTML tag, code and emphasis stay text', () => {
    const row = {
      id: 9,
      name: '[x](javascript:alert(1)) <img src=x onerror=alert(1)> `code` **bold** _em_ ~~s~~',
      parts: ['<script>alert(1)</script>', '| a | b |', 'www.example.com ops@example.com https://evil.example'],
    };
    for (const line of [markdownLine(row), markdownLine({ ...row, url: PAGE })]) {
      const out = rendered(line);
      assert.deepEqual(out.html, [], line);
      assert.deepEqual(out.marks, [], line);
      assert.deepEqual(out.links, line.startsWith('[') ? [PAGE] : [], line);
      assert.deepEqual(out.blocks, [], `one paragraph: ${out.all.join(' ')}`);
      assert.equal(out.texts.join(''), visible(row));
    }
  });

  it('a name that would start a block (a heading, a list, a quote, a code block) stays in one paragraph', () => {
    for (const name of [
      '# Heading',
      '1. first',
      '- item',
      '> quote',
      '    indented',
      '```',
      '---',
      '===',
      '+ x',
      '<div>',
    ]) {
      const out = rendered(markdownLine({ name, parts: ['x'] }));
      assert.deepEqual(out.all, ['paragraph_open', 'paragraph_close'], name);
      assert.equal(out.texts.join(''), visible({ name, parts: ['x'] }), name);
    }
  });

  it('a newline, a line separator or a carriage return in service text never breaks the line', () => {
    const row = { id: 1, name: 'a\nb\r\nc\u2028d\u2029e\u0085f', parts: ['x\n\ny', 'z\\'] };
    const line = markdownLine({ ...row, url: PAGE });
    assert.ok(!/[\n\r\u2028\u2029\u0085]/.test(line), JSON.stringify(line));
    assert.equal(rendered(line).breaks, 0);
  });

  it('its length is bounded whatever the service sends', () => {
    const line = markdownLine({ id: 1, name: 'x'.repeat(100_000), parts: ['*'.repeat(100_000)], url: PAGE });
    assert.ok(line.length < 2_000, String(line.length));
  });

  it('several rows: one line each, a list (each its own item)', () => {
    const rows = [
      { id: 1, name: 'A', parts: ['pending'], url: PAGE },
      { name: 'Nightly export', parts: ['3 syncs'] },
    ];
    const text = markdownLines(rows);
    assert.equal(text, `- [#1 A](${PAGE}) · pending\n- Nightly export · 3 syncs`);
    const out = rendered(text);
    assert.equal(out.items, 2);
    assert.deepEqual(out.links, [PAGE]);
    assert.equal(markdownLines([rows[1]]), 'Nightly export · 3 syncs', 'one row: its line alone');
  });
});

describe("markdownAddress: a page's address as a link's destination", () => {
  it('http and https only; anything else is no link', () => {
    assert.equal(markdownAddress(PAGE), PAGE);
    assert.equal(markdownAddress('http://localhost:8080/x'), 'http://localhost:8080/x');
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'vscode://x',
      'command:evil',
      'file:///etc',
      'not a url',
      '',
    ]) {
      assert.equal(markdownAddress(url), undefined, url);
    }
  });

  it('what would end or change the destination is percent-encoded: parentheses, brackets, spaces, quotes, backslashes, entities', () => {
    const address = markdownAddress('https://app.example.com/a(b)c[d]e/f\'g?h=<i> j&amp;k=\\l`m"n#o)p');
    assert.ok(address);
    assert.ok(!/[()[\]<>\s\\`"]/.test(address), address);
    assert.ok(!/&amp;/.test(address), address);
    const out = rendered(
      markdownLine({ id: 1, name: 'x', parts: [], url: 'https://app.example.com/a(b)c?q=1&amp;z)' }),
    );
    assert.equal(out.links.length, 1);
    assert.equal(new URL(out.links[0]).origin, 'https://app.example.com');
    assert.equal(out.texts.join(''), '#1 x', 'the link covers the title, nothing of the address shows');
  });
});

describe('Copy as Markdown: no service text can open a link, an HTML tag or break the line (property, markdown-it as VS Code renders)', () => {
  // Text rich in what Markdown and HTML read: brackets, parentheses, angle brackets, backticks, stars, newlines...
  const markup = fc.constantFrom(
    ...'[]()<>`*_~!#&;:/\\|"\'=\n\r\t\u2028\u2029 .@-+{}$'.split(''),
    'javascript:',
    'https://',
    'www.',
    '<img src=x>',
    '](',
    '&amp;',
    '&#106;',
    '<!--',
    '\u202e',
    '\u200b',
  );
  const serviceText = fc.oneof(
    fc.array(fc.oneof(markup, fc.string({ maxLength: 3 })), { maxLength: 30 }).map((parts) => parts.join('')),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
  );
  const row = fc.record(
    {
      id: fc.integer({ min: 0, max: 2 ** 53 - 1 }),
      name: serviceText,
      parts: fc.array(serviceText, { maxLength: 4 }),
      // An address as a template makes it (the person's text around the API's integers), whatever that text is.
      url: fc.oneof(
        fc.constantFrom(PAGE, 'https://app.example.com/teams/3/connections/12?x=(1)&y=[2]'),
        serviceText.map((text) => `https://app.example.com/${text}`),
      ),
    },
    { requiredKeys: ['name', 'parts'] },
  );

  it('each row renders as one paragraph of its words: only its own link, no HTML, no mark, no break', () => {
    fc.assert(
      fc.property(row, (r) => {
        const line = markdownLine(r);
        assert.ok(!/[\n\r]/.test(line));
        const out = rendered(line);
        assert.deepEqual(out.all, visible(r) ? ['paragraph_open', 'paragraph_close'] : [], line);
        assert.deepEqual(out.html, [], line);
        assert.deepEqual(out.marks, [], line);
        assert.equal(out.breaks, 0, line);
        assert.equal(out.links.length, titled(r) ? 1 : 0, line);
        for (const href of out.links) assert.equal(new URL(href).origin, 'https://app.example.com', line);
        assert.equal(out.texts.join(''), visible(r), line);
      }),
      { numRuns: 500 },
    );
  });

  it('several rows: a list of as many items, each one line', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 2, maxLength: 6 }), (all) => {
        const rows = all.filter((r) => visible(r) !== ''); // a row that says nothing gives no line
        const text = markdownLines(all);
        assert.equal(text === '' ? 0 : text.split('\n').length, rows.length);
        const out = rendered(text);
        assert.equal(out.items, rows.length > 1 ? rows.length : 0, text);
        assert.deepEqual(out.html, [], text);
        assert.deepEqual(out.marks, [], text);
        assert.equal(out.breaks, 0, text);
        assert.equal(out.links.length, rows.filter(titled).length, text);
        assert.deepEqual(out.texts, rows.map(visible), text);
      }),
      { numRuns: 200 },
    );
  });
});
