/// <reference lib="dom" />
/**
 * The page of the "Flow Insights" panel (a webview): a table per flow of runs, median, p95, p99, runs per day, the
 * last 24 hours and slower than usual in words; each flow's daily trend and runs per hour in a disclosure (a summary
 * the keyboard opens). Bundled by esbuild into dist/webview/insights.js and insights.css; the extension side is
 * src/insights/vscode/insightsPanel.ts, the page's data src/insights/insightsPage.ts. It keeps the page it was sent
 * (insightsState.ts): the whole page when it loads, then each update merged in (only what changed), and draws it.
 *
 * It holds no words of its own and treats every text as text: textContent only, never markup.
 */
import '../../base/webviewPage.css';
import './insights.css';
import { el, startPage } from '../../base/webview/pageStart';
import type { InsightsPageMessage, InsightsPanelMessage } from '../insightsPage';
import {
  applyInsights,
  insightsGroups,
  type InsightsGroup,
  type InsightsRow,
  type InsightsState,
  type InsightsStrings,
} from '../insightsState';

const { vscode, violations } = startPage<InsightsPageMessage>('insights');

const app = document.getElementById('app') as HTMLElement;
/** A header cell with its scope (an attribute: `scope` is not a property every engine reflects). */
const th = (
  text: string,
  scope: 'col' | 'row' | 'rowgroup',
  extra: Partial<HTMLTableCellElement> = {},
): HTMLTableCellElement => {
  const cell = el('th', extra, text);
  cell.setAttribute('scope', scope);
  return cell;
};

/** Where the page was scrolled (kept across hiding and reloads: VS Code hands it back), bounded. */
const keptScroll = (() => {
  const scroll = (vscode.getState() as { scroll?: unknown } | undefined)?.scroll;
  return typeof scroll === 'number' && scroll > 0 && scroll < 10_000_000 ? scroll : 0;
})();
let scrolledBack = keptScroll === 0;
let scrollTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('scroll', () => {
  clearTimeout(scrollTimer);
  scrollTimer = setTimeout(() => vscode.setState({ scroll: Math.round(window.scrollY) }), 100);
});

/** The page as sent so far (undefined until the whole page arrives). */
let state: InsightsState | undefined;

window.addEventListener('message', (event: MessageEvent<InsightsPanelMessage>) => {
  const message = event.data;
  if (!message || typeof message !== 'object' || message.type !== 'insights') return;
  const next = applyInsights(state, message);
  if (!next) {
    // An update of a page this one does not hold: ask for the whole page.
    state = undefined;
    vscode.postMessage({ type: 'ready' });
    return;
  }
  state = next;
  render(next);
});
vscode.postMessage({ type: 'ready' });

/** Each trend's key: an open trend stays open, a focused one focused, when the page is drawn again (an update). */
const trendKeys = new WeakMap<HTMLDetailsElement, string>();

function render(page: InsightsState): void {
  const s = page.strings;
  const { groups } = insightsGroups(page);
  document.title = s.heading;
  const open = new Set<string>();
  app.querySelectorAll('details').forEach((details) => {
    const key = trendKeys.get(details);
    if (details.open && key !== undefined) open.add(key);
  });
  const focused = document.activeElement;
  const focusedTrend =
    focused?.tagName === 'SUMMARY' ? trendKeys.get(focused.parentElement as HTMLDetailsElement) : undefined;
  const regionFocused = focused instanceof HTMLElement && focused.classList.contains('table-region');
  let focusAgain: HTMLElement | undefined;
  const parts: Node[] = [el('h1', {}, s.heading), el('p', { className: 'intro' }, s.intro)];
  let rows = 0;
  if (groups.length === 0) {
    parts.push(el('p', { className: 'empty' }, s.empty));
  } else {
    const head = el(
      'tr',
      {},
      th(s.flow, 'col'),
      ...(page.several ? [th(s.service, 'col')] : []),
      ...[s.runs, s.median, s.p95, s.p99, s.perDay, s.last24, s.usual].map((h) => th(h, 'col')),
    );
    const table = el('table', { className: 'flows' }, el('caption', {}, s.caption), el('thead', {}, head));
    for (const group of groups) {
      table.append(groupBody(group, page.several));
      rows += group.rows.length;
    }
    const region = el('div', { className: 'table-region', tabIndex: 0, role: 'region', ariaLabel: s.caption }, table);
    if (regionFocused) focusAgain = region;
    parts.push(region);
    parts.push(el('h2', {}, s.trendSummary));
    groups.forEach((group) =>
      group.rows.forEach((row) => {
        const details = trend(row, s);
        // The same trend while its flow and service are (an open one stays open as updates arrive).
        const key = `${group.flow}\u0000${row.service ?? ''}`;
        trendKeys.set(details, key);
        details.open = open.has(key);
        if (key === focusedTrend) focusAgain = details.querySelector('summary') ?? undefined;
        parts.push(details);
      }),
    );
  }
  app.replaceChildren(...parts);
  focusAgain?.focus();
  app.setAttribute('aria-busy', 'false');
  if (!scrolledBack) {
    scrolledBack = true;
    window.scrollTo(0, keptScroll);
  }
  vscode.postMessage({ type: 'rendered', rows, violations: [...violations] });
}

/** One flow: a body of its own, the flow's name a header over its services' rows (side by side). */
function groupBody(group: InsightsGroup, several: boolean): HTMLTableSectionElement {
  const body = el('tbody');
  group.rows.forEach((row, i) => {
    const tr = el('tr', { className: row.slower ? 'slower' : '' });
    if (i === 0) tr.append(th(group.flow, several ? 'rowgroup' : 'row', { rowSpan: group.rows.length }));
    if (several) tr.append(th(row.service ?? '', 'row'));
    for (const value of [row.runs, row.median, row.p95, row.p99, row.perDay, row.last24]) {
      tr.append(el('td', { className: 'number' }, value));
    }
    tr.append(el('td', { className: row.slower ? 'usual slower-text' : 'usual' }, row.usual));
    body.append(tr);
  });
  return body;
}

/** A flow's daily trend and runs per hour, in a disclosure the keyboard opens (Enter or Space on its summary). */
function trend(row: InsightsRow, s: InsightsStrings): HTMLDetailsElement {
  const name = row.service !== undefined ? `${row.flow} · ${row.service}` : row.flow;
  const days = el(
    'table',
    {},
    el('caption', {}, `${s.trendCaption}: ${name}`),
    el('thead', {}, el('tr', {}, ...[s.day, s.runs, s.median, s.p95].map((h) => th(h, 'col')))),
  );
  const dayBody = el('tbody');
  for (const d of row.days) {
    dayBody.append(
      el('tr', {}, th(d.day, 'row'), ...[d.runs, d.median, d.p95].map((v) => el('td', { className: 'number' }, v))),
    );
  }
  days.append(dayBody);
  const hours = el(
    'table',
    {},
    el('caption', {}, `${s.perHourCaption}: ${name}`),
    el('thead', {}, el('tr', {}, th(s.hour, 'col'), th(s.runs, 'col'))),
  );
  const hourBody = el('tbody');
  for (const [hour, runs] of row.perHour) {
    hourBody.append(el('tr', {}, th(hour, 'row'), el('td', { className: 'number' }, runs)));
  }
  hours.append(hourBody);
  return el(
    'details',
    {},
    el('summary', {}, name, row.slower ? ` — ${row.usual}` : ''),
    el('div', { className: 'trend' }, days, hours),
  );
}
