/// <reference lib="dom" />
/**
 * The page of the "Flow Sync Activity" panel (a webview): a stacked bar chart of the flow syncs processing per flow
 * over time (uPlot), and the same numbers as a table for screen readers and keyboard users. Bundled by esbuild into
 * dist/webview/activity.js (a browser IIFE) and dist/webview/activity.css; the extension side is
 * src/activity/vscode/activityPanel.ts, the messages are in src/activity/activityMessages.ts.
 *
 * It holds no words of its own (they come localized in the 'init' message) and treats every flow name as text:
 * names go into textContent and attributes only, never into markup.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import '../../base/webviewPage.css';
import './activity.css';
import { el, startPage } from '../../base/webview/pageStart';
import { ACTIVITY_RANGE_ORDER, type ActivityRange, type ActivitySeries } from '../activityData';
import { hasActivity, type ActivityStrings, type PageMessage, type PanelMessage } from '../activityMessages';

const { vscode, violations } = startPage<PageMessage>('activity');

/** Theme colours for the flows, in order ("Other" takes a neutral one): VS Code's chart colours. */
const PALETTE: Array<[variable: string, fallback: string]> = [
  ['--vscode-charts-blue', '#3794ff'],
  ['--vscode-charts-orange', '#d18616'],
  ['--vscode-charts-green', '#89d185'],
  ['--vscode-charts-purple', '#b180d7'],
  ['--vscode-charts-red', '#f14c4c'],
  ['--vscode-charts-yellow', '#cca700'],
];
const OTHER_COLOUR: [string, string] = ['--vscode-descriptionForeground', '#8b8b8b'];

interface State {
  strings: ActivityStrings;
  locale: string | undefined;
  series: ActivitySeries;
}

let state: State | undefined;
let chart: uPlot | undefined;
/** What the page keeps across hiding and reloads (VS Code hands it back, to the page and to the panel's restore). */
const kept: Record<string, unknown> = { ...(vscode.getState() as Record<string, unknown> | undefined) };
const keep = (patch: Record<string, unknown>) => vscode.setState(Object.assign(kept, patch));
let tableShown = kept.table === true;

const app = document.getElementById('app') as HTMLElement;

// The page's parts, filled in by init().
const heading = el('h1');
const rangeGroup = el('div', { className: 'ranges' });
const rangeButtons = new Map<ActivityRange, HTMLButtonElement>();
const tableToggle = el('button', { type: 'button', className: 'toggle' });
const errorLine = el('p', { className: 'error', hidden: true });
const emptyLine = el('p', { className: 'empty', hidden: true });
/** Team History: when nobody watched, in words (text only: never markup). */
const unwatchedLine = el('p', { className: 'unwatched', hidden: true });
const chartBox = el('div', { id: 'chart', className: 'chart' });
const chartHint = el('p', { id: 'chart-hint', className: 'visually-hidden' });
const figure = el('div', { className: 'figure' }, chartBox, chartHint);
const table = el('table');
const tableRegion = el('div', { id: 'activity-table', className: 'table-region', tabIndex: 0 }, table);

window.addEventListener('message', (event: MessageEvent<PanelMessage>) => {
  const message = event.data;
  if (!message || typeof message !== 'object') return;
  if ((message as { type: string }).type === 'keep') {
    keep({ host: (message as unknown as { keep: unknown }).keep }); // what the panel keeps here for a restore
  } else if (message.type === 'init') {
    init(message.strings, message.locale);
    show(message.series);
    // the range shown before a reload: asked for again
    const range = kept.range;
    if (
      typeof range === 'string' &&
      range !== message.series.range &&
      ACTIVITY_RANGE_ORDER.includes(range as ActivityRange)
    ) {
      pressRange(range as ActivityRange);
      vscode.postMessage({ type: 'range', range: range as ActivityRange });
    }
  } else if (message.type === 'series' && state) {
    show(message.series);
  } else if (message.type === 'error' && state) {
    errorLine.textContent = message.message;
    errorLine.hidden = false;
  }
});
vscode.postMessage({ type: 'ready' });

