/**
 * The activity panel's page: its HTML shell, Content Security Policy and words. Pure (no vscode import), so it is
 * unit-tested in plain Node; src/activity/vscode/activityPanel.ts fills in what only VS Code knows (the webview's origin, URIs).
 *
 * The HTML holds no data and no words: the page script builds everything from the messages it receives (flow names
 * are set as text, never as markup), so nothing from the service ever reaches the HTML.
 */
import type { ActivityStrings } from './activityMessages';
import { t } from '../base/l10n';

export interface ActivityPageResources {
  /** webview.cspSource: the origin the webview loads the extension's files from. */
  cspSource: string;
  /** A fresh random token per page (makeNonce). */
  nonce: string;
  /** webview.asWebviewUri of dist/webview/activity.js and dist/webview/activity.css. */
  scriptUri: string;
  styleUri: string;
  /** vscode.env.language, e.g. "en", "de", "zh-cn". */
  lang: string;
  /** The document's title (localized). */
  title: string;
}

/**
 * The page's Content Security Policy: nothing by default; scripts only with the page's nonce (no inline handlers, no
 * eval); style sheets only from the extension's files (uPlot sets element styles through the CSSOM, which a policy
 * without 'unsafe-inline' allows); no images, fonts, frames, connections, forms or <base>. Measured in VS Code
 * (test/integration/activity.test.ts): the page reports no violation.
 */
export function activityCsp(cspSource: string, nonce: string): string {
  const source = cspSource.replace(/[;,"\r\n]/g, ' ').trim();
  return [
    `default-src 'none'`,
    `script-src 'nonce-${nonce}'`,
    `style-src ${source}`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join('; ');
}

export function activityHtml(r: ActivityPageResources): string {
  if (!/^[A-Za-z0-9+/_-]{16,}$/.test(r.nonce)) {
    throw new Error('activityHtml: the nonce must be at least 16 letters or digits');
  }
  const lang = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(r.lang) ? r.lang : 'en';
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(activityCsp(r.cspSource, r.nonce))}">
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

/** A random token for the policy's 'nonce-…' (32 hex digits, 128 bits from the platform's CSPRNG). */
export function makeNonce(
  fill: (bytes: Uint8Array) => Uint8Array = (bytes) => globalThis.crypto.getRandomValues(bytes),
): string {
  return Array.from(fill(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The page's words, localized (see ActivityStrings). */
export function activityStrings(): ActivityStrings {
  return {
    heading: t('Flow Sync Activity'),
    rangeGroup: t('Time range'),
    ranges: { hour: t('Hour'), day: t('Day'), week: t('Week') },
    captions: {
      hour: t('Flow syncs processing per flow, last hour'),
      day: t('Flow syncs processing per flow, last 24 hours'),
      week: t('Flow syncs processing per flow, last 7 days'),
    },
    chartHint: t('Stacked bars, one colour per flow. Show Table lists the same numbers.'),
    showTable: t('Show Table'),
    hideTable: t('Hide Table'),
    time: t('Time'),
    total: t('Total'),
    empty: t('No activity recorded yet in this time range.'),
    yAxis: t('Processing'),
  };
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
