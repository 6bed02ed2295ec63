import * as assert from 'node:assert/strict';
import { makeEntry, type HistoryEntry } from '../../../src/history/entry';
import { EXPORT_CHUNK_ROWS, csvHeader } from '../../../src/export/export';
import { exportArgument, exportRows, exportTotal, writeExport, type ExportSink } from '../../../src/export/exportRun';
import { bounded } from '../../../src/base/inert';
import { NOW } from '../helpers/items';

const MIN = 60_000;
const run = (id: number, flowName = 'Invoices'): HistoryEntry =>
  makeEntry({
    id,
    flowId: 7,
    flowName,
    createdAt: new Date(NOW - 10 * MIN).toISOString(),
    firstSeen: NOW - 9 * MIN,
    lastSeen: NOW - 2 * MIN,
    leftAt: NOW - MIN,
    raw: undefined,
  });
const plain = (text: string, max: number) => bounded(text, max);

/** A sink that records what happens to it: the text written, whether it was committed or aborted. */
function recordingSink(fail?: { onWrite?: number; onCommit?: boolean }) {
  const state = { text: '', writes: 0, committed: false, aborted: false, target: '' };
  const sink: ExportSink = {
    async write(text) {
      if (fail?.onWrite === state.writes) throw new Error('disk full');
      state.writes++;
      state.text += text;
    },
    async commit() {
      if (fail?.onCommit) throw new Error('the file exists');
      state.committed = true;
      state.target = state.text;
    },
    async abort() {
      state.aborted = true;
      state.text = '';
    },
  };
  return { state, open: async () => sink };
}

