import * as assert from 'node:assert/strict';
import {
  durationDetail,
  durationText,
  finishedNotification,
  flowStatsText,
  historyGroups,
  historyRow,
  historyTooltip,
  localDayStart,
  makeEntry,
  rangeText,
  span,
  type HistoryEntry,
  type Watches,
} from '../../../src/history/index';
import { FakeClock } from '../helpers/fakeClock';

const SEC = 1000;
const MIN = 60_000;
const HOUR = 60 * MIN;

/** An entry that left at `leftAt`, seen until 15 s before, created `minutes` before that. */
function entry(id: number, flowId: number, flowName: string, leftAt: number, minutes = 12): HistoryEntry {
  const lastSeen = leftAt - 15 * SEC;
  return makeEntry({
    id,
    flowId,
    flowName,
    createdAt: new Date(lastSeen - minutes * MIN).toISOString(),
    firstSeen: lastSeen - MIN,
    lastSeen,
    leftAt,
  });
}
const none: Watches = { syncs: new Set(), flows: new Set() };

describe('history texts', () => {
  it('spans round to what a person needs', () => {
    assert.deepEqual(
      [0, 44_600, 59_600, 12.4 * MIN, 59.6 * MIN, 2 * HOUR + 5 * MIN, 3 * HOUR, 76 * HOUR, 48 * HOUR].map(span),
      ['0 s', '45 s', '1 min', '12 min', '1 h', '2 h 5 min', '3 h', '3 d 4 h', '2 d'],
    );
  });

  it('durations say "about", with the uncertainty in the detail; "at least" when measured from first seen', () => {
    assert.equal(durationText({ ms: 12 * MIN + 10 * SEC, uncertaintyMs: 7.5 * SEC, from: 'created' }), 'about 12 min');
    assert.equal(durationDetail({ ms: 12 * MIN, uncertaintyMs: 7.5 * SEC, from: 'created' }), 'about 12 min (± 8 s)');
    assert.equal(durationText({ ms: 12 * MIN, uncertaintyMs: 30 * SEC, from: 'firstSeen' }), 'at least 12 min');
    assert.equal(durationText({ ms: 7 * SEC, uncertaintyMs: 7 * SEC, from: 'firstSeen' }), 'about 7 s');
  });

  it('typical durations for a flow tooltip: "usually 4–12 min, 37 runs"', () => {
    assert.equal(flowStatsText({ runs: 37, medianMs: 4 * MIN, p95Ms: 12 * MIN }), 'usually 4–12 min, 37 runs');
    assert.equal(flowStatsText({ runs: 3, medianMs: 5 * MIN, p95Ms: 5.2 * MIN }), 'usually about 5 min, 3 runs');
    assert.equal(flowStatsText({ runs: 1, medianMs: 90 * SEC, p95Ms: 90 * SEC }), 'about 2 min, 1 run');
    assert.equal(flowStatsText({ runs: 0, medianMs: NaN, p95Ms: NaN }), undefined);
    assert.equal(flowStatsText(undefined), undefined);
    assert.equal(rangeText(20 * SEC, 12 * MIN), '20 s–12 min');
    assert.equal(rangeText(HOUR, 3 * HOUR), '1–3 h');
    assert.equal(rangeText(5 * SEC, 40 * SEC), '5–40 s');
    assert.equal(rangeText(2 * 24 * HOUR, 5 * 24 * HOUR), '2–5 d');
  });

  it('a row: the flow, then "#1003 · ran about 12 min · 5 min ago"; the tooltip never claims success', () => {
    const clock = new FakeClock();
    const now = clock.now();
    const e = entry(1003, 7, 'Invoices', now - 5 * MIN);
    assert.deepEqual(historyRow(e, now), {
      label: 'Invoices',
      description: '#1003 · ran about 12 min · 5 min ago',
      said: ['ran about 12 min', '5 min ago'],
      states: { errors: false, longer: false },
    });
    assert.equal(historyRow(entry(1, 9, '', now), now).label, 'Flow 9');
    const tip = historyTooltip(entry(1003, 7, '*Invoices* [x](command:y)', now - 5 * MIN), now);
    assert.match(tip, /#1003/);
    assert.match(tip, /\\\*Invoices\\\* \\\[x\\\] \\\(command\\:y\\\)/);
    assert.match(tip, /about 12 min \(± 8 s\)/);
    assert.match(tip, /does not say whether a flow sync succeeded/);
    assert.doesNotMatch(tip.replace('does not say whether a flow sync succeeded', ''), /succeeded|failed/i);
  });

  it('a run that had errors or ran longer than its flow usually does: said in words in its row, and its states tinted', () => {
    const now = new FakeClock().now();
    const e = makeEntry({ ...entry(1003, 7, 'Invoices', now - 5 * MIN), hadErrors: true });
    const usual = { runs: 20, medianMs: 5 * MIN, p95Ms: 10 * MIN }; // the entry ran about 12 min
    assert.deepEqual(historyRow(e, now, usual), {
      label: 'Invoices',
      description: '#1003 · ran about 12 min · 5 min ago · had errors · ran longer than usual',
      said: ['ran about 12 min', '5 min ago', 'had errors', 'ran longer than usual'],
      states: { errors: true, longer: true },
    });
    assert.equal(historyRow(e, now, { ...usual, p95Ms: 20 * MIN }).states.longer, false, 'within the usual');
    assert.equal(historyRow(e, now, { ...usual, runs: 4 }).states.longer, false, 'too few runs to know the usual');
  });

  it('an entry whose created_at cannot be true: "at least" from first seen; the tooltip claims no age for it', () => {
    const now = new FakeClock().now();
    const lastSeen = now - 5 * MIN - 15 * SEC;
    for (const createdAt of ['1970-01-01T00:00:00.000Z', new Date(now + HOUR).toISOString()]) {
      const e = makeEntry({
        id: 5,
        flowId: 7,
        flowName: 'Invoices',
        createdAt,
        firstSeen: lastSeen - 3 * MIN,
        lastSeen,
        leftAt: now - 5 * MIN,
      });
      assert.equal(historyRow(e, now).description, '#5 · ran at least 3 min · 5 min ago', createdAt);
      const tip = historyTooltip(e, now);
      assert.match(tip, /\*\*Started\*\* \| [^|]* \(unknown time\) \|/, createdAt);
      assert.match(tip, /not a plausible time: the duration is counted from when it was first seen/);
    }
  });

  it('groups by local day, newest first: Today, Yesterday, then dates; entries newest first', () => {
    const clock = new FakeClock();
    const now = clock.now();
    const today = localDayStart(now);
    const yesterday = localDayStart(today - 1);
    const earlier = localDayStart(yesterday - 1);
    const entries = [
      entry(1, 1, 'A', yesterday + HOUR),
      entry(2, 1, 'A', today + 1),
      entry(3, 2, 'B', earlier + 2 * HOUR),
      entry(4, 2, 'B', now + HOUR), // another window's clock runs ahead: today
      entry(5, 1, 'A', today + 2),
      entry(6, 1, 'A', earlier + HOUR),
    ];
    const groups = historyGroups(entries, now);
    assert.deepEqual(
      groups.map((g) => g.key),
      [today, yesterday, earlier],
    );
    assert.deepEqual(
      groups.slice(0, 2).map((g) => g.label),
      ['Today', 'Yesterday'],
    );
    assert.ok(groups[2].label.length > 0 && !['Today', 'Yesterday'].includes(groups[2].label));
    assert.deepEqual(
      groups.map((g) => g.entries.map((e) => e.id)),
      [[4, 5, 2], [1], [3, 6]],
    );
    assert.deepEqual(historyGroups([], now), []);
  });

  describe('notifications', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    const one = entry(1003, 7, 'Invoices', now);

    it('one sync: names it, its flow and its duration; never "succeeded" or "failed"', () => {
      const n = finishedNotification([one], none, 'all');
      assert.equal(n.text, 'Sync #1003 (Invoices) is no longer processing, after about 12 min.');
      assert.deepEqual(n.entries, [one]);
      assert.deepEqual(n.unwatch, []);
    });

    it('at most one notification per poll: several syncs are counted with their flows', () => {
      const left = [
        one,
        entry(1004, 7, 'Invoices', now),
        entry(1005, 8, 'Payroll', now),
        entry(1006, 9, 'Mail', now),
        entry(1007, 9, 'Mail', now),
      ];
      assert.equal(finishedNotification(left, none, 'all').text, '5 syncs of 3 flows are no longer processing.');
      assert.equal(
        finishedNotification(left.slice(0, 2), none, 'all').text,
        '2 syncs of Invoices are no longer processing.',
      );
    });

    it('"watched": only watched syncs and flows; a sync watch ends when it leaves, a flow watch lasts; "off": nothing', () => {
      const left = [one, entry(1005, 8, 'Payroll', now), entry(1006, 9, 'Mail', now)];
      const watches: Watches = { syncs: new Set([1003, 42]), flows: new Set([9]) };
      const n = finishedNotification(left, watches, 'watched');
      assert.deepEqual(
        n.entries.map((e) => e.id),
        [1003, 1006],
      );
      assert.equal(n.text, '2 syncs of 2 flows are no longer processing.');
      assert.deepEqual(n.unwatch, [1003]);
      const off = finishedNotification(left, watches, 'off');
      assert.deepEqual(
        [off.text, off.entries, off.unwatch],
        [undefined, [], [1003]],
        'the watch ends even with notifications off',
      );
      assert.equal(finishedNotification([], watches, 'all').text, undefined);
      assert.equal(finishedNotification(left.slice(1, 2), watches, 'watched').text, undefined);
    });

    it('flow names are made inert and bounded', () => {
      const hostile = entry(1, 1, `[Open](command:workbench.action.terminal.new) $(alert) ${'x'.repeat(300)}`, now);
      const text = finishedNotification([hostile], none, 'all').text!;
      assert.doesNotMatch(text, /\]\(|\$\(/);
      assert.ok(text.length < 200, text);
    });
  });
});
