import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { hideEverywhere, inert } from '../../../src/base/inert';
import { MAX_FLOW_NAME, makeEntry, type HistoryEntry } from '../../../src/history/index';
import { mergeSegments, parseSegment } from '../../../src/history/store';
import {
  CLOCK_SKEW_MS,
  MAX_DAY_FILES,
  MAX_LOG_BYTES,
  MAX_READ_BYTES,
  MAX_READ_RUNS,
  dayOf,
  logFileName,
  logRecord,
  parseLog,
  parseLogBytes,
  windowTag,
  withoutRepeats,
} from '../../../src/history/log';
import { LogStore } from '../../../src/history/logStore';
import { MemoryFiles } from '../helpers/memoryFiles';
import { syncAt } from '../helpers/items';
import { ProcessingObserver } from '../../../src/history/observer';
import { historyFilterLive } from '../../../src/history/findRows';
import { historyEntryFilter } from '../../../src/history/historyFilter';
import { exportRow } from '../../../src/export/export';

const SEC = 1000;
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const NOW = Date.UTC(2026, 10, 22, 12);
const FOLDER = 'flowsync.example.com-0000abcd';
const FIXTURE = path.join(__dirname, '../../../../test/fixtures/history-0.2.0/segment.json');

/** A run that left `leftAgo` ms before NOW. */
function run(id: number, leftAgo: number, extra: Partial<HistoryEntry> = {}): HistoryEntry {
  const leftAt = NOW - leftAgo;
  return makeEntry({
    id,
    flowId: 3,
    flowName: 'Payroll',
    createdAt: new Date(leftAt - 10 * MIN).toISOString(),
    firstSeen: leftAt - 9 * MIN,
    lastSeen: leftAt - 15 * SEC,
    leftAt,
    ...extra,
  });
}
const ids = (entries: readonly HistoryEntry[]) => entries.map((e) => e.id);
/** Sync #42 listed in every other answer of a service, `runs` times: a new run of it each time, seen `lag` later. */
const flood = (runs: number, lag: number) =>
  Array.from({ length: runs }, (_, k) => NOW - DAY + k * MIN + lag).map((leftAt) =>
    run(42, NOW - leftAt, {
      createdAt: '2026-11-21T00:00:00.000Z',
      firstSeen: leftAt - 20 * SEC,
      lastSeen: leftAt - 15 * SEC,
    }),
  );

