/// <reference lib="dom" />
/**
 * The page of the "Flow Sync Activity" panel (a webview): a stacked bar chart of the flow syncs processing per flow
 * over time (drawn on a canvas, laid out by ./barChart.ts), and the same numbers as a table for screen readers and keyboard users. Bundled by esbuild into
 * dist/webview/activity.js (a browser IIFE) and dist/webview/activity.css; the extension side is
 * src/activity/vscode/activityPanel.ts, the messages are in src/activity/activityMessages.ts.
 *
 * It holds no words of its own (they come localized in the 'init' message) and treats every flow name as text:
 * names go into textContent and attributes only, never into markup.
 */
import { own } from '../../base/own';
import '../../base/webviewPage.css';
import './activity.css';
import { el, startPage } from '../../base/webview/pageStart';
import { ACTIVITY_RANGE_ORDER, type ActivityRange, type ActivitySeries } from '../activityData';
import { hasActivity, type ActivityStrings, type PageMessage, type PanelMessage } from '../activityMessages';
import * as layout from './barChart';
import { timeTicks } from '../../base/webview/timeTicks';

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
let chart: Chart | undefined;
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
  if (own(message, 'type') === 'keep') {
    keep({ host: own(message, 'keep') }); // what the panel keeps here for a restore
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
    chart = undefined;
    chartBox.replaceChildren();
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

function chartSize(): { width: number; height: number } {
  const width = Math.max(200, Math.floor(chartBox.clientWidth || document.body.clientWidth || 600));
  const height = Math.max(160, Math.min(420, Math.round(window.innerHeight * 0.5)));
  return { width, height };
}

/** The theme's font and colours the chart draws with (VS Code's, or fallbacks outside a themed page). */
interface ChartTheme {
  font: string;
  fontPx: number;
  foreground: string;
  grid: string;
  background: string;
}

function chartTheme(): ChartTheme {
  const style = getComputedStyle(document.body);
  return {
    font: `${style.fontSize || '13px'} ${style.fontFamily || 'sans-serif'}`,
    fontPx: Math.min(40, Math.max(8, parseFloat(style.fontSize) || 13)),
    foreground: cssVar(['--vscode-foreground', '#cccccc']),
    grid: cssVar(['--vscode-charts-lines', 'rgba(128, 128, 128, 0.35)']),
    background: cssVar(['--vscode-editor-background', '#1e1e1e']),
  };
}

/** The drawn chart: its canvas, legend and hover line, and the layout the pointer is read against. */
interface Chart {
  canvas: HTMLCanvasElement;
  cursor: HTMLElement;
  legendTime: HTMLElement;
  legendValues: HTMLElement[];
  legend: HTMLElement;
  plot: layout.Rect;
  min: number;
  max: number;
  step: number;
  hovered: number | undefined;
}

const TICK = 6;

/** Builds the chart's parts (canvas, hover line, legend) for the current series and draws it. */
function drawChart(): void {
  if (!state) return;
  const { series, strings } = state;
  const fmt = formatters(state.locale, series.range);
  const fills = colours(series);
  const canvas = el('canvas');
  const cursor = el('div', { className: 'cursor', hidden: true });
  const plotBox = el('div', { className: 'plot' }, canvas, cursor);
  const legendTime = el('span', { className: 'legend-value' });
  const legendValues: HTMLElement[] = [];
  const item = (name: string, value: HTMLElement, colour?: string) => {
    const swatch = el('span', { className: 'swatch' });
    if (colour) swatch.style.background = colour;
    else swatch.hidden = true;
    return el(
      'span',
      { className: 'legend-item' },
      swatch,
      el('span', { className: 'legend-name', textContent: name }),
      value,
    );
  };
  const legend = el(
    'div',
    { className: 'legend' },
    item(strings.time, legendTime),
    ...series.flows.map((flow, f) => {
      const value = el('span', { className: 'legend-value' });
      legendValues.push(value);
      return item(flow.name, value, fills[f]);
    }),
  );
  legend.setAttribute('aria-hidden', 'true'); // the table says the same
  chartBox.replaceChildren(plotBox, legend);
  const step = layout.bucketLength(series.times, { hour: 60_000, day: 15 * 60_000, week: 3_600_000 }[series.range]);
  chart = {
    canvas,
    cursor,
    legend,
    legendTime,
    legendValues,
    plot: { left: 0, top: 0, width: 1, height: 1 },
    min: series.times[0],
    max: series.times[series.times.length - 1] + step,
    step,
    hovered: undefined,
  };
  canvas.addEventListener('pointermove', (e) => hover(bucketAtPointer(e)));
  canvas.addEventListener('pointerleave', () => hover(undefined));
  lastSize = '';
  paint(fmt, fills);
  hover(undefined);
}

/** Draws the axes, the grid and the stacked bars on the chart's canvas at the panel's size, in the theme's colours. */
function paint(fmt = formatters(state?.locale, state?.series.range ?? 'hour'), fills?: string[]): void {
  if (!chart || !state) return;
  const { series, strings } = state;
  const size = chartSize();
  lastSize = sizeKey(size);
  const { canvas, min, max, step } = chart;
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(size.width * ratio);
  canvas.height = Math.round(size.height * ratio);
  canvas.style.width = `${size.width}px`;
  canvas.style.height = `${size.height}px`;
  const context = canvas.getContext('2d');
  if (!context) return;
  const theme = chartTheme();
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, size.width, size.height);
  context.font = theme.font;
  const textWidth = (text: string) => context.measureText(text).width;

  const stacks = layout.stackCounts(series.flows, series.times.length);
  const top = layout.countTop(stacks);
  // the count labels' width depends on the ticks, the ticks on the plot's height, which the axes leave: the widest
  // label a tick of this scale can have is measured on the scale's top
  const widest = (ticks: number[]) => ticks.reduce((m, v) => Math.max(m, textWidth(fmt.number(v))), 0);
  const lineHeight = Math.ceil(theme.fontPx * 1.25);
  const guess = layout.plotArea(size.width, size.height, {
    countLabelWidth: 0,
    lineHeight,
    hasTitle: true,
    tickLength: TICK,
  });
  const yTicks = layout.countTicks(top, guess.height, 30);
  const plot = layout.plotArea(size.width, size.height, {
    countLabelWidth: widest(yTicks),
    lineHeight,
    hasTitle: true,
    tickLength: TICK,
  });
  chart.plot = plot;
  const x = layout.linearScale(min, max, plot.left, plot.left + plot.width);
  const y = layout.linearScale(0, top, plot.top + plot.height, plot.top);
  // as far apart as the widest label needs, so labels never overlap in a narrow panel
  const space = Math.ceil(series.times.reduce((m, t) => Math.max(m, textWidth(fmt.axis(t))), 0)) + 24;
  const xTicks = timeTicks(min, max, plot.width, space, (ms) => -new Date(ms).getTimezoneOffset() * 60_000);

  const axes: Axes = { plot, x, y, yTicks, xTicks, lineHeight, width: size.width };
  drawGrid(context, axes, theme.grid);
  // Team History: the stretches nobody watched, shaded behind the bars (the sentence above the chart says them).
  shadeGaps(context, series.gaps ?? [], axes, theme.foreground);

  // the bars, each stacked part in its flow's colour with a thin gap in the background's around it
  const colourOf = fills ?? colours(series);
  for (const part of layout.barParts(stacks, series.times, step, x, y)) {
    context.fillStyle = colourOf[part.flow];
    context.fillRect(part.left, part.top, part.width, part.height);
    if (part.width > 2 && part.height > 2) {
      context.strokeStyle = theme.background;
      context.strokeRect(part.left + 0.5, part.top + 0.5, part.width - 1, part.height - 1);
    }
  }

  drawLabels(context, axes, fmt, strings.yAxis, theme.foreground);
  chart.cursor.style.top = `${plot.top}px`;
  chart.cursor.style.height = `${plot.height}px`;
  if (chart.hovered !== undefined) placeCursor(chart.hovered);
}

