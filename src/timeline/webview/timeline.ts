/// <reference lib="dom" />
/**
 * The page of the "Run Timeline" panel (a webview): one lane per flow, one bar per run, drawn on a canvas from the
 * layout of src/timeline/timelineLayout.ts (only the lanes and the window shown are laid out); the bar chosen is a
 * real button over its bar, with its accessible name, that the arrow keys move from bar to bar; a table lists the
 * runs of the window for screen readers. Bundled by esbuild into dist/webview/timeline.js and timeline.css; the
 * extension side is src/timeline/vscode/timelinePanel.ts, the messages src/timeline/timelineMessages.ts.
 *
 * It holds no words of its own and treats every text as text: textContent and attributes only, never markup.
 */
import '../../base/webviewPage.css';
import './timeline.css';
import { el, startPage } from '../../base/webview/pageStart';
import { timeTicks } from '../../base/webview/timeTicks';
import {
  RunIndex,
  clampWindow,
  firstRun,
  fitWindow,
  layoutBars,
  nearestInLane,
  neighbour,
  panWindow,
  runName,
  runWords,
  tableRuns,
  windowShowing,
  zoomWindow,
  type Bar,
  type Direction,
  type TimelineWindow,
} from '../timelineLayout';
import {
  RUN_FLAG,
  parseTimelineState,
  type RunAction,
  type TimelineData,
  type TimelinePageMessage,
  type TimelinePanelMessage,
} from '../timelineMessages';
import type { TimelineStrings } from '../timelineStrings';

const { vscode, violations } = startPage<TimelinePageMessage>('timeline');

const LANE_HEIGHT = 26;
const AXIS_HEIGHT = 24;
const MAX_LANES_SHOWN = 14;
const MAX_TABLE_ROWS = 500;

const fill = (template: string, ...args: Array<string | number>) =>
  template.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : m));

const app = document.getElementById('app') as HTMLElement;

/** What the page holds: its words, the data, the index of the runs, the window, the lanes scrolled, the run chosen. */
let strings: TimelineStrings | undefined;
let locale: string | undefined;
let data: TimelineData | undefined;
let index: RunIndex | undefined;
const kept = vscode.getState() as Record<string, unknown> | undefined;
const start = parseTimelineState(kept, Date.now());
let view: TimelineWindow | undefined =
  start.start !== undefined && start.span !== undefined ? { start: start.start, span: start.span } : undefined;
let scroll = start.scroll ?? 0;
let tableShown = start.table === true;
let hostKept = typeof kept?.host === 'object' && kept.host !== null ? kept.host : undefined;
let chosen: number | undefined;

// The page's parts, made once the words arrive.
const heading = el('h1');
const picker = el('select', { id: 'service' });
const pickerLabel = el('label', { htmlFor: 'service' });
const pickerBox = el('div', { className: 'picker' }, pickerLabel, picker);
const controls = el('div', { className: 'controls' });
const filterLine = el('p', { className: 'filter' });
const hint = el('p', { className: 'hint', id: 'timeline-hint' });
const chart = el('div', { className: 'chart' });
const labels = el('div', { className: 'labels' });
const canvas = el('canvas');
const plot = el('div', { className: 'plot' }, canvas);
const emptyLine = el('p', { className: 'empty' });
const moreLine = el('p', { className: 'more' });
const actions = el('div', { className: 'actions' });
const tableToggle = el('button', { type: 'button', className: 'toggle' });
const table = el('table');
const tableRegion = el('div', { className: 'table-region', id: 'timeline-table', tabIndex: 0, role: 'region' }, table);
let barButton: HTMLButtonElement | undefined;
const actionButtons = new Map<RunAction, HTMLButtonElement>();
canvas.setAttribute('aria-hidden', 'true');
chart.append(labels, plot);
chart.setAttribute('role', 'group');
chart.tabIndex = -1;
chart.setAttribute('aria-describedby', hint.id);

window.addEventListener('message', (event: MessageEvent<TimelinePanelMessage | { type: 'keep'; keep: unknown }>) => {
  const message = event.data;
  if (!message || typeof message !== 'object') return;
  if (message.type === 'keep') {
    const keep = message.keep;
    if (typeof keep === 'object' && keep !== null) hostKept = keep;
    keepState();
  } else if (message.type === 'timeline') {
    receive(message);
  }
});
vscode.postMessage({ type: 'ready' });

