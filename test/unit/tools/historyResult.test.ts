import * as assert from 'node:assert/strict';
import { makeEntry } from '../../../src/history/index';
import { DATA_END, DATA_START } from '../../../src/tools/dataBlock';
import { historyInput, historyResult } from '../../../src/tools/historyResult';
import { dataRows } from '../helpers/toolAnswer';
import { NOW, iso } from '../helpers/items';
import { sync, manySyncs } from '../helpers/toolSnapshots';

describe('language model tool results: flowsync_history', () => {
  it('history: finished and stuck syncs in a data block, honest about success, capped; not set up says how', () => {
    const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
    const entry = makeEntry({
      id: 1003,
      flowId: 7,
      flowName: 'Invoices [x](command:evil)',
      createdAt: new Date(NOW - 20 * 60_000).toISOString(),
      firstSeen: NOW - 19 * 60_000,
      lastSeen: NOW - 6 * 60_000,
      leftAt: NOW - 5 * 60_000,
    });
    const stuck = manySyncs(1)[0].value;
    const data = { status: 'ready' as const, now: NOW, historyDays: 7, entries: [entry, entry], stuck: [stuck] };
    const all = historyResult(historyInput({}), data);
    assert.match(
      all,
      /no longer processing 5 min ago \| flow sync #1003 \| flow "Invoices \[x\] \(command:evil\)" \(#7\) \| ran about 15 min/,
    );
    assert.match(all, /^stuck \| flow sync #/m);
    assert.match(all, /does not say whether a sync succeeded/);
    const rows = all.slice(all.indexOf(DATA_START), all.indexOf(DATA_END));
    assert.doesNotMatch(rows, /succeeded|failed/, 'rows never claim an outcome');
    assert.ok(all.includes(DATA_START) && all.includes(DATA_END));
    assert.doesNotMatch(historyResult(historyInput({ kind: 'finished' }), data), /^stuck/m);
    assert.doesNotMatch(historyResult(historyInput({ kind: 'stuck' }), data), /#1003/);
    assert.match(historyResult(historyInput({ limit: 1 }), data), /2 more not listed/);
    assert.match(historyResult(historyInput({}), { ...data, status: 'noUrl' }), /Set Service URL/);
  });

  it('history: the work of an answer is bounded by `limit`, not by the size of History (50,000 entries)', () => {
    const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
    const read = new Set<number>();
    const entries = Array.from({ length: 50_000 }, (_, i) => {
      const e = makeEntry({
        id: 50_000 - i,
        flowId: 7,
        flowName: `Flow ${i % 40}`,
        createdAt: new Date(NOW - 20 * 60_000 - i).toISOString(),
        firstSeen: NOW - 19 * 60_000 - i,
        lastSeen: NOW - 6 * 60_000 - i,
        leftAt: NOW - 5 * 60_000 - i,
      });
      // Formatting an entry reads its name: count the entries formatted.
      return Object.defineProperty({ ...e }, 'flowName', { get: () => (read.add(i), e.flowName), enumerable: true });
    });
    const stuck = manySyncs(3).map((i) => i.value);
    for (const [kind, limit, rows] of [
      ['all', 10, 10],
      ['finished', 25, 25],
      ['all', 2, 2],
      ['stuck', 100, 3],
      ['all', 100, 100],
    ] as const) {
      read.clear();
      const text = historyResult(historyInput({ kind, limit }), {
        status: 'ready',
        now: NOW,
        historyDays: 7,
        entries,
        stuck,
      });
      assert.equal(dataRows(text).length, rows, `${kind}, limit ${limit}`);
      assert.ok(read.size <= limit, `${kind}, limit ${limit}: ${read.size} of ${entries.length} entries formatted`);
      if (kind !== 'stuck') {
        assert.match(text, new RegExp(`^${(kind === 'all' ? 3 : 0) + entries.length - rows} more not listed`, 'm'));
      }
    }
  });

  it('history: the filter splits stuck and finished alike, and says how many match', () => {
    const entries = [
      makeEntry({
        id: 10,
        flowId: 7,
        flowName: 'Invoices',
        createdAt: iso(120 * 60_000),
        firstSeen: NOW - 7_200_000,
        lastSeen: NOW - 60_000,
        leftAt: NOW - 30_000,
      }),
    ];
    const result = historyResult(historyInput({ filter: 'ran>1h' }), {
      status: 'ready',
      now: NOW,
      historyDays: 7,
      entries,
      stuck: [sync(3, 7, 'Invoices').value],
    });
    assert.match(result, /1 of 2 match/);
  });
});