function init(strings: ActivityStrings, locale: string): void {
  state = { strings, locale: validLocale(locale), series: { range: 'hour', times: [], flows: [] } };
  heading.textContent = strings.heading;
  rangeGroup.setAttribute('role', 'group');
  rangeGroup.setAttribute('aria-label', strings.rangeGroup);
  rangeGroup.replaceChildren();
  rangeButtons.clear();
  for (const range of ACTIVITY_RANGE_ORDER) {
    const button = el('button', { type: 'button', textContent: strings.ranges[range] });
    button.addEventListener('click', () => {
      if (state?.series.range === range) return;
      pressRange(range);
      vscode.postMessage({ type: 'range', range });
    });
    rangeButtons.set(range, button);
    rangeGroup.append(button);
  }
  tableToggle.setAttribute('aria-controls', tableRegion.id);
  tableToggle.onclick = () => {
    tableShown = !tableShown;
    keep({ table: tableShown });
    layoutTable();
  };
  chartBox.setAttribute('role', 'img');
  chartBox.setAttribute('aria-describedby', chartHint.id);
  chartHint.textContent = strings.chartHint;
  errorLine.setAttribute('role', 'alert');
  emptyLine.setAttribute('role', 'status');
  emptyLine.textContent = strings.empty;
  app.replaceChildren(
    el('header', {}, heading, rangeGroup, tableToggle),
    errorLine,
    emptyLine,
    unwatchedLine,
    figure,
    tableRegion,
  );
  app.setAttribute('aria-busy', 'false');
}

function pressRange(range: ActivityRange): void {
  for (const [r, button] of rangeButtons) button.setAttribute('aria-pressed', String(r === range));
}

function show(series: ActivitySeries): void {
  if (!state) return;
  state.series = series;
  keep({ range: series.range });
  errorLine.hidden = true;
  pressRange(series.range);
  const caption = state.strings.captions[series.range];
  chartBox.setAttribute('aria-label', caption);
  const any = hasActivity(series);
  emptyLine.hidden = any;
  unwatchedLine.textContent = series.unwatched ?? '';
  unwatchedLine.hidden = !series.unwatched;
  figure.hidden = !any;
  tableToggle.hidden = !any;
  if (any) {
    drawChart();
    fillTable(caption);
  } else {
    chart?.destroy();
    chart = undefined;
    table.replaceChildren();
  }
  layoutTable();
  vscode.postMessage({
    type: 'rendered',
    range: series.range,
    flows: series.flows.length,
    buckets: series.times.length,
    chart: any,
    violations: [...violations],
  });
}

function layoutTable(): void {
  if (!state) return;
  tableToggle.textContent = tableShown ? state.strings.hideTable : state.strings.showTable;
  tableToggle.setAttribute('aria-expanded', String(tableShown));
  tableRegion.hidden = !tableShown || tableToggle.hidden;
}

// ---- the chart ------------------------------------------------------------------------------------------------

function cssVar([name, fallback]: [string, string]): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

function colours(series: ActivitySeries): string[] {
  let next = 0;
  return series.flows.map((flow) => cssVar(flow.other ? OTHER_COLOUR : PALETTE[next++ % PALETTE.length]));
}

/** Cumulative sums, first flow at the bottom: series i (1-based in uPlot) tops at the sum of flows 1..i. */
function stacked(series: ActivitySeries): number[][] {
  const sums = series.times.map(() => 0);
  return series.flows.map((flow) => flow.counts.map((count, i) => (sums[i] += count)));
}

/** The bucket length: the smallest step between buckets (or a guess from the range for a single bucket). */
function bucketMs(series: ActivitySeries): number {
  let step = Infinity;
  for (let i = 1; i < series.times.length; i++) step = Math.min(step, series.times[i] - series.times[i - 1]);
  if (Number.isFinite(step) && step > 0) return step;
  return { hour: 60_000, day: 15 * 60_000, week: 3_600_000 }[series.range];
}