function receive(message: TimelinePanelMessage): void {
  const first = strings === undefined;
  strings = message.strings;
  locale = validLocale(message.locale);
  const previous = data;
  data = message.data;
  index = new RunIndex(data.runs, data.lanes.length, data.now);
  if (first) build(strings);
  if (previous && previous.service !== data.service) chosen = undefined;
  if (chosen !== undefined && (previous?.runs.id[chosen] !== data.runs.id[chosen] || chosen >= index.size)) {
    chosen = findRun(previous, chosen);
  }
  const restored = first && !kept ? message.restored : undefined;
  if (restored) {
    // a restored panel whose page kept nothing (the host's copy of the state, checked there)
    if (restored.start !== undefined && restored.span !== undefined) {
      view = { start: restored.start, span: restored.span };
    }
    scroll = restored.scroll ?? scroll;
    tableShown = restored.table ?? tableShown;
  }
  view = clampWindow(view ?? fitWindow(index, data.now), data.now);
  scroll = Math.max(0, Math.min(scroll, data.lanes.length - 1));
  fillPicker();
  filterLine.hidden = data.filter === '';
  filterLine.textContent = fill(strings.filtered, data.filter);
  moreLine.hidden = data.moreFlows === 0;
  moreLine.textContent = fill(strings.moreFlows, data.moreFlows);
  draw(false);
  fillTable();
  app.setAttribute('aria-busy', 'false');
  report();
}

/** The same run in the new data (its id and end), after the runs were sent again. */
function findRun(previous: TimelineData | undefined, run: number): number | undefined {
  if (!previous || !data) return undefined;
  const id = previous.runs.id[run];
  const end = previous.runs.end[run];
  for (let i = 0; i < data.runs.id.length; i++) if (data.runs.id[i] === id && data.runs.end[i] === end) return i;
  return undefined;
}

function build(s: TimelineStrings): void {
  document.title = s.heading;
  heading.textContent = s.heading;
  pickerLabel.textContent = s.service;
  picker.onchange = () => {
    vscode.postMessage({ type: 'service', service: picker.value });
    keepState();
  };
  controls.setAttribute('role', 'group');
  controls.setAttribute('aria-label', s.controls);
  const button = (text: string, act: () => void) => {
    const b = el('button', { type: 'button', textContent: text });
    b.onclick = act;
    return b;
  };
  controls.replaceChildren(
    button(s.zoomIn, () => zoom(0.5)),
    button(s.zoomOut, () => zoom(2)),
    button(s.earlier, () => pan(-0.5)),
    button(s.later, () => pan(0.5)),
    button(s.now, () => data && setWindow(clampWindow({ start: data.now, span: view?.span ?? 0 }, data.now))),
  );
  hint.textContent = s.hint;
  chart.setAttribute('aria-label', s.heading);
  emptyLine.textContent = s.empty;
  const actionOf: Array<[RunAction, string]> = [
    ['reveal', s.openInHistory],
    ['json', s.openJson],
    ['browser', s.openInBrowser],
  ];
  actions.setAttribute('role', 'group');
  for (const [action, text] of actionOf) {
    const b = button(text, () => act(action));
    actionButtons.set(action, b);
    actions.append(b);
  }
  tableToggle.setAttribute('aria-controls', tableRegion.id);
  tableToggle.onclick = () => {
    tableShown = !tableShown;
    keepState();
    fillTable();
  };
  tableRegion.setAttribute('aria-label', s.caption);
  app.replaceChildren(
    el('header', {}, heading, pickerBox, controls, tableToggle),
    filterLine,
    hint,
    chart,
    emptyLine,
    moreLine,
    actions,
    tableRegion,
  );
  plot.addEventListener('wheel', onWheel, { passive: false });
  plot.addEventListener('pointerdown', onPointerDown);
  new ResizeObserver(() => requestDraw()).observe(plot);
}

function fillPicker(): void {
  if (!data) return;
  pickerBox.hidden = data.services.length < 2;
  if (
    picker.options.length !== data.services.length ||
    Array.from(picker.options).some((o, i) => o.value !== data?.services[i])
  ) {
    picker.replaceChildren(...data.services.map((name) => el('option', { value: name, textContent: name })));
  }
  picker.value = data.service;
}

function keepState(): void {
  vscode.setState({
    service: data?.service,
    start: view?.start,
    span: view?.span,
    scroll,
    table: tableShown,
    ...(hostKept ? { host: hostKept } : {}),
  });
}

// ------------------------------------------------------------ drawing

let frame = 0;
function requestDraw(): void {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    draw(false);
  });
}

