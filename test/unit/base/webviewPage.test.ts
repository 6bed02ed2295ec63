import * as assert from 'node:assert/strict';
import { makeNonce } from '../../../src/base/nonce';
import { webviewCsp, webviewHtml } from '../../../src/base/webviewPage';

const CSP_SOURCE = 'https://*.vscode-cdn.net';
const resources = {
  cspSource: CSP_SOURCE,
  nonce: makeNonce(),
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/activity.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/activity.css',
  lang: 'de',
  title: 'Flow Sync Activity',
};

/** The policy's directives, by name. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );
}

function cspOf(html: string): string {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(match, 'no Content-Security-Policy meta element');
  return match[1]
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

describe('a webview page (webviewHtml: the activity chart, Flow Insights)', () => {
  it('has a strict policy: nothing by default, scripts by nonce only, styles from the extension only, no remote origin', () => {
    const html = webviewHtml(resources);
    const csp = cspOf(html);
    assert.doesNotMatch(
      csp,
      /unsafe-inline|unsafe-eval|unsafe-hashes|wasm-unsafe-eval|strict-dynamic|\*\s|data:|blob:|https?:(?!\/\/\*\.vscode-cdn\.net)/,
    );
    const d = directives(csp);
    assert.deepEqual(d.get('default-src'), ["'none'"]);
    assert.deepEqual(d.get('script-src'), [`'nonce-${resources.nonce}'`]);
    assert.deepEqual(d.get('style-src'), [CSP_SOURCE]);
    assert.deepEqual(d.get('base-uri'), ["'none'"]);
    assert.deepEqual(d.get('form-action'), ["'none'"]);
    for (const [name, values] of d) {
      for (const v of values) {
        assert.ok(v === "'none'" || v === `'nonce-${resources.nonce}'` || v === CSP_SOURCE, `${name} allows ${v}`);
      }
    }
    assert.equal(csp, webviewCsp(CSP_SOURCE, resources.nonce));
  });

  it('every script element carries the nonce and loads the bundled page script; there is no inline script or handler', () => {
    const html = webviewHtml(resources);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    assert.equal(scripts.length, 1);
    for (const [, attributes, body] of scripts) {
      assert.match(attributes, new RegExp(`\\snonce="${resources.nonce}"`));
      assert.match(
        attributes,
        /\ssrc="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview\/activity\.js"/,
      );
      assert.equal(body.trim(), '');
    }
    assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no inline event handler');
    assert.doesNotMatch(html, /\sstyle\s*=/i, 'no inline style attribute');
    assert.doesNotMatch(html, /<style\b/i, 'no inline style element');
    assert.match(
      html,
      /<link rel="stylesheet" href="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview\/activity\.css">/,
    );
    assert.match(html, /<html lang="de">/);
  });

  it('escapes what it puts in the page, and a policy source cannot add directives', () => {
    const html = webviewHtml({
      ...resources,
      title: 'A <b>"x"</b> & \'y\'',
      lang: 'de"><script>',
      scriptUri: 'x" onload="alert(1)',
    });
    assert.match(html, /<title>A &lt;b&gt;&quot;x&quot;&lt;\/b&gt; &amp; &#39;y&#39;<\/title>/);
    assert.match(html, /<html lang="en">/, 'an odd language falls back to en');
    assert.match(html, /src="x&quot; onload=&quot;alert\(1\)"/);
    assert.equal([...html.matchAll(/<script/g)].length, 1);
    const csp = webviewCsp("https://a.example; script-src 'unsafe-inline'", resources.nonce);
    assert.equal(directives(csp).get('script-src')?.join(' '), `'nonce-${resources.nonce}'`);
    assert.equal(csp.split(';').length, 5);
  });

  it('refuses a weak nonce; makeNonce gives 128 random bits as 32 hex digits, different each time', () => {
    assert.throws(() => webviewHtml({ ...resources, nonce: 'abc' }));
    assert.throws(() => webviewHtml({ ...resources, nonce: `${'a'.repeat(16)}' 'unsafe-inline` }));
    const nonces = new Set(Array.from({ length: 50 }, () => makeNonce()));
    assert.equal(nonces.size, 50);
    for (const n of nonces) assert.match(n, /^[0-9a-f]{32}$/);
    assert.equal(
      makeNonce((b) => b.fill(255)),
      'f'.repeat(32),
    );
  });
});
