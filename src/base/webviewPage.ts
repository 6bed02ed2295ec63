/**
 * The page of a webview panel (the activity chart, Flow Insights): its HTML shell and Content Security Policy. Pure
 * (no vscode import), so it is unit-tested in plain Node; each panel (src/activity/vscode/activityPanel.ts,
 * src/insights/vscode/insightsPanel.ts) fills in what only VS Code knows (the webview's origin, URIs).
 *
 * The HTML holds no data and no words: the page script builds everything from the messages it receives (flow names
 * are set as text, never as markup), so nothing from the service ever reaches the HTML.
 */

export interface WebviewPageResources {
  /** webview.cspSource: the origin the webview loads the extension's files from. */
  cspSource: string;
  /** A fresh random token per page (makeNonce, src/base/nonce.ts). */
  nonce: string;
  /** webview.asWebviewUri of the page's script and style sheet, e.g. dist/webview/activity.js and activity.css. */
  scriptUri: string;
  styleUri: string;
  /** vscode.env.language, e.g. "en", "de", "zh-cn". */
  lang: string;
  /** The document's title (localized). */
  title: string;
}

/**
 * The page's Content Security Policy: nothing by default; scripts only with the page's nonce (no inline handlers, no
 * eval); style sheets only from the extension's files (the activity chart sets element styles through the CSSOM,
 * which a policy without 'unsafe-inline' allows); no images, fonts, frames, connections, forms or <base>. Measured
 * in VS Code (test/integration/activity.test.ts): the page reports no violation.
 */
export function webviewCsp(cspSource: string, nonce: string): string {
  const source = cspSource.replace(/[;,"\r\n]/g, ' ').trim();
  return [
    `default-src 'none'`,
    `script-src 'nonce-${nonce}'`,
    `style-src ${source}`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join('; ');
}

export function webviewHtml(r: WebviewPageResources): string {
  if (!/^[A-Za-z0-9+/_-]{16,}$/.test(r.nonce)) {
    throw new Error('webviewHtml: the nonce must be at least 16 letters or digits');
  }
  const lang = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(r.lang) ? r.lang : 'en';
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(webviewCsp(r.cspSource, r.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(r.styleUri)}">
<title>${escapeHtml(r.title)}</title>
</head>
<body>
<main id="app" aria-busy="true"></main>
<script nonce="${r.nonce}" src="${escapeHtml(r.scriptUri)}"></script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