let tableTimer: ReturnType<typeof setTimeout> | undefined;
function setWindow(next: TimelineWindow): void {
  view = next;
  keepState();
  requestDraw();
  clearTimeout(tableTimer);
  tableTimer = setTimeout(fillTable, 200);
}

function zoom(factor: number, anchor = 0.5): void {
  if (data && view) setWindow(zoomWindow(view, factor, data.now, anchor));
}

function pan(share: number): void {
  if (data && view) setWindow(panWindow(view, share, data.now));
}

/** Theme colours, read when drawn (a theme change redraws). */
function colour(variable: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(variable).trim() || fallback;
}

let lastBars: Bar[] = [];

/** Draws the lanes shown and the window: only what is visible is laid out. `focus`: focus the chosen bar's button. */
function draw(focus: boolean): Bar[] {
  if (!data || !index || !view || !strings) return [];
  const lanesShown = Math.max(0, Math.min(MAX_LANES_SHOWN, data.lanes.length - scroll));
  const width = Math.max(100, plot.clientWidth || 600);
  const height = AXIS_HEIGHT + Math.max(1, lanesShown) * LANE_HEIGHT;
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  const g = canvas.getContext('2d');
  if (!g) return [];
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  const fg = colour('--vscode-foreground', '#cccccc');
  const muted = colour('--vscode-descriptionForeground', '#8b8b8b');
  const grid = colour('--vscode-editorWidget-border', '#454545');
  drawAxis(g, width, height, fg, grid);
  const bars = layoutBars(index, view, width, scroll, lanesShown);
  const normal = colour('--vscode-charts-blue', '#3794ff');
  const errors = colour('--vscode-charts-red', '#f14c4c');
  const stuck = colour('--vscode-charts-yellow', '#cca700');
  for (const bar of bars) {
    const y = AXIS_HEIGHT + (bar.lane - scroll) * LANE_HEIGHT + 6;
    const h = LANE_HEIGHT - 12;
    g.fillStyle = bar.flags & RUN_FLAG.errors ? errors : bar.flags & RUN_FLAG.stuck ? stuck : normal;
    g.globalAlpha = 1;
    g.fillRect(bar.x0, y, Math.max(1.5, bar.x1 - bar.x0), h);
    if (bar.x2 > bar.x1) {
      // the end's uncertainty: between last seen and seen gone
      g.globalAlpha = 0.35;
      g.fillRect(bar.x1, y, bar.x2 - bar.x1, h);
    }
    if (bar.processing) {
      g.globalAlpha = 1;
      g.fillStyle = fg;
      g.fillRect(bar.x2 - 1, y - 2, 2, h + 4);
    }
  }
  g.globalAlpha = 1;
  // now
  const nowX = ((data.now - view.start) / view.span) * width;
  if (nowX >= 0 && nowX <= width) {
    g.strokeStyle = muted;
    g.setLineDash([3, 3]);
    g.beginPath();
    g.moveTo(nowX + 0.5, AXIS_HEIGHT);
    g.lineTo(nowX + 0.5, height);
    g.stroke();
    g.setLineDash([]);
  }
  drawLabels(lanesShown);
  emptyLine.hidden = bars.length > 0;
  lastBars = bars;
  placeBarButton(focus);
  return bars;
}

const TICKS = [5, 15, 30, 60, 180, 360, 720, 1440, 2880, 10080, 20160].map((m) => m * 60_000);

function drawAxis(g: CanvasRenderingContext2D, width: number, height: number, fg: string, grid: string): void {
  if (!view) return;
  const step = TICKS.find((t) => (width / view!.span) * t >= 90) ?? TICKS[TICKS.length - 1];
  // on boundaries of local time, each at its own instant's offset (the activity chart's axis: base/webview/timeTicks.ts)
  const ticks = timeTicks(
    view.start,
    view.start + view.span,
    width,
    0,
    (ms) => -new Date(ms).getTimezoneOffset() * 60_000,
    [step],
  );
  const withDate = step >= 1440 * 60_000 || view.span > 36 * 3_600_000;
  const format = new Intl.DateTimeFormat(
    locale,
    withDate
      ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }
      : { hour: '2-digit', minute: '2-digit' },
  );
  g.font = `11px ${getComputedStyle(document.body).fontFamily}`;
  g.textBaseline = 'middle';
  for (const t of ticks) {
    const x = Math.round(((t - view.start) / view.span) * width) + 0.5;
    g.strokeStyle = grid;
    g.beginPath();
    g.moveTo(x, AXIS_HEIGHT - 4);
    g.lineTo(x, height);
    g.stroke();
    g.fillStyle = fg;
    g.fillText(format.format(t), x + 3, AXIS_HEIGHT / 2);
  }
}

