import * as assert from 'node:assert/strict';
import { MAX_SPAN_MS, MIN_SPAN_MS, RUN_FLAG, type TimelineRuns } from '../../../src/timeline/timelineMessages';
import {
  RunIndex,
  clampWindow,
  firstRun,
  firstWindow,
  fitWindow,
  layoutBars,
  neighbour,
  panWindow,
  runName,
  spanWords,
  tableRuns,
  windowShowing,
  zoomWindow,
} from '../../../src/timeline/timelineLayout';
import { timelineStrings } from '../../../src/timeline/timelineStrings';

const MIN = 60_000;
const HOUR = 60 * MIN;
const NOW = Date.UTC(2026, 10, 22, 12);
const S = timelineStrings().name;
/** "HH:MM" in UTC (the page formats in the person's locale and zone). */
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** Runs as columns: [lane, id, start, lastSeen, end (-1: processing), flags], ordered by lane then start. */
function runs(rows: Array<[number, number, number, number, number, number?]>): TimelineRuns {
  return {
    lane: rows.map((r) => r[0]),
    id: rows.map((r) => r[1]),
    start: rows.map((r) => r[2]),
    lastSeen: rows.map((r) => r[3]),
    end: rows.map((r) => r[4]),
    flags: rows.map((r) => r[5] ?? 0),
  };
}

const T0 = NOW - 3 * HOUR; // 09:00
const sample = () =>
  new RunIndex(
    runs([
      [0, 1001, T0, T0 + 10 * MIN, T0 + 12 * MIN],
      [0, 1002, T0 + HOUR, T0 + HOUR + 5 * MIN, T0 + HOUR + 6 * MIN, RUN_FLAG.errors],
      [0, 1005, NOW - 20 * MIN, NOW, -1, RUN_FLAG.stuck],
      [1, 1003, T0 + 14 * MIN, T0 + 25 * MIN, T0 + 27 * MIN, RUN_FLAG.errors],
      [2, 1004, T0 - 10 * 24 * HOUR, T0 - 10 * 24 * HOUR + MIN, T0 - 10 * 24 * HOUR + 2 * MIN],
    ]),
    3,
    NOW,
  );

