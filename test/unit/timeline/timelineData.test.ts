import * as assert from 'node:assert/strict';
import { parseFilter } from '../../../src/filter/filterQuery';
import { makeEntry, type HistoryEntry } from '../../../src/history/entry';
import { historyRunSubjects } from '../../../src/history/findRows';
import { historyEntryFilter } from '../../../src/history/historyFilter';
import { timelineData, type ProcessingRun } from '../../../src/timeline/timelineData';
import { MAX_LANES, RUN_FLAG, parseTimelineMessage, parseTimelineState } from '../../../src/timeline/timelineMessages';

const MIN = 60_000;
const HOUR = 60 * MIN;
const NOW = Date.UTC(2026, 10, 22, 12);

function entry(
  id: number,
  flowId: number,
  flowName: string,
  startMs: number,
  ranMs: number,
  hadErrors = false,
): HistoryEntry {
  return makeEntry({
    id,
    flowId,
    flowName,
    createdAt: new Date(startMs).toISOString(),
    firstSeen: startMs + MIN,
    lastSeen: startMs + ranMs,
    leftAt: startMs + ranMs + MIN,
    raw: undefined,
    hadErrors,
  });
}

const processing = (id: number, flowId: number, createdAt: string, stuck = false): ProcessingRun => ({
  id,
  flowId,
  flowName: 'Orders',
  createdAt,
  firstSeen: NOW - 10 * MIN,
  hadErrors: false,
  stuck,
});

describe('Run Timeline data (timelineData)', () => {
  const entries = [
    entry(1, 10, 'Invoices', NOW - 5 * HOUR, 10 * MIN, true),
    entry(2, 20, 'Orders', NOW - 4 * HOUR, 5 * MIN),
    entry(3, 20, 'Orders', NOW - 6 * HOUR, 5 * MIN),
    entry(4, 30, '', NOW - 2 * HOUR, 5 * MIN),
  ];

  it('makes a lane per flow: the pinned first (in the order pinned), then the busiest, then by name', () => {
    const data = timelineData({ entries, processing: [], pinned: [30] }, NOW, '', []);
    assert.deepEqual(
      data.lanes.map((l) => [l.name, l.pinned]),
      [
        ['Flow 30', true],
        ['Orders', false],
        ['Invoices', false],
      ],
    );
  });

  it('has a run per entry from its plausible start to when it was seen gone, by lane then start', () => {
    const data = timelineData({ entries, processing: [], pinned: [] }, NOW, '', []);
    assert.deepEqual(data.runs.id, [3, 2, 4, 1], 'Orders (2 runs), then Flow 30 and Invoices (1 each) by name');
    assert.deepEqual(data.runs.lane, [0, 0, 1, 2]);
    assert.equal(data.runs.start[3], NOW - 5 * HOUR, 'created_at');
    assert.equal(data.runs.lastSeen[3], NOW - 5 * HOUR + 10 * MIN);
    assert.equal(data.runs.end[3], NOW - 5 * HOUR + 11 * MIN);
    assert.equal(data.runs.flags[3], RUN_FLAG.errors);
  });

  it('starts a run when first seen when created_at cannot be true, and flags it', () => {
    const odd = makeEntry({ ...entries[0], createdAt: '1970-01-01T00:00:00.000Z', hadErrors: false });
    const data = timelineData({ entries: [odd], processing: [], pinned: [] }, NOW, '', []);
    assert.equal(data.runs.start[0], odd.firstSeen);
    assert.equal(data.runs.flags[0], RUN_FLAG.firstSeen);
  });

  it('grows processing runs to now (end -1), stuck ones flagged', () => {
    const data = timelineData(
      { entries: [], processing: [processing(9, 20, new Date(NOW - 30 * MIN).toISOString(), true)], pinned: [] },
      NOW,
      '',
      [],
    );
    assert.deepEqual(
      [data.runs.start[0], data.runs.lastSeen[0], data.runs.end[0], data.runs.flags[0]],
      [NOW - 30 * MIN, NOW, -1, RUN_FLAG.stuck],
    );
  });

  it("keeps the runs History's filter keeps, processing runs too", () => {
    const filter = historyEntryFilter('has:errors', 'Prod', () => false);
    assert.ok('test' in filter);
    const data = timelineData(
      {
        entries,
        processing: [processing(9, 20, new Date(NOW - 30 * MIN).toISOString())],
        pinned: [],
        keep: filter.test,
        filterText: 'has:errors',
      },
      NOW,
      'Prod',
      ['Prod', 'Staging'],
    );
    assert.deepEqual(data.runs.id, [1]);
    assert.equal(data.filter, 'has:errors');
    const byFlow = historyEntryFilter('flow:Orders', 'Prod', () => false);
    assert.ok('test' in byFlow);
    const orders = timelineData(
      {
        entries,
        processing: [processing(9, 20, new Date(NOW - 30 * MIN).toISOString())],
        pinned: [],
        keep: byFlow.test,
      },
      NOW,
      'Prod',
      [],
    );
    assert.deepEqual(orders.runs.id, [3, 2, 9]);
  });

  it("keeps, for History's filter of flags and durations, the runs its plain meaning keeps, reading no run's text", () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      entry(
        100 + i,
        10 + (i % 3),
        ['Invoices', 'Orders', ''][i % 3],
        NOW - (i + 1) * HOUR,
        (i % 7) * 5 * MIN,
        i % 4 === 0,
      ),
    );
    let described = 0;
    const subjects = historyRunSubjects(
      () => (described++, 'Prod'),
      () => false,
    );
    const plain: Record<string, (e: HistoryEntry) => boolean> = {
      'has:errors': (e) => e.hadErrors,
      '-has:errors': (e) => !e.hadErrors,
      'has:errors ran>10m': (e) => e.hadErrors && e.duration.ms > 10 * MIN,
      'ran<12m -is:watched': (e) => e.duration.ms < 12 * MIN,
    };
    for (const [text, meaning] of Object.entries(plain)) {
      const parsed = parseFilter(text, 'history');
      assert.ok(parsed.filter, parsed.problem);
      const filter = parsed.filter;
      const data = timelineData(
        { entries: many, processing: [], pinned: [], keep: (e) => subjects.matches(filter, e) },
        NOW,
        'Prod',
        [],
      );
      const expected = many.filter(meaning).map((e) => e.id);
      assert.ok(expected.length > 0 && expected.length < many.length, text);
      assert.deepEqual(
        [...data.runs.id].sort((a, b) => a - b),
        expected,
        text,
      );
    }
    assert.equal(described, 0, 'no run described or folded');
  });

  it(`draws at most ${MAX_LANES} lanes and counts the flows beyond`, () => {
    const many = Array.from({ length: MAX_LANES + 7 }, (_, i) => entry(i + 1, i + 1, `F${i}`, NOW - HOUR, MIN));
    const data = timelineData({ entries: many, processing: [], pinned: [] }, NOW, '', []);
    assert.equal(data.lanes.length, MAX_LANES);
    assert.equal(data.moreFlows, 7);
    assert.equal(data.runs.id.length, MAX_LANES);
  });
});