describe('Export History: writing the file', () => {
  const many = Array.from({ length: 2 * EXPORT_CHUNK_ROWS + 5 }, (_, i) => run(i + 1));

  it('writes every run of every source, a chunk at a time, then commits', async () => {
    const { state, open } = recordingSink();
    const seen: number[] = [];
    const outcome = await writeExport(open, {
      format: 'jsonl',
      sources: [
        { service: 'Production', entries: many },
        { service: 'Staging', entries: [run(99_001)] },
      ],
      mask: plain,
      cancelled: () => false,
      progress: (rows) => seen.push(rows),
    });
    assert.deepEqual(outcome, { kind: 'done', rows: many.length + 1 });
    assert.equal(state.committed, true);
    assert.equal(state.writes, 3, 'three chunks');
    const lines = state.target
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { service: string; sync_id: number });
    assert.equal(lines.length, many.length + 1);
    assert.deepEqual(lines.at(-1), { ...lines.at(-1), service: 'Staging', sync_id: 99_001 });
    assert.deepEqual(seen, [EXPORT_CHUNK_ROWS, 2 * EXPORT_CHUNK_ROWS, many.length + 1]);
  });

  it('a filter keeps only its runs; the total counts every run kept', async () => {
    const { state, open } = recordingSink();
    const sources = [{ service: 'P', entries: [run(1), run(2), run(3)], filter: (e: HistoryEntry) => e.id !== 2 }];
    assert.equal(exportTotal(sources), 3);
    await writeExport(open, { format: 'csv', sources, mask: plain, cancelled: () => false });
    assert.deepEqual(
      state.target
        .split('\r\n')
        .slice(1, -1)
        .map((l) => l.split(',')[3]),
      ['1', '3'],
    );
  });

  it('CSV begins with the UTF-8 byte order mark (spreadsheets read it as UTF-8), JSON Lines never (RFC 8259)', async () => {
    const csv = recordingSink();
    await writeExport(csv.open, {
      format: 'csv',
      sources: [{ service: 'P', entries: [run(1, 'Prod\u00e9')] }],
      mask: plain,
      cancelled: () => false,
    });
    assert.ok(csv.state.target.startsWith(`\ufeff${csvHeader()}`), JSON.stringify(csv.state.target.slice(0, 20)));
    assert.equal(csv.state.target.indexOf('\ufeff', 1), -1, 'once');
    const empty = recordingSink();
    await writeExport(empty.open, { format: 'csv', sources: [], mask: plain, cancelled: () => false });
    assert.equal(empty.state.target, `\ufeff${csvHeader()}`);
    const jsonl = recordingSink();
    await writeExport(jsonl.open, {
      format: 'jsonl',
      sources: [{ service: 'P', entries: [run(1)] }],
      mask: plain,
      cancelled: () => false,
    });
    assert.ok(jsonl.state.target.startsWith('{"service"'), jsonl.state.target.slice(0, 20));
    assert.ok(!jsonl.state.target.includes('\ufeff'));
  });

  it('cancelled between chunks: the temporary file is deleted, nothing is committed', async () => {
    const { state, open } = recordingSink();
    let asked = 0;
    const outcome = await writeExport(open, {
      format: 'csv',
      sources: [{ service: 'P', entries: many }],
      mask: plain,
      cancelled: () => ++asked > 2,
    });
    assert.deepEqual(outcome, { kind: 'cancelled' });
    assert.equal(state.committed, false);
    assert.equal(state.aborted, true);
    assert.equal(state.writes, 1, 'stopped after the first chunk');
  });

  it('a failed write or commit aborts the sink and throws', async () => {
    for (const fail of [{ onWrite: 1 }, { onCommit: true }]) {
      const { state, open } = recordingSink(fail);
      await assert.rejects(
        writeExport(open, {
          format: 'csv',
          sources: [{ service: 'P', entries: many }],
          mask: plain,
          cancelled: () => false,
        }),
      );
      assert.equal(state.committed, false);
      assert.equal(state.aborted, true);
    }
  });

  it('service text goes through the mask: the key never reaches a row', () => {
    const key = 'fs_live_0123456789abcdef';
    const rows = [
      ...exportRows([{ service: `Prod ${key}`, entries: [run(1, `Flow ${key}`)] }], (text, max) =>
        bounded(text, max, key),
      ),
    ];
    assert.ok(!JSON.stringify(rows).includes(key));
    assert.ok(!JSON.stringify(rows).includes(key.slice(0, 8)));
  });

  it('the argument form: uri and format required, service and filter optional, anything else refused', () => {
    assert.equal(exportArgument(undefined), undefined);
    assert.equal(exportArgument({ kind: 'historyDay' }), undefined, "a view's node is not the argument form");
    assert.deepEqual(exportArgument({ uri: 'file:///tmp/a.csv', format: 'csv' }), {
      uri: 'file:///tmp/a.csv',
      format: 'csv',
    });
    assert.deepEqual(
      exportArgument({ uri: ' file:///tmp/a.jsonl ', format: 'jsonl', service: 'Staging', filter: 'flow:7' }),
      { uri: 'file:///tmp/a.jsonl', format: 'jsonl', service: 'Staging', filter: 'flow:7' },
    );
    assert.deepEqual(exportArgument({ uri: 'file:///tmp/a', format: 'xlsx' }), { problem: 'format' });
    assert.deepEqual(exportArgument({ uri: 7, format: 'csv' }), { problem: 'uri' });
    assert.deepEqual(exportArgument({ uri: 'x'.repeat(5_000), format: 'csv' }), { problem: 'uri' });
    assert.deepEqual(exportArgument({ uri: 'file:///a', format: 'csv', service: 3 }), { problem: 'service' });
    assert.deepEqual(exportArgument({ uri: 'file:///a', format: 'csv', filter: 'x'.repeat(201) }), {
      problem: 'filter',
    });
  });
});

describe('Export History: fast ISO times', () => {
  it('isoTime writes what toISOString writes, across days, years and odd milliseconds; nothing for a non-time', async () => {
    const { isoTime } = await import('../../../src/export/export');
    const times = [
      0,
      1,
      999,
      1000,
      59_999,
      86_399_999,
      86_400_000,
      Date.UTC(2026, 10, 22, 23, 59, 59, 999),
      Date.UTC(2024, 1, 29, 12, 3, 4, 5),
      -1,
      Date.UTC(1969, 11, 31, 23, 59, 59, 1),
      253402300799999,
    ];
    for (let i = 0; i < 2000; i++) times.push(Math.floor(Date.UTC(2026, 0, 1) + i * 3_637_411.7));
    for (const ms of times) assert.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
    assert.equal(isoTime(253402300800000), new Date(253402300800000).toISOString(), 'after 9999: as toISOString');
    assert.equal(isoTime(NaN), '');
    assert.equal(isoTime(8.64e15 + 1), '');
  });
});