function chartSize(): { width: number; height: number } {
  const width = Math.max(200, Math.floor(chartBox.clientWidth || document.body.clientWidth || 600));
  const height = Math.max(160, Math.min(420, Math.round(window.innerHeight * 0.5)));
  return { width, height };
}

/** The theme's font and colours the chart draws with (VS Code's, or fallbacks outside a themed page). */
interface ChartTheme {
  font: string;
  foreground: string;
  grid: string;
  background: string;
}

function chartTheme(): ChartTheme {
  const style = getComputedStyle(document.body);
  return {
    font: `${style.fontSize || '13px'} ${style.fontFamily || 'sans-serif'}`,
    foreground: cssVar(['--vscode-foreground', '#cccccc']),
    grid: cssVar(['--vscode-charts-lines', 'rgba(128, 128, 128, 0.35)']),
    background: cssVar(['--vscode-editor-background', '#1e1e1e']),
  };
}

/** The time axis below and the count axis beside the chart, in the theme's font and colours. */
function chartAxes(series: ActivitySeries, strings: ActivityStrings, fmt: Formatters, theme: ChartTheme): uPlot.Axis[] {
  const { font, foreground, grid } = theme;
  return [
    {
      font,
      stroke: foreground,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
      // as far apart as the widest label needs, so labels never overlap in a narrow panel
      space: labelSpace(
        font,
        series.times.map((v) => fmt.axis(v)),
      ),
      values: (_u, splits) => splits.map((v) => fmt.axis(v)),
    },
    {
      font,
      labelFont: font,
      label: strings.yAxis,
      stroke: foreground,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
      // counts may be averages over a bucket: tenths are the finest step (the table shows one decimal too)
      incrs: [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000],
      values: (_u, splits) => splits.map((v) => fmt.number(v)),
    },
  ];
}

/** uPlot's series: the time, then one stacked bar series per flow in its colour (the legend shows its own count). */
function chartSeries(series: ActivitySeries, strings: ActivityStrings, fmt: Formatters, gap: string): uPlot.Series[] {
  const fills = colours(series);
  return [
    { label: strings.time, value: (_u, v) => (v == null ? '' : fmt.full(v)) },
    ...series.flows.map((flow, f) => ({
      label: flow.name,
      fill: fills[f],
      stroke: gap, // a thin gap between the stacked parts
      width: 1,
      points: { show: false },
      paths: uPlot.paths.bars!({ size: [0.9, Infinity, 1], align: 1 }),
      // the legend shows each flow's own count, not the stacked sum
      value: (_u: uPlot, _v: number | null, _s: number, i: number | null) =>
        i == null ? '' : fmt.number(flow.counts[i] ?? 0),
    })),
  ];
}

function drawChart(): void {
  if (!state) return;
  const { series, strings } = state;
  const fmt = formatters(state.locale, series.range);
  const theme = chartTheme();
  const step = bucketMs(series);
  const last = series.times.length - 1;

  const options: uPlot.Options = {
    ...chartSize(),
    ms: 1,
    legend: { show: true, live: true },
    cursor: { y: false, points: { show: false }, drag: { x: false, y: false, setScale: false } },
    scales: {
      x: { time: true, range: () => [series.times[0], series.times[last] + step] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 1] },
    },
    axes: chartAxes(series, strings, fmt, theme),
    series: chartSeries(series, strings, fmt, theme.background),
    // each flow's bars span from the sum of the flows below it to its own sum
    bands: series.flows.slice(1).map((_flow, f) => ({ series: [f + 2, f + 1] as [number, number] })),
    // Nothing hovered: the legend names the flows only, without empty "Name:" slots (activity.css, .legend-idle).
    hooks: { setLegend: [(u) => idleLegend(u)], drawClear: [(u) => shadeGaps(u, series.gaps ?? [], theme.foreground)] },
  };
  chart?.destroy();
  chartBox.replaceChildren();
  lastSize = `${options.width}x${options.height}`;
  chart = new uPlot(options, [series.times, ...stacked(series)], chartBox);
  chart.root.querySelector('.u-legend')?.setAttribute('aria-hidden', 'true'); // the table says the same
  idleLegend(chart);
}