describe('Run Timeline layout', () => {
  describe('the visible window', () => {
    it('starts with the last 24 hours, up to a little past now', () => {
      const w = firstWindow(NOW);
      assert.equal(w.span, 24 * HOUR);
      assert.ok(w.start + w.span > NOW && w.start + w.span <= NOW + 0.05 * w.span + 1);
    });

    it('opens as wide as the runs of the last 24 hours need: at least an hour, at most 24 hours', () => {
      const index = sample(); // runs from 09:00 to now (12:00), one 10 days ago
      const w = fitWindow(index, NOW);
      assert.ok(w.start <= T0 && w.start >= T0 - HOUR, `starts before 09:00: ${new Date(w.start).toISOString()}`);
      assert.ok(w.start + w.span >= NOW);
      const late = new RunIndex(runs([[0, 1, NOW - 5 * MIN, NOW, -1]]), 1, NOW);
      assert.equal(fitWindow(late, NOW).span, MIN_SPAN_MS);
      const old = new RunIndex(
        runs([[0, 1, NOW - 5 * 24 * HOUR, NOW - 5 * 24 * HOUR + MIN, NOW - 5 * 24 * HOUR + MIN]]),
        1,
        NOW,
      );
      assert.deepEqual(fitWindow(old, NOW), firstWindow(NOW));
    });

    it('zooms from one hour to 90 days, never beyond', () => {
      let w = firstWindow(NOW);
      for (let i = 0; i < 50; i++) w = zoomWindow(w, 0.5, NOW);
      assert.equal(w.span, MIN_SPAN_MS);
      for (let i = 0; i < 50; i++) w = zoomWindow(w, 2, NOW);
      assert.equal(w.span, MAX_SPAN_MS);
    });

    it('zooms around its anchor: the time under it stays', () => {
      const w = { start: NOW - 10 * HOUR, span: 8 * HOUR };
      const zoomed = zoomWindow(w, 0.5, NOW, 0.25);
      assert.equal(zoomed.start + zoomed.span * 0.25, w.start + w.span * 0.25);
    });

    it('pans by a share of its span, not past now, not before 2000', () => {
      const w = { start: NOW - 10 * HOUR, span: 4 * HOUR };
      assert.equal(panWindow(w, -0.5, NOW).start, w.start - 2 * HOUR);
      const late = panWindow(w, 100, NOW);
      assert.ok(late.start + late.span <= NOW + 0.05 * late.span);
      assert.equal(clampWindow({ start: 0, span: HOUR }, NOW).start, Date.UTC(2000, 0, 1));
      assert.equal(clampWindow({ start: NaN, span: NaN }, NOW).span, 24 * HOUR);
    });
  });

  describe('bars', () => {
    it('lays out only the runs that overlap the window, from start to last seen to seen gone', () => {
      const index = sample();
      const w = { start: T0, span: 4 * HOUR };
      const bars = layoutBars(index, w, 2400, 0, 3); // 10 px a minute
      assert.deepEqual(
        bars.map((b) => index.runs.id[b.run]),
        [1001, 1002, 1005, 1003],
        'the run 10 days ago is not laid out',
      );
      const first = bars[0];
      assert.deepEqual([first.x0, first.x1, first.x2], [0, 100, 120]);
      const processing = bars[2];
      assert.equal(processing.processing, true);
      assert.equal(processing.x1, processing.x2, 'a processing run grows to now');
      assert.equal(Math.round(processing.x2), 1800);
      assert.equal(processing.flags & RUN_FLAG.stuck, RUN_FLAG.stuck);
    });

    it('lays out only the lanes shown', () => {
      const bars = layoutBars(sample(), { start: T0, span: 4 * HOUR }, 2400, 1, 1);
      assert.deepEqual(
        bars.map((b) => b.lane),
        [1],
      );
    });

    it('finds a long run that began before the window', () => {
      const index = new RunIndex(runs([[0, 1, NOW - 10 * HOUR, NOW - HOUR, NOW - HOUR + MIN]]), 1, NOW);
      const bars = layoutBars(index, { start: NOW - 3 * HOUR, span: HOUR }, 600, 0, 1);
      assert.equal(bars.length, 1);
      assert.equal(bars[0].x0, -2, 'begun before the left edge');
    });

    it('gathers runs narrower than a pixel into one mark, keeping their count and flags', () => {
      const rows: Array<[number, number, number, number, number, number?]> = [];
      for (let i = 0; i < 10_000; i++) {
        rows.push([0, i, T0 + i * 1000, T0 + i * 1000 + 500, T0 + i * 1000 + 900, i === 5 ? RUN_FLAG.errors : 0]);
      }
      const index = new RunIndex(runs(rows), 1, NOW);
      const bars = layoutBars(index, { start: T0, span: 24 * HOUR }, 1000, 0, 1);
      assert.ok(bars.length <= 1000, `${bars.length} marks`);
      assert.equal(
        bars.reduce((n, b) => n + b.count, 0),
        10_000,
      );
      assert.equal(bars[0].flags & RUN_FLAG.errors, RUN_FLAG.errors);
    });
  });

  describe('the keyboard', () => {
    it('moves left and right within a lane, up and down to the nearest run of the next lane with runs', () => {
      const index = sample();
      const id = (run: number | undefined) => (run === undefined ? undefined : index.runs.id[run]);
      assert.equal(id(neighbour(index, 0, 'right')), 1002);
      assert.equal(id(neighbour(index, 0, 'left')), undefined);
      assert.equal(id(neighbour(index, 2, 'right')), undefined);
      assert.equal(id(neighbour(index, 0, 'down')), 1003);
      assert.equal(id(neighbour(index, 3, 'up')), 1001, 'the run whose start is nearest');
      assert.equal(id(neighbour(index, 0, 'up')), undefined);
      assert.equal(id(neighbour(index, 3, 'down')), 1004);
    });

    it('starts at the visible run of the top lane nearest the middle, and pans to a run off the window', () => {
      const index = sample();
      const w = { start: T0, span: 4 * HOUR };
      assert.equal(index.runs.id[firstRun(index, w, 0)!], 1005, '11:40 is nearer 11:00 than 10:00');
      assert.equal(windowShowing(w, index, 0, NOW), w);
      const moved = windowShowing(w, index, 4, NOW);
      assert.equal(moved.span, w.span);
      assert.ok(moved.start <= index.runs.start[4] && index.runs.start[4] <= moved.start + moved.span);
    });
  });

  describe('words', () => {
    it('names a bar: its run, flow, times, how long it ran and its states', () => {
      const index = sample();
      assert.equal(
        runName(index, 3, 'Invoices → Sheets', S, hhmm),
        '#1003 Invoices → Sheets, 09:14 to about 09:26, ran about 12 min, had errors',
      );
      assert.equal(runName(index, 2, 'Orders', S, hhmm), '#1005 Orders, 11:40 to now, processing for 20 min, stuck');
    });

    it('says "before" the time first seen when created_at could not be true', () => {
      const index = new RunIndex(runs([[0, 7, T0, T0 + 5 * MIN, T0 + 5 * MIN, RUN_FLAG.firstSeen]]), 1, NOW);
      assert.equal(runName(index, 0, 'X', S, hhmm), '#7 X, before 09:00 to about 09:05, ran about 5 min');
    });

    it('says spans in seconds, minutes, hours and days', () => {
      assert.equal(spanWords(45_000, S), '45 s');
      assert.equal(spanWords(12 * MIN, S), '12 min');
      assert.equal(spanWords(125 * MIN, S), '2 h 5 min');
      assert.equal(spanWords(3 * HOUR, S), '3 h');
      assert.equal(spanWords(76 * HOUR, S), '3 d 4 h');
      assert.equal(spanWords(-5, S), '0 s');
    });

    it('lists the runs of the window in the table, by start, bounded', () => {
      const index = sample();
      const all = tableRuns(index, { start: T0, span: 4 * HOUR }, 100);
      assert.deepEqual(
        all.rows.map((r) => index.runs.id[r]),
        [1001, 1003, 1002, 1005],
      );
      assert.deepEqual(tableRuns(index, { start: T0, span: 4 * HOUR }, 2), { rows: all.rows.slice(0, 2), more: 2 });
    });
  });
});