function drawLabels(lanesShown: number): void {
  if (!data || !strings) return;
  const rows: HTMLElement[] = [el('div', { className: 'axis-space' })];
  for (let lane = scroll; lane < scroll + lanesShown; lane++) {
    const l = data.lanes[lane];
    rows.push(el('div', { className: 'lane', title: l.name }, l.pinned ? `📌 ${l.name}` : l.name));
  }
  labels.replaceChildren(...rows);
}

/** The time as the names say it: the time of day; with the date when it is not today. */
function timeText(ms: number): string {
  const today = new Date().toDateString() === new Date(ms).toDateString();
  return new Intl.DateTimeFormat(
    locale,
    today
      ? { hour: '2-digit', minute: '2-digit' }
      : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' },
  ).format(ms);
}

function nameOf(run: number): string {
  if (!data || !index || !strings) return '';
  return runName(index, run, data.lanes[data.runs.lane[run]].name, strings.name, timeText);
}

/** The chosen run's button over its bar (a new one when the run changes: a screen reader reads the new name). */
function placeBarButton(focus: boolean): void {
  if (!data || !index || !view) return;
  if (chosen === undefined || chosen >= index.size) chosen = firstRun(index, view, scroll);
  const run = chosen;
  const bar =
    run === undefined
      ? undefined
      : lastBars.find((b) => b.run <= run && run < b.run + b.count && b.lane === data!.runs.lane[run]);
  const wasFocused = document.activeElement === barButton;
  if (run !== undefined && !bar && wasFocused) {
    // zoomed or panned off the chosen run with the keyboard: the focus goes to the run nearest the middle shown
    const near = firstRun(index, view, scroll);
    if (near !== undefined && near !== run) {
      chosen = near;
      placeBarButton(true);
      return;
    }
  }
  if (run === undefined || !bar) {
    if (wasFocused) chart.focus(); // nothing shown to choose: the focus stays in the chart
    barButton?.remove();
    barButton = undefined;
    for (const b of actionButtons.values()) b.disabled = true;
    return;
  }
  const name = nameOf(run);
  let button = barButton;
  if (!button || button.dataset.run !== String(run)) {
    button = el('button', { type: 'button', className: 'bar' });
    button.dataset.run = String(run);
    button.setAttribute('aria-label', name);
    button.addEventListener('keydown', onBarKey);
    button.addEventListener('click', () => act('reveal'));
    barButton?.replaceWith(button);
    if (!button.isConnected) plot.append(button);
    barButton = button;
  } else if (button.getAttribute('aria-label') !== name) button.setAttribute('aria-label', name);
  const left = Math.max(0, bar.x0 - 2);
  const right = Math.min(plot.clientWidth || 600, Math.max(bar.x2, bar.x0 + 4) + 2);
  button.style.left = `${left}px`;
  button.style.width = `${Math.max(6, right - left)}px`;
  button.style.top = `${AXIS_HEIGHT + (bar.lane - scroll) * LANE_HEIGHT + 3}px`;
  button.style.height = `${LANE_HEIGHT - 6}px`;
  for (const [action, b] of actionButtons) {
    b.disabled = action === 'browser' && data.runs.end[run] < 0;
    b.setAttribute('aria-description', name);
  }
  if (focus || wasFocused) button.focus();
}

function choose(run: number): void {
  if (!data || !index || !view) return;
  chosen = run;
  const lane = data.runs.lane[run];
  if (lane < scroll) scroll = lane;
  else if (lane >= scroll + MAX_LANES_SHOWN) scroll = lane - MAX_LANES_SHOWN + 1;
  view = windowShowing(view, index, run, data.now);
  keepState();
  draw(true);
  clearTimeout(tableTimer);
  tableTimer = setTimeout(fillTable, 200);
}

function act(action: RunAction): void {
  if (!data || chosen === undefined) return;
  vscode.postMessage({ type: 'run', action, id: data.runs.id[chosen], end: data.runs.end[chosen] });
}

const KEY_DIRECTION: Record<string, Direction> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