/** Where the axes go: the plot, its scales and ticks, the labels' line height and the canvas's width. */
interface Axes {
  plot: layout.Rect;
  x: (ms: number) => number;
  y: (count: number) => number;
  yTicks: number[];
  xTicks: number[];
  lineHeight: number;
  width: number;
}

/** Team History's stretches nobody watched ([from, to] in ms), a light shade of the foreground over the plot's height. */
function shadeGaps(
  context: CanvasRenderingContext2D,
  gaps: ReadonlyArray<readonly [number, number]>,
  { plot, x }: Axes,
  colour: string,
): void {
  if (!gaps.length) return;
  context.save();
  context.globalAlpha = 0.12;
  context.fillStyle = colour;
  for (const [from, to] of gaps) {
    const left = Math.max(plot.left, x(from));
    const right = Math.min(plot.left + plot.width, x(to));
    if (right > left) context.fillRect(left, plot.top, right - left, plot.height);
  }
  context.restore();
}

/** The grid lines and the ticks beside the labels, in the theme's chart lines colour. */
function drawGrid(context: CanvasRenderingContext2D, { plot, x, y, yTicks, xTicks }: Axes, colour: string): void {
  context.strokeStyle = colour;
  context.lineWidth = 1;
  context.beginPath();
  for (const v of yTicks) {
    const py = Math.round(y(v)) + 0.5;
    context.moveTo(plot.left - TICK, py);
    context.lineTo(plot.left + plot.width, py);
  }
  for (const t of xTicks) {
    const px = Math.round(x(t)) + 0.5;
    context.moveTo(px, plot.top);
    context.lineTo(px, plot.top + plot.height + TICK);
  }
  context.stroke();
}