/** Team History: the stretches nobody watched, shaded behind the bars (the sentence above the chart says them). */
function shadeGaps(u: uPlot, gaps: ReadonlyArray<[number, number]>, colour: string): void {
  if (!gaps.length) return;
  const { ctx, bbox } = u;
  ctx.save();
  ctx.globalAlpha = 0.12;
  ctx.fillStyle = colour;
  for (const [from, to] of gaps) {
    const left = Math.max(bbox.left, u.valToPos(from, 'x', true));
    const right = Math.min(bbox.left + bbox.width, u.valToPos(to, 'x', true));
    if (right > left) ctx.fillRect(left, bbox.top, right - left, bbox.height);
  }
  ctx.restore();
}

/** Marks the legend idle while no bucket is hovered: its values and their colons are hidden then. */
function idleLegend(u: uPlot): void {
  u.root.classList.toggle('legend-idle', u.legend.idx == null);
}

interface Formatters {
  axis(ms: number): string;
  row(ms: number): string;
  full(ms: number): string;
  number(n: number): string;
}

/** The least distance between x-axis ticks: the widest of the labels in `font`, and a gap. */
function labelSpace(font: string, labels: readonly string[]): number {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return 80;
  context.font = font;
  const widest = labels.reduce((max, label) => Math.max(max, context.measureText(label).width), 0);
  return Math.ceil(widest) + 24;
}

function validLocale(locale: string): string | undefined {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([locale]).length ? locale : undefined;
  } catch {
    return undefined;
  }
}

function formatters(locale: string | undefined, range: ActivityRange): Formatters {
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
  const day = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric' });
  const dayTime = new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  const full = new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const midnight = (ms: number) => {
    const d = new Date(ms);
    return d.getHours() === 0 && d.getMinutes() === 0;
  };
  return {
    axis: (ms) => (range !== 'hour' && midnight(ms) ? day.format(ms) : time.format(ms)),
    row: (ms) => (range === 'hour' ? time.format(ms) : dayTime.format(ms)),
    full: (ms) => full.format(ms),
    number: (n) => number.format(n),
  };
}

// ---- the table ------------------------------------------------------------------------------------------------

function fillTable(caption: string): void {
  if (!state) return;
  const { series, strings } = state;
  const fmt = formatters(state.locale, series.range);
  const col = (text: string) => el('th', { scope: 'col', textContent: text });
  const head = el('tr', {}, col(strings.time), ...series.flows.map((flow) => col(flow.name)), col(strings.total));
  const rows = series.times.map((time, i) => {
    const counts = series.flows.map((flow) => flow.counts[i] ?? 0);
    const total = counts.reduce((a, b) => a + b, 0);
    return el(
      'tr',
      {},
      el('th', { scope: 'row', textContent: fmt.row(time) }),
      ...counts.map((c) => el('td', { textContent: fmt.number(c) })),
      el('td', { textContent: fmt.number(total) }),
    );
  });
  const captionEl = el('caption', { id: 'activity-caption', textContent: caption });
  table.replaceChildren(captionEl, el('thead', {}, head), el('tbody', {}, ...rows));
  tableRegion.setAttribute('role', 'region');
  tableRegion.setAttribute('aria-labelledby', captionEl.id);
}

// ---- size and theme -------------------------------------------------------------------------------------------

let lastSize = '';
function resize(): void {
  if (!chart) return;
  const size = chartSize();
  const key = `${size.width}x${size.height}`;
  if (key === lastSize) return;
  lastSize = key;
  chart.setSize(size);
}
new ResizeObserver(() => resize()).observe(chartBox);
window.addEventListener('resize', () => resize());

// VS Code changes the body's class and the variables on <html> when the colour theme changes: redraw in its colours.
let themeFrame = 0;
const redraw = () => {
  cancelAnimationFrame(themeFrame);
  themeFrame = requestAnimationFrame(() => {
    if (chart && state) drawChart();
  });
};
new MutationObserver(redraw).observe(document.body, { attributes: true, attributeFilter: ['class'] });
new MutationObserver(redraw).observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