describe('historyLog (the append-only store)', () => {
  let now = NOW;
  let files: MemoryFiles;
  const open = (windowId: string, f: MemoryFiles = files) =>
    new LogStore({ files: f, folder: FOLDER, windowId, now: () => now });
  const logPath = (leftAgo: number, windowId: string) =>
    `${FOLDER}/${logFileName(dayOf(NOW - leftAgo), windowTag(windowId))}`;
  beforeEach(() => {
    now = NOW;
    files = new MemoryFiles(() => now);
  });

  it('a poll in which one run leaves appends one record (under 1 KB), whatever the store holds; readers get it back', async () => {
    const a = open('a');
    const big = Array.from({ length: 20_000 }, (_, i) => run(1_000_000 + i, (i * DAY) / 10_000 + MIN));
    await a.append(big);
    const before = files.bytesWritten;
    const raw = {
      id: 5,
      flow_id: 3,
      status: 'pending',
      created_at: '2026-11-22T11:40:00.000Z',
      flow: { id: 3, name: 'Payroll' },
    };
    const { bytes } = await a.append([run(5, 0, { raw })]);
    assert.equal(files.bytesWritten - before, bytes);
    assert.ok(bytes > 0 && bytes < 1024, `${bytes} bytes`);
    const read = await open('b').read(90);
    assert.equal(read.entries.length, 20_001);
    assert.deepEqual(read.entries[0], run(5, 0, { raw }), 'every field, the raw item too');
  });

  it('one sync id listed 50,000 times (a flood), recorded by two windows: read and merged, each run once, each byte read once', async () => {
    for (const [w, lag] of [
      ['a', 0],
      ['b', SEC],
    ] as const) {
      const byDay = new Map<string, string>();
      for (const e of flood(50_000, lag)) {
        byDay.set(logPath(NOW - e.leftAt, w), (byDay.get(logPath(NOW - e.leftAt, w)) ?? '') + logRecord(e));
      }
      for (const [p, text] of byDay) files.put(p, text);
    }
    const stored = [...files.data.values()].reduce((sum, f) => sum + f.bytes.length, 0);
    const read = await open('c').read(90);
    assert.equal(read.entries.length, 50_000, 'each run once');
    assert.equal(files.bytesRead, stored, 'every file read once, whole');
    // Its time (under 1 s) is the bench's row "one-id flood: read + merge 2 × 50,000 runs of one sync id"
    // (bench/history.mjs, `npm run bench -- --only history`); here the work is counted.
  });

  it("the flood's merge is linear: its work per record (property reads, counted) does not grow with the runs of one id", () => {
    // What a read does with the records it parsed (LogStore.read): each window's day file without repeats, then all
    // files merged. Every read of a record's fields is counted: 10 times the records may cost at most twice the reads
    // per record (a sort's log factor is well within; comparing the runs of one id with each other is 10 times over).
    // Over a budget, the count stops the merge at once.
    const readsPerRecord = (runs: number, budgetPerRecord: number) => {
      let reads = 0;
      const budget = budgetPerRecord * 2 * runs;
      const counted = (e: HistoryEntry) =>
        new Proxy(e, {
          get: (target, key, receiver) => {
            if (++reads > budget) throw new Error(`over ${budgetPerRecord} reads per record (${2 * runs} records)`);
            return Reflect.get(target, key, receiver) as unknown;
          },
        });
      const files: HistoryEntry[][] = [];
      for (const lag of [0, SEC]) {
        const byDay = new Map<string, HistoryEntry[]>();
        for (const e of flood(runs, lag)) {
          const day = dayOf(e.leftAt);
          if (!byDay.has(day)) byDay.set(day, []);
          byDay.get(day)!.push(e);
        }
        files.push(...byDay.values());
      }
      const merged = mergeSegments(files.map((file) => withoutRepeats(file.map(counted))));
      assert.equal(merged.length, runs, `each of ${runs} runs once`);
      return reads / (2 * runs);
    };
    const few = readsPerRecord(1_000, 1_000);
    const many = readsPerRecord(10_000, 2 * few);
    assert.ok(many <= 2 * few, `${many} reads per record of 20,000, ${few} of 2,000`);
  });

  it('a 0.2.0 segment is migrated on first start, once, without loss', async () => {
    const text = fs.readFileSync(FIXTURE, 'utf8');
    const legacy = parseSegment(text);
    assert.ok(legacy.ok && legacy.entries.length === 300);
    files.put(`${FOLDER}/segment-old-window-1234abcd.json`, text);
    const read = await open('a').read(90);
    assert.deepEqual(read.entries, legacy.entries, 'every run, every field (raw items too)');
    const names = (await files.list(FOLDER)).map((f) => f.name);
    assert.ok(!names.some((n) => n.startsWith('segment-')), 'the segment is gone');
    assert.ok(
      names.every((n) => /^h2-\d{4}-\d{2}-\d{2}-migrated-[0-9a-f]{8}\.log$/.test(n)),
      names.join(', '),
    );
    // Cut short before the segment was deleted (or two windows at once): done again, nothing doubled.
    files.put(`${FOLDER}/segment-old-window-1234abcd.json`, text);
    assert.equal((await open('b').read(90)).entries.length, 300);
    assert.equal((await open('c').read(90)).entries.length, 300);
  });

  it('a torn last record (a write cut short) is skipped; the next record is read; nothing is set aside', async () => {
    const a = open('a');
    await a.append([run(1, 3 * MIN), run(2, 2 * MIN)]);
    const p = logPath(0, 'a');
    const torn = logRecord(run(3, MIN)).slice(0, 30);
    files.put(p, files.text(p) + torn);
    const reader = open('r');
    assert.deepEqual(ids((await reader.read(7)).entries), [2, 1]);
    await a.append([run(4, 0)]);
    assert.deepEqual(ids((await reader.read(7)).entries), [4], 'only what is new');
    assert.equal(reader.rejected, 1);
    assert.equal(reader.setAside, 0);
    assert.deepEqual(ids((await open('s').read(7)).entries), [4, 2, 1]);
    assert.equal(files.data.size, 1);
  });

  it('every file is checked for size before it is read: a huge one is set aside once, unread; garbage too', async () => {
    files.data.set(`${FOLDER}/${logFileName(dayOf(NOW), 'huge')}`, {
      bytes: new Uint8Array(MAX_LOG_BYTES + 1),
      mtime: now,
    });
    files.put(`${FOLDER}/segment-huge-0.json`, ' '.repeat(17 * 1024 * 1024));
    files.put(`${FOLDER}/${logFileName(dayOf(NOW), 'junk')}`, 'not\nrecords\nat all');
    const a = open('a');
    assert.deepEqual((await a.read(7)).entries, []);
    assert.equal(files.bytesRead, 'not\nrecords\nat all'.length, 'only the small file was read');
    assert.equal(a.setAside, 3);
    await a.read(7);
    assert.equal(a.setAside, 3, 'once');
    assert.deepEqual((await files.list(FOLDER)).map((f) => f.name).filter((n) => n.endsWith('.corrupt')).length, 3);
    // Cleaned up after the user's days.
    now += 8 * DAY;
    await a.pruneDisk(7);
    assert.deepEqual(await files.list(FOLDER), []);
  });

  it("only the user's days delete: a window showing 1 day reads 1 day and deletes nothing", async () => {
    const a = open('a');
    await a.append(Array.from({ length: 30 }, (_, d) => run(100 + d, d * DAY + MIN)));
    files.put(`${FOLDER}/h2-2026-11-22-x.log.tmp-abc123`, 'left over', NOW - 2 * DAY);
    const shown = await open('workspace').read(1);
    assert.deepEqual(ids(shown.entries), [100, 101]);
    assert.equal((await files.list(FOLDER)).length, 31, 'nothing deleted by reading');
    assert.equal(
      await a.pruneDisk(7),
      22 + 1,
      'the user prunes: days before 7 days ago, and the leftover temporary file',
    );
    assert.equal((await open('b').read(90)).entries.length, 8);
  });

  it('Clear History clears every window: a cleared run is never written again nor read, even if a window appends it late', async () => {
    const [a, b] = [open('a'), open('b')];
    await a.append([run(1, 2 * MIN)]);
    await b.append([run(1, 2 * MIN + SEC, { createdAt: run(1, 2 * MIN).createdAt })]);
    assert.deepEqual(ids((await b.read(7)).entries), [1]);
    now += MIN;
    await a.clear();
    assert.equal(await b.cleared(), now, 'b sees the clear');
    await b.append([run(1, 2 * MIN), run(2, -2 * MIN)]); // b still held run 1: not written; run 2 left after the clear
    files.put(logPath(0, 'late'), logRecord(run(1, 2 * MIN))); // a window that does not know yet
    assert.deepEqual(ids((await open('c').read(7)).entries), [2]);
  });

  it('without append (the browser): the window rewrites its own day file, atomically, and reads it once', async () => {
    const web = new MemoryFiles(() => now, { append: false });
    const a = open('a', web);
    await a.append([run(1, 2 * MIN)]);
    await a.append([run(2, MIN)]);
    assert.deepEqual(ids(parseLog(web.text(logPath(0, 'a'))).entries), [1, 2]);
    assert.equal(web.bytesRead, 0, 'its own file is kept in memory, not read back');
    assert.deepEqual(ids((await open('r', web).read(7)).entries), [2, 1]);
  });

  it('flow names from disk are made inert the same way on every record, however often a name repeats (read once per file)', () => {
    const names = [
      'Payroll',
      'Evil\u202e[x](command:y) KEY-1234-5678-abcd',
      'Payroll',
      '',
      'Evil\u202e[x](command:y) KEY-1234-5678-abcd',
      'x'.repeat(500),
    ];
    const text = names
      .map(
        (flowName, i) =>
          `\n${JSON.stringify([i + 1, 7, flowName, '2026-11-22T11:00:00.000Z', Date.UTC(2026, 10, 22, 11), Date.UTC(2026, 10, 22, 11, 30), Date.UTC(2026, 10, 22, 12), 0])}`,
      )
      .join('');
    hideEverywhere(() => 'KEY-1234-5678-abcd');
    try {
      for (const log of [text, `${text}\n{torn`]) {
        const { entries } = parseLog(log);
        assert.deepEqual(
          entries.map((e) => e.flowName),
          names.map((n) => inert(n, MAX_FLOW_NAME)),
        );
        assert.ok(!entries.some((e) => e.flowName.includes('KEY-1234')));
      }
    } finally {
      hideEverywhere(() => undefined);
    }
  });

  it('a log read from its bytes in pieces gives what parseLog of its whole text gives, torn or planted lines too (property)', () => {
    const names = ['Payroll', 'Évian · CRM', '日本語の流れ', 'x'.repeat(300), 'a\u2028b'];
    const record = (i: number, name: string, raw: unknown) =>
      `\n${JSON.stringify([i, 7, name, '2026-11-22T11:00:00.000Z', NOW - 2 * MIN, NOW - MIN, NOW, raw])}`;
    const line = fc.oneof(
      { weight: 20, arbitrary: fc.tuple(fc.nat(), fc.constantFrom(...names), fc.constantFrom(0, 1, { errors: null })) },
      { weight: 1, arbitrary: fc.constantFrom('\n', '\n   ', '\n{torn', '\n[1,2],[3]', '\n[1,', '\n2]', '\n\uFEFF[]') },
    );
    const log = fc
      .tuple(fc.array(line, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 40 }), fc.boolean())
      .map(([lines, times, newlineAtEnd]) => {
        const text = lines.map((l) => (typeof l === 'string' ? l : record(l[0], l[1], l[2]))).join('');
        return text.repeat(times) + (newlineAtEnd ? '\n' : '');
      });
    fc.assert(
      fc.property(log, (text) => {
        assert.deepEqual(parseLogBytes(new TextEncoder().encode(text)), parseLog(text));
      }),
      { numRuns: 200 },
    );
    // Several pieces of records only (the usual day file), and a torn record in the last piece.
    const day = Array.from({ length: 3000 }, (_, i) => record(i, names[i % names.length], i % 3)).join('');
    const bytes = new TextEncoder().encode(day);
    assert.ok(bytes.length > 10 * 32 * 1024);
    assert.equal(parseLogBytes(bytes).entries.length, 3000);
    assert.deepEqual(parseLogBytes(bytes), parseLog(day));
    // A torn last record; a line longer than a piece (blank: no row; or a record); a blank piece at the end.
    for (const text of [
      `${day}\n[1,`,
      `${day}\n${' '.repeat(40_000)}`,
      `${day}\n${' '.repeat(40_000)}${day}`,
      `${day}${record(1, 'y'.repeat(40_000), 0)}${day}`,
    ]) {
      assert.deepEqual(parseLogBytes(new TextEncoder().encode(text)), parseLog(text));
    }
  });

  // ------------------------------------------------------------ under faults: the clock

  it('a Clear marker ahead of the clock (a clock that was ahead, or a planted file) counts as now; a run after it is kept', async () => {
    files.put(`${FOLDER}.cleared`, JSON.stringify({ clearedAt: NOW + 30 * DAY })); // 30 bytes, 30 days ahead
    const a = open('a');
    assert.ok((await a.cleared()) <= NOW + CLOCK_SKEW_MS, 'counted as now');
    now += MIN;
    await a.append([run(1, -30 * SEC)]); // left 30 s after the marker was read
    assert.deepEqual(ids((await open('r').read(7)).entries), [1], 'a run that left after it is kept');
    assert.ok(
      JSON.parse(files.text(`${FOLDER}.cleared`)).clearedAt <= now,
      'the marker itself is set back to now: a window started later agrees',
    );
  });

  it('a Clear done while the clock was ahead: later runs are kept once the clock is right, and a second Clear resets it', async () => {
    const a = open('a');
    now = NOW + 30 * DAY;
    await a.clear(); // the clock 30 days ahead
    now = NOW;
    const b = open('b');
    await b.cleared();
    now += MIN;
    await b.append([run(2, -30 * SEC)]);
    assert.deepEqual(ids((await open('r').read(7)).entries), [2]);
    now += MIN;
    await a.clear(); // the clock right again: Clear clears now, not after the marker
    assert.equal(await a.cleared(), now);
    now += MIN;
    await a.append([run(3, -2 * MIN - 30 * SEC)]);
    assert.deepEqual(ids((await open('s').read(7)).entries), [3]);
  });

  it('a clock 30 days ahead for one start deletes none of the newest historyDays of records', async () => {
    const a = open('a');
    await a.append(Array.from({ length: 7 }, (_, d) => run(200 + d, d * DAY + MIN)));
    assert.equal((await files.list(FOLDER)).length, 7);
    now = NOW + 30 * DAY;
    assert.equal(await open('ahead').pruneDisk(7), 0, 'nothing deleted: they are the newest 7 days there are');
    now = NOW;
    assert.equal((await open('r').read(7)).entries.length, 7);
    // Days older than the user's days behind the newest record still go.
    await a.append([run(300, 20 * DAY)]);
    now = NOW + 30 * DAY;
    assert.equal(await open('ahead2').pruneDisk(7), 1);
  });

  it('a clock ahead that writes one run: its day file is no horizon, and the next start keeps every real day', async () => {
    const a = open('a');
    await a.append(Array.from({ length: 7 }, (_, d) => run(200 + d, d * DAY + MIN)));
    now = NOW + 30 * DAY;
    const ahead = open('ahead');
    assert.equal(await ahead.pruneDisk(7), 0, 'the start while ahead deletes nothing');
    // One run seen and left while the clock is ahead; the service's clock is right: it was created 10 minutes ago.
    await ahead.append([
      makeEntry({
        id: 400,
        flowId: 3,
        flowName: 'Payroll',
        createdAt: new Date(NOW - 10 * MIN).toISOString(),
        firstSeen: now - 9 * MIN,
        lastSeen: now - 15 * SEC,
        leftAt: now - 10 * SEC,
      }),
    ]);
    assert.equal((await files.list(FOLDER)).length, 8, 'a day file ahead of every real one');
    now += MIN;
    assert.equal(await open('reload').pruneDisk(7), 0, 'the next start (clock still ahead) deletes no real day');
    now = NOW;
    const kept = ids((await open('r').read(7)).entries).filter((id) => id < 400);
    assert.deepEqual(kept, [200, 201, 202, 203, 204, 205, 206], 'every real day kept');
    // Once the clock is right and runs are recorded again, days older than historyDays still go.
    now = NOW + 8 * DAY;
    const later = open('later');
    await later.append([run(500, -8 * DAY + MIN)]);
    assert.equal(
      await later.pruneDisk(7),
      7,
      'the real days older than 7 days before the clock, right again (the day written ahead stands alone)',
    );
  });

  // A run's created_at is the service's text: it never moves the prune horizon, whatever it says (issue #49 item 9).
  for (const [what, createdAt] of [
    ['not a time ("n/a")', () => 'n/a'],
    ['not ISO ("22.11.2026 11:50")', () => '22.11.2026 11:50'],
    ['ISO, from a clock as far ahead as ours', (at: number) => new Date(at).toISOString()],
    ['ISO, from a clock that is right', (at: number) => new Date(Math.min(at, NOW)).toISOString()],
  ] as const) {
    it(`a clock 30 days ahead writes one run, every created_at ${what}: the reload still ahead keeps all 7 real days`, async () => {
      const a = open('a');
      await a.append(
        Array.from({ length: 7 }, (_, d) =>
          run(200 + d, d * DAY + MIN, { createdAt: createdAt(NOW - d * DAY - 11 * MIN) }),
        ),
      );
      now = NOW + 30 * DAY;
      const ahead = open('ahead');
      await ahead.pruneDisk(7);
      await ahead.append([
        makeEntry({
          id: 400,
          flowId: 3,
          flowName: 'Payroll',
          createdAt: createdAt(now - 10 * MIN),
          firstSeen: now - 9 * MIN,
          lastSeen: now - 15 * SEC,
          leftAt: now - 10 * SEC,
        }),
      ]);
      now += MIN;
      const deleted = await open('reload').pruneDisk(7);
      const left = (await files.list(FOLDER)).map((f) => f.name).filter((n) => n.includes(windowTag('a')));
      assert.deepEqual([deleted, left.length], [0, 7], 'no real day deleted');
    });
  }

  it('the horizon is the newest day of records that the day before it confirms, bounded by the clock', async () => {
    const a = open('a');
    await a.append(Array.from({ length: 7 }, (_, d) => run(200 + d, d * DAY + MIN)));
    // Time really passes: 30 days later, one day of records. Alone it is no horizon (it could be a clock ahead).
    now = NOW + 30 * DAY;
    const back = open('back');
    await back.append([run(600, -30 * DAY + MIN)]);
    assert.equal(await back.pruneDisk(7), 0, 'one day alone after a gap moves nothing');
    // The next day's records confirm it: the days older than 7 days before it go.
    now = NOW + 31 * DAY;
    const next = open('next');
    await next.append([run(601, -31 * DAY + MIN)]);
    assert.equal(await next.pruneDisk(7), 7, 'the 7 old days go once two days in a row have records');
    // A day file ahead of the clock (planted, or written with the clock ahead) never deletes a newer one.
    files.put(`${FOLDER}/${logFileName('2099-01-01', windowTag('x'))}`, '');
    files.put(`${FOLDER}/${logFileName('2099-01-02', windowTag('x'))}`, '');
    assert.equal(await open('r').pruneDisk(7), 0, 'the clock bounds the horizon');
  });

  // ------------------------------------------------------------ under faults: writes that fail

  it('an append cut short (no space left after part of it) is retried without the bytes that reached the file', async () => {
    const a = open('a');
    const ten = Array.from({ length: 10 }, (_, k) => run(500 + k, 10 * MIN - k * SEC));
    let faults = 1;
    files.fault = (_, bytes) => (faults-- > 0 ? Math.floor(bytes.length * 0.7) : undefined); // 7 of 10 records reach the file
    await a.append(ten);
    const onDisk = parseLog(files.text(logPath(0, 'a')));
    assert.deepEqual([onDisk.entries.length, onDisk.rejected], [10, 0], 'each record once, none torn');
    assert.equal((await open('r').read(7)).entries.length, 10);
  });

  it('a batch whose retry fails too is kept and written by the next append, once; the append says it failed', async () => {
    const a = open('a');
    files.fault = (_, bytes) => Math.min(bytes.length - 1, 100); // the first 100 bytes reach the file, then nothing
    await assert.rejects(a.append([run(1, 3 * MIN), run(2, 2 * MIN)]), /ENOSPC/);
    files.fault = undefined;
    await a.append([run(3, MIN)]);
    const onDisk = parseLog(files.text(logPath(0, 'a')));
    assert.deepEqual(
      [ids(onDisk.entries), onDisk.rejected],
      [[1, 2, 3], 0],
      'the cut record completed, nothing repeated',
    );
    assert.deepEqual(ids((await open('r').read(7)).entries), [3, 2, 1]);
    // Nothing held back: an append with nothing new writes what is still waiting.
    files.fault = () => 0;
    await assert.rejects(a.append([run(4, 0)]));
    files.fault = undefined;
    await a.append([]);
    assert.deepEqual(ids((await open('s').read(7)).entries), [4, 3, 2, 1]);
  });

  it('without append (the browser): a rewrite that fails keeps its runs for the next one', async () => {
    const web = new MemoryFiles(() => now, { append: false });
    const a = open('a', web);
    await a.append([run(1, 2 * MIN)]);
    web.fault = () => 0;
    await assert.rejects(a.append([run(2, MIN)]));
    web.fault = undefined;
    await a.append([run(3, 0)]);
    assert.deepEqual(ids(parseLog(web.text(logPath(0, 'a'))).entries), [1, 2, 3]);
  });

  // ------------------------------------------------------------ under faults: reads bounded per read

  it('a read is bounded in runs across files: three planted files of 111,000 runs in one day give at most MAX_READ_RUNS', async () => {
    const day = dayOf(NOW);
    // 111,000 runs (was 4 × 60,000: twice the work for the same proof; this one hit the suite's 10 s under load).
    // Over MAX_READ_RUNS (100,000) in all, no file over it alone: a bound per file only would let all 111,000 through.
    // Whatever order the files are read in, the read stops in a file read in part (its older records left unread) or
    // before a file left for a later read, and the log says which.
    for (const [k, runs] of [60_000, 50_000, 1_000].entries()) {
      const records = Array.from({ length: runs }, (_, i) =>
        logRecord(run(k * 100_000 + i, 5 * MIN + i, { raw: undefined })),
      ).join('');
      files.put(`${FOLDER}/${logFileName(day, `planted${k}`)}`, records);
    }
    const logs: string[] = [];
    const r = new LogStore({ files, folder: FOLDER, windowId: 'r', now: () => now, log: (_, m) => logs.push(m) });
    const read = await r.read(7);
    assert.ok(read.entries.length <= MAX_READ_RUNS, `${read.entries.length} runs read at once`);
    assert.ok(read.entries.length >= 60_000, 'not nothing');
    assert.ok(
      logs.some((m) => /left for a later read|left unread/.test(m)),
      logs.join('\n'),
    );
  });

  it('a read is bounded in bytes across files: three files of 20 MB in one day are not all read at once', async () => {
    const day = dayOf(NOW);
    for (let k = 0; k < 3; k++) {
      files.data.set(`${FOLDER}/${logFileName(day, `big${k}`)}`, {
        bytes: new Uint8Array(20 * 1024 * 1024).fill(32),
        mtime: now,
      });
    }
    await open('r').read(7);
    assert.ok(files.bytesRead <= MAX_READ_BYTES, `${files.bytesRead} bytes read at once`);
  });

  it("at most MAX_DAY_FILES files of a day are read: the rest are set aside (counted, in the log), never this window's own", async () => {
    const day = dayOf(NOW);
    await open('own').append([run(1, 2 * MIN)]);
    for (let k = 0; k < MAX_DAY_FILES + 5; k++) {
      files.put(`${FOLDER}/${logFileName(day, `w${k}`)}`, logRecord(run(10 + k, MIN)), now + k);
    } // newer than its own
    const logs: string[] = [];
    const own = new LogStore({ files, folder: FOLDER, windowId: 'own', now: () => now, log: (_, m) => logs.push(m) });
    const read = await own.read(7);
    assert.equal(read.entries.length, MAX_DAY_FILES);
    assert.ok(
      read.entries.some((e) => e.id === 1),
      'its own file is read',
    );
    assert.equal(own.setAside, 6);
    assert.equal(logs.filter((m) => m.includes('set aside')).length, 6);
    assert.equal((await files.list(FOLDER)).filter((f) => f.name.endsWith('.corrupt')).length, 6);
  });

  it('a run repeated within one file (a retried write of an older version) is read once, and summarized once', async () => {
    const records = [run(1, 3 * MIN), run(2, 2 * MIN), run(3, MIN)].map(logRecord).join('');
    files.put(logPath(0, 'a'), records + records.slice(0, 200) + records);
    const r = open('r');
    assert.deepEqual(ids((await r.read(7)).entries), [3, 2, 1]);
    files.put(logPath(DAY, 'a'), [run(1, DAY), run(2, DAY + MIN)].map(logRecord).join('').repeat(3));
    now += 2 * DAY;
    const [day] = await open('s').summaries(7, dayOf(now));
    assert.deepEqual([day.day, day.runs], [dayOf(NOW - DAY), 2]);
  });
});

