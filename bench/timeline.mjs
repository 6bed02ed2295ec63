#!/usr/bin/env node
// The Run Timeline (issue #52, item 1) at 20 services × 50,000 runs: the first frame (the panel's data for the service
// shown, from History in memory: src/timeline/timelineData.ts; the message as the page gets it; the page's index and
// the layout of its first window, 24 hours, 14 lanes, 1,200 px: src/timeline/timelineLayout.ts), a pan frame and a
// zoom frame (layout of the window moved, and at 90 days, with the chosen bar's name), and memory: the page's data and
// index (heap after gc), and what the extension host holds for it (nothing kept: the data is built, posted and let
// go; its size while it is posted is measured). History's filter applied is a row too. Needs --expose-gc.
//
//   node --expose-gc bench/timeline.mjs
import { performance } from 'node:perf_hooks';
import { emitRows, heapUsed, outModule, progress, row, seeded, timeSamples } from './lib/common.mjs';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const { makeEntry } = outModule('history/entry.js');
const { historyEntryFilter } = outModule('history/historyFilter.js');
const { timelineData } = outModule('timeline/timelineData.js');
const { RunIndex, firstWindow, layoutBars, panWindow, zoomWindow, runName, firstRun } =
  outModule('timeline/timelineLayout.js');
const { timelineStrings } = outModule('timeline/timelineStrings.js');

const SERVICES = 20;
const RUNS = 50_000;
const FLOWS = 60;
const DAYS = 30;
const WIDTH = 1_200;
const LANES_SHOWN = 14;
const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 22, 12);
const SECTION = 'timeline';

function serviceEntries(service) {
  const next = seeded(service + 1);
  const entries = [];
  for (let i = 0; i < RUNS; i++) {
    const start = NOW - next() * DAYS * 24 * 60 * MIN;
    const ran = (1 + next() * 30) * MIN;
    const flowId = 1 + Math.floor(next() ** 2 * FLOWS); // some flows far busier than others
    entries.push(
      makeEntry({
        id: service * 1_000_000 + i,
        flowId,
        flowName: `Flow ${flowId} → Sheets`,
        createdAt: new Date(start).toISOString(),
        firstSeen: start + 20_000,
        lastSeen: start + ran,
        leftAt: start + ran + 30_000,
        raw: undefined,
        hadErrors: next() < 0.05,
      }),
    );
  }
  return entries;
}

progress(SECTION, `History of ${SERVICES} services × ${RUNS.toLocaleString('en-US')} runs`);
const services = Array.from({ length: SERVICES }, (_, i) => serviceEntries(i));
const names = services.map((_, i) => `Service ${i + 1}`);
const strings = timelineStrings();
const time = (ms) => new Date(ms).toISOString().slice(11, 16);
const source = (s, keep) => ({ entries: services[s], processing: [], pinned: [3, 7], keep });

/** The first frame: the host's data, the message (structured clone as JSON), the page's index and first layout. */
function firstFrame(s, keep) {
  const data = timelineData(source(s, keep), NOW, names[s], names);
  const message = JSON.parse(JSON.stringify({ type: 'timeline', strings, data }));
  const index = new RunIndex(message.data.runs, message.data.lanes.length, message.data.now);
  const w = firstWindow(NOW);
  const bars = layoutBars(index, w, WIDTH, 0, LANES_SHOWN);
  const run = firstRun(index, w, 0);
  if (run !== undefined) runName(index, run, message.data.lanes[message.data.runs.lane[run]].name, strings.name, time);
  return { message, index, bars };
}

progress(SECTION, 'the first frame (host data, message, page index and layout)');
const first = timeSamples(9, (i) => firstFrame(i % SERVICES));
const { message, index, bars } = firstFrame(0);
const bytes = JSON.stringify(message).length;

const filter = historyEntryFilter('has:errors', names[0], () => false);
const filtered = timeSamples(5, (i) => firstFrame(i % SERVICES, filter.test));
// A field term reads each run's texts: folded the first time for a service (a new matcher: none folded yet).
const byFlow = historyEntryFilter('flow:sheets', names[0], () => false);
const filteredText = timeSamples(5, (i) => firstFrame(i % SERVICES, byFlow.test));

/** `runs` frames of fn(i) in ms, without a collection between them (frames follow each other, as a drag's do). */
function frames(runs, fn) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn(i);
    samples.push(performance.now() - t0);
  }
  return samples;
}

progress(SECTION, 'pan and zoom frames');
let w = firstWindow(NOW);
const pan = frames(200, (i) => {
  w = panWindow(w, i % 40 < 20 ? -0.05 : 0.05, NOW);
  layoutBars(index, w, WIDTH, 0, LANES_SHOWN);
});
let z = firstWindow(NOW);
const zoom = frames(60, (i) => {
  z = zoomWindow(z, i % 30 < 15 ? 1.6 : 1 / 1.6, NOW);
  const laid = layoutBars(index, z, WIDTH, 0, LANES_SHOWN);
  const run = laid[0]?.run;
  if (run !== undefined) runName(index, run, 'x', strings.name, time);
});
const wide = zoomWindow(firstWindow(NOW), 1e9, NOW); // 90 days
const widest = frames(50, () => layoutBars(index, wide, WIDTH, 0, LANES_SHOWN));
const wideBars = layoutBars(index, wide, WIDTH, 0, LANES_SHOWN).length;

progress(SECTION, 'memory');
const empty = heapUsed();
const held = firstFrame(1);
const page = heapUsed() - empty;
held.bars.length = 0;
const hostBefore = heapUsed();
const posted = timelineData(source(2), NOW, names[2], names);
const peak = heapUsed() - hostBefore;
void posted.now;

emitRows([
  row(SECTION, `first frame, one service of ${SERVICES} × 50,000 runs (data, message, index, layout)`, 'ms', first, {
    target: { max: 300, text: '≤ 300 ms' },
  }),
  row(SECTION, 'first frame with History filtered (has:errors)', 'ms', filtered, {
    target: { max: 300, text: '≤ 300 ms' },
  }),
  row(SECTION, 'first frame with History filtered by a field term (flow:sheets), its runs folded', 'ms', filteredText),
  row(SECTION, `pan frame (24 h window, ${LANES_SHOWN} lanes, ${bars.length} bars)`, 'ms', pan, {
    target: { max: 16, text: '≤ 16 ms' },
  }),
  row(SECTION, 'zoom frame (1.6× in and out, with the bar name)', 'ms', zoom, { target: { max: 16, text: '≤ 16 ms' } }),
  row(SECTION, `frame at 90 days (${wideBars} marks for 50,000 runs)`, 'ms', widest, {
    target: { max: 16, text: '≤ 16 ms' },
  }),
  row(SECTION, 'message to the page (JSON length)', 'B', [bytes]),
  row(SECTION, "page's heap: the data and its index", 'MB', [page / 1e6], { target: { max: 50, text: '≤ 50 MB' } }),
  row(SECTION, 'extension host: the data while it is posted (peak)', 'MB', [peak / 1e6], {
    target: { max: 50, text: '≤ 50 MB' },
  }),
]);