function onBarKey(e: KeyboardEvent): void {
  if (!index || chosen === undefined) return;
  const direction = KEY_DIRECTION[e.key];
  if (direction && e.shiftKey && (direction === 'left' || direction === 'right')) {
    pan(direction === 'left' ? -0.2 : 0.2);
  } else if (direction) {
    const next = neighbour(index, chosen, direction);
    if (next !== undefined) choose(next);
  } else if (e.key === '+' || e.key === '=') {
    zoom(0.5, anchorOf(chosen));
  } else if (e.key === '-' || e.key === '_') {
    zoom(2, anchorOf(chosen));
  } else return;
  e.preventDefault();
}

/** Where a run's start is in the window (0..1): zooming keeps it there. */
function anchorOf(run: number): number {
  if (!index || !view) return 0.5;
  return Math.max(0, Math.min(1, (index.runs.start[run] - view.start) / view.span));
}

function onWheel(e: WheelEvent): void {
  if (!data || !view) return;
  e.preventDefault();
  const rect = plot.getBoundingClientRect();
  if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
    pan(((e.shiftKey ? e.deltaY : e.deltaX) / rect.width) * 2);
  } else if (!e.ctrlKey && !e.metaKey && data.lanes.length > MAX_LANES_SHOWN) {
    scroll = Math.max(0, Math.min(data.lanes.length - MAX_LANES_SHOWN, scroll + Math.sign(e.deltaY)));
    keepState();
    requestDraw();
  } else {
    zoom(e.deltaY > 0 ? 1.25 : 0.8, (e.clientX - rect.left) / rect.width);
  }
}

function onPointerDown(e: PointerEvent): void {
  if (!data || !index || !view || e.target !== canvas) return;
  const rect = plot.getBoundingClientRect();
  const startX = e.clientX;
  const from = view;
  let moved = false;
  const move = (m: PointerEvent) => {
    const dx = m.clientX - startX;
    if (Math.abs(dx) > 3) moved = true;
    if (moved && data) {
      setWindow(clampWindow({ start: from.start - (dx / rect.width) * from.span, span: from.span }, data.now));
    }
  };
  const up = (u: PointerEvent) => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    if (moved || !data || !index || !view) return;
    const lane = scroll + Math.floor((u.clientY - rect.top - AXIS_HEIGHT) / LANE_HEIGHT);
    if (lane < scroll || lane >= data.lanes.length) return;
    const x = u.clientX - rect.left;
    const hit = lastBars.find((b) => b.lane === lane && x >= b.x0 - 3 && x <= Math.max(b.x2, b.x0 + 3) + 3);
    const run = hit?.run ?? nearestInLane(index, lane, view.start + (x / rect.width) * view.span);
    if (run === undefined) return;
    choose(run);
    act('reveal'); // a bar clicked: its run shown in History
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
}

// ------------------------------------------------------------ the table

let tableRows = 0;
function fillTable(): void {
  if (!data || !index || !view || !strings) return;
  const s = strings;
  tableToggle.textContent = tableShown ? s.hideTable : s.showTable;
  tableToggle.setAttribute('aria-expanded', String(tableShown));
  tableRegion.hidden = !tableShown;
  if (!tableShown) {
    table.replaceChildren();
    tableRows = 0;
    return;
  }
  const { rows, more } = tableRuns(index, view, MAX_TABLE_ROWS);
  const th = (text: string) => {
    const cell = el('th', {}, text);
    cell.setAttribute('scope', 'col');
    return cell;
  };
  const body = el('tbody');
  for (const run of rows) {
    const words = runWords(index, run, s.name, timeText);
    const rowHead = el('th', {}, `#${data.runs.id[run]}`);
    rowHead.setAttribute('scope', 'row');
    body.append(
      el(
        'tr',
        {},
        rowHead,
        el('td', {}, data.lanes[data.runs.lane[run]].name),
        el('td', {}, words.when),
        el('td', {}, words.ran),
        el('td', {}, words.states.join(', ')),
      ),
    );
  }
  table.replaceChildren(
    el('caption', {}, fill(s.caption, rows.length + more)),
    el('thead', {}, el('tr', {}, th(s.run), th(s.flow), th(s.when), th(s.ran), th(s.state))),
    body,
    ...(more ? [el('tfoot', {}, el('tr', {}, el('td', { colSpan: 5 }, fill(s.moreRows, more))))] : []),
  );
  tableRows = rows.length;
}

function report(): void {
  vscode.postMessage({
    type: 'rendered',
    bars: lastBars.length,
    lanes: labels.childElementCount - 1,
    rows: tableRows,
    violations: [...violations],
  });
}

function validLocale(value: string): string | undefined {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([value]).length ? value : undefined;
  } catch {
    return undefined;
  }
}