describe('historyLog: whether a run had errors', () => {
  const MINUTE = 60_000;
  /** Sync #7 seen twice with `errors` (the second time with a long list), then gone: the run History keeps. */
  const leftWithErrors = (errorsSeen: unknown[]) => {
    const observer = new ProcessingObserver();
    const at = (k: number) => NOW - 10 * MINUTE + k * MINUTE;
    errorsSeen.forEach((errors, k) => {
      const item = syncAt(7, 3, at(k), MINUTE, { errors });
      observer.observe('c', at(k), { items: [item], complete: true });
    });
    const { left } = observer.observe('c', at(errorsSeen.length), { items: [], complete: true });
    assert.equal(left.length, 1);
    return left[0];
  };
  const hadErrors = (e: HistoryEntry) => ({
    filter: historyFilterLive(e, false).flags?.errors === true,
    text: (historyEntryFilter('has:errors', 'S', () => false) as { test: (e: HistoryEntry) => boolean }).test(e),
    exported: exportRow('S', e, (s) => s).had_errors,
  });
  const longErrors = Array.from({ length: 40 }, (_, i) => ({ message: `E_VALIDATION: record ${i} rejected` }));

  it('a run whose errors are too long to keep its item: History still says it had errors, in memory and read back', () => {
    const entry = leftWithErrors([null, longErrors]);
    const back = parseLog(logRecord(entry)).entries[0];
    assert.deepEqual(hadErrors(entry), { filter: true, text: true, exported: true });
    assert.deepEqual(hadErrors(back), { filter: true, text: true, exported: true });
  });

  it('a run that had errors once keeps them, though its last item had none; one without errors has none', () => {
    assert.deepEqual(hadErrors(leftWithErrors([[{ message: 'E_TIMEOUT: x' }], null])), {
      filter: true,
      text: true,
      exported: true,
    });
    const clean = leftWithErrors([null, null]);
    assert.deepEqual(hadErrors(parseLog(logRecord(clean)).entries[0]), { filter: false, text: false, exported: false });
  });
});