describe('Run Timeline messages and kept state', () => {
  it('reads only well-formed messages of the page', () => {
    assert.deepEqual(parseTimelineMessage({ type: 'ready', extra: 1 }), { type: 'ready' });
    assert.deepEqual(parseTimelineMessage({ type: 'run', action: 'json', id: 5, end: 7 }), {
      type: 'run',
      action: 'json',
      id: 5,
      end: 7,
    });
    for (const bad of [
      null,
      'ready',
      { type: 'run', action: 'eval', id: 5, end: 7 },
      { type: 'run', action: 'json', id: 1.5, end: 7 },
      { type: 'run', action: 'json', id: 1, end: Infinity },
      { type: 'service', service: 'x'.repeat(201) },
      { type: 'nope' },
    ]) {
      assert.equal(parseTimelineMessage(bad), undefined, JSON.stringify(bad));
    }
    assert.deepEqual(parseTimelineMessage({ type: 'rendered', bars: -1, lanes: 2, rows: 'x', violations: 'no' }), {
      type: 'rendered',
      bars: 0,
      lanes: 2,
      rows: 0,
      violations: [],
    });
  });

  it('keeps of a restored state only what has its type and lies within bounds', () => {
    assert.deepEqual(
      parseTimelineState({ service: 'Prod', start: NOW - HOUR, span: 2 * HOUR, scroll: 3, table: true }, NOW),
      {
        service: 'Prod',
        start: NOW - HOUR,
        span: 2 * HOUR,
        scroll: 3,
        table: true,
      },
    );
    assert.deepEqual(
      parseTimelineState({ service: 5, start: 1, span: 1e15, scroll: -1, table: 'yes', __proto__: { x: 1 } }, NOW),
      {},
    );
    assert.deepEqual(parseTimelineState([1], NOW), {});
    assert.deepEqual(parseTimelineState(undefined, NOW), {});
    assert.deepEqual(parseTimelineState({ start: NOW + 2 * 24 * HOUR, scroll: MAX_LANES }, NOW), {});
  });
});