/** The counts beside the plot, the times below it (kept inside the canvas) and the count axis's title, turned. */
function drawLabels(context: CanvasRenderingContext2D, axes: Axes, fmt: Formatters, title: string, colour: string) {
  const { plot, x, y, yTicks, xTicks, lineHeight, width } = axes;
  context.fillStyle = colour;
  context.textBaseline = 'middle';
  context.textAlign = 'right';
  for (const v of yTicks) context.fillText(fmt.number(v), plot.left - TICK - 3, Math.round(y(v)));
  context.textAlign = 'left';
  context.textBaseline = 'top';
  for (const t of xTicks) {
    const label = fmt.axis(t);
    context.fillText(
      label,
      layout.clampLabel(x(t), context.measureText(label).width, width),
      plot.top + plot.height + TICK + 3,
    );
  }
  context.save();
  context.translate(lineHeight / 2 + 1, plot.top + plot.height / 2);
  context.rotate(-Math.PI / 2);
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillText(title, 0, 0);
  context.restore();
}

function bucketAtPointer(e: PointerEvent): number | undefined {
  if (!chart || !state) return undefined;
  const box = chart.canvas.getBoundingClientRect();
  return layout.bucketAt(e.clientX - box.left, chart.plot, chart.min, chart.max, state.series.times, chart.step);
}

/** The legend shows the hovered bucket's time and each flow's own count (not the stacked sum); idle, the names only. */
function hover(bucket: number | undefined): void {
  if (!chart || !state) return;
  const { series } = state;
  chart.hovered = bucket;
  const fmt = formatters(state.locale, series.range);
  chart.legend.classList.toggle('legend-idle', bucket === undefined);
  chart.legendTime.textContent = bucket === undefined ? '' : fmt.full(series.times[bucket]);
  series.flows.forEach((flow, f) => {
    chart!.legendValues[f].textContent = bucket === undefined ? '' : fmt.number(flow.counts[bucket] ?? 0);
  });
  chart.cursor.hidden = bucket === undefined;
  if (bucket !== undefined) placeCursor(bucket);
}

function placeCursor(bucket: number): void {
  if (!chart || !state) return;
  const { plot, min, max, step } = chart;
  const x = layout.linearScale(min, max, plot.left, plot.left + plot.width);
  chart.cursor.style.left = `${Math.round(x(state.series.times[bucket] + (step * layout.BAR_FILL) / 2))}px`;
}

interface Formatters {
  axis(ms: number): string;
  row(ms: number): string;
  full(ms: number): string;
  number(n: number): string;
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
/** The canvas's size and the screen's pixel ratio it was drawn for (a zoom or another screen draws it again, sharp). */
const sizeKey = (size: { width: number; height: number }) =>
  `${size.width}x${size.height}@${window.devicePixelRatio || 1}`;
function resize(): void {
  if (!chart) return;
  const size = chartSize();
  if (sizeKey(size) === lastSize) return;
  paint();
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
