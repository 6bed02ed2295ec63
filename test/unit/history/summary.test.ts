import * as assert from 'node:assert/strict';
import {
  DURATION_STEPS,
  activitySeries,
  flowStats,
  makeEntry,
  summarizeDay,
  type HistoryEntry,
  type OlderDays,
} from '../../../src/history/index';
import { mergeSegments, pruneEntries } from '../../../src/history/store';
import { dayOf, logFileName, logRecord, windowTag } from '../../../src/history/log';
import { LogStore } from '../../../src/history/logStore';
import { MemoryFiles } from '../helpers/memoryFiles';

const SEC = 1000;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 22, 12);
const FOLDER = 'flowsync.example.com-0000abcd';
/** A percentile from a histogram is within this factor of the exact one (the buckets' √R). */
const FACTOR = Math.pow(2, 1 / DURATION_STEPS / 2);

/** A deterministic pseudo-random sequence in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function run(
  id: number,
  flowId: number,
  leftAt: number,
  durationMs: number,
  flowName = `Flow ${flowId}`,
): HistoryEntry {
  const start = leftAt - durationMs;
  return makeEntry({
    id,
    flowId,
    flowName,
    createdAt: new Date(start).toISOString(),
    firstSeen: start + 20 * SEC,
    lastSeen: leftAt - 15 * SEC,
    leftAt,
  });
}

/** 30 days of runs of three flows (a minute, ten minutes, two hours: some span midnight), 200 a day, newest first. */
function thirtyDays(): HistoryEntry[] {
  const rnd = random(7);
  const typical = [MIN, 10 * MIN, 2 * HOUR];
  const runs: HistoryEntry[] = [];
  let id = 1;
  for (let d = 0; d < 30; d++) {
    const dayStart = Date.parse(`${dayOf(NOW - d * DAY)}T00:00:00.000Z`);
    for (let k = 0; k < 200; k++) {
      const flow = k % 3;
      const leftAt = Math.min(NOW - SEC, dayStart + Math.floor(rnd() * DAY));
      runs.push(run(id++, 10 + flow, leftAt, Math.round(typical[flow] * Math.exp(rnd() * 1.5 - 0.5)) + 30 * SEC));
    }
  }
  return mergeSegments([runs]);
}

describe('historySummary (per-day, per-flow summaries of the days not in memory)', () => {
  let now = NOW;
  let files: MemoryFiles;
  const open = (windowId: string) => new LogStore({ files, folder: FOLDER, windowId, now: () => now });
  beforeEach(() => {
    now = NOW;
    files = new MemoryFiles(() => now);
  });

  /** What a window whose memory holds `cap` runs keeps, and the summaries of the days it does not hold whole. */
  async function window(windowId: string, cap: number): Promise<{ memory: HistoryEntry[]; older: OlderDays }> {
    const store = open(windowId);
    const read = await store.read(90, cap);
    const memory = pruneEntries(read.entries, now, 90, cap);
    const oldestDay = Date.parse(`${dayOf(memory.at(-1)!.leftAt)}T00:00:00.000Z`);
    const before = oldestDay + DAY; // the oldest day held may be cut by the cap: its summary counts instead
    return { memory, older: { before, days: await store.summaries(90, dayOf(before)) } };
  }

  it('with 30 days of runs and a memory of 3½ days: typical durations and the week chart match all runs', async () => {
    const all = thirtyDays();
    await open('a').append(all);
    const { memory, older } = await window('b', 700);
    assert.ok(memory.length === 700 && memory.at(-1)!.leftAt > NOW - 5 * DAY, 'memory holds only the newest days');
    assert.equal(older.days.length, 27, 'a summary of each other day (the cut one too)');

    const exact = flowStats(all);
    const summed = flowStats(memory, older);
    assert.deepEqual([...summed.keys()].sort(), [10, 11, 12]);
    for (const [flowId, s] of exact) {
      const got = summed.get(flowId)!;
      assert.equal(got.runs, s.runs, `flow ${flowId}: every run counted once`);
      for (const key of ['medianMs', 'p95Ms'] as const) {
        const ratio = got[key] / s[key];
        assert.ok(
          ratio <= FACTOR + 1e-9 && ratio >= 1 / FACTOR - 1e-9,
          `flow ${flowId} ${key}: ${got[key]} vs ${s[key]} (ratio ${ratio})`,
        );
      }
    }
    assert.ok(flowStats(memory).get(12)!.runs < exact.get(12)!.runs / 5, 'the runs in memory alone are a fraction');

    const want = activitySeries(all, [], now, 'week');
    const got = activitySeries(memory, [], now, 'week', undefined, older);
    assert.deepEqual(got.times, want.times);
    assert.deepEqual(
      got.bands.map((b) => [b.key, b.label]),
      want.bands.map((b) => [b.key, b.label]),
    );
    for (let i = 0; i < want.total.length; i++) {
      assert.ok(Math.abs(got.total[i] - want.total[i]) < 1e-9, `hour ${i}: ${got.total[i]} vs ${want.total[i]}`);
    }
    assert.ok(
      want.total.slice(0, 48).some((v) => v > 0),
      'the first two days of the week have runs',
    );
    const inMemoryOnly = activitySeries(memory, [], now, 'week');
    assert.ok(
      inMemoryOnly.total.slice(0, 48).every((v) => v === 0),
      'without summaries those days are empty',
    );
    // The shorter ranges are within memory: unchanged.
    assert.deepEqual(activitySeries(memory, [], now, 'day', undefined, older), activitySeries(memory, [], now, 'day'));
  });

  it('a run appended twice, and seen by two windows, is counted once', async () => {
    const all = thirtyDays();
    const old = all.filter((e) => e.leftAt < NOW - 10 * DAY);
    await open('a').append(all);
    await open('a').append(old); // appended again (a retried write)
    await open('b').append(old.map((e) => makeEntry({ ...e, lastSeen: e.lastSeen + SEC, leftAt: e.leftAt + SEC }))); // another window's sighting
    const { memory, older } = await window('c', 700);
    const day = dayOf(NOW - 15 * DAY);
    assert.equal(older.days.find((d) => d.day === day)!.runs, all.filter((e) => dayOf(e.leftAt) === day).length);
    const exact = flowStats(all);
    for (const [flowId, s] of flowStats(memory, older)) assert.equal(s.runs, exact.get(flowId)!.runs, `flow ${flowId}`);
  });

  it('a closed day is summarized once (its file written, read by the next window); a late append makes it again', async () => {
    const all = thirtyDays();
    await open('a').append(all);
    await window('b', 700);
    const day = dayOf(NOW - 20 * DAY);
    assert.ok(files.data.has(`${FOLDER}/s2-${day}.json`), 'the summary file is written');
    assert.ok(!files.data.has(`${FOLDER}/s2-${dayOf(NOW)}.json`), 'today is never summarized');
    const before = files.bytesRead;
    const second = await window('c', 700);
    const logBytes = [...files.data]
      .filter(([p]) => p.endsWith('.log'))
      .reduce((acc, [, f]) => acc + f.bytes.length, 0);
    assert.ok(
      files.bytesRead - before < logBytes / 2,
      `the next window reads summaries, not every run (${files.bytesRead - before} of ${logBytes} bytes)`,
    );
    const runs = second.older.days.find((d) => d.day === day)!.runs;

    await open('late').append([run(999_999, 10, Date.parse(`${day}T12:00:00.000Z`), 5 * MIN)]);
    const third = await window('d', 700);
    assert.equal(third.older.days.find((d) => d.day === day)!.runs, runs + 1);
  });

  it('a summary file that is not one (garbage, another day, out of bounds) is made again, never trusted', async () => {
    const all = thirtyDays();
    await open('a').append(all);
    const first = await window('b', 700);
    const day = dayOf(NOW - 20 * DAY);
    const path = `${FOLDER}/s2-${day}.json`;
    const stored = JSON.parse(files.text(path)) as {
      key: string;
      summary: { runs: number; flows: Array<{ durations: number[] }> };
    };
    for (const bad of [
      'not json',
      JSON.stringify({ ...stored, summary: { ...stored.summary, runs: -1 } }),
      JSON.stringify({ ...stored, summary: { ...stored.summary, day: dayOf(NOW - 21 * DAY) } }),
      JSON.stringify({
        ...stored,
        summary: { ...stored.summary, flows: [{ ...stored.summary.flows[0], durations: [1e9, 1] }] },
      }),
    ]) {
      files.put(path, bad);
      const again = await window(`w${bad.length}`, 700);
      assert.deepEqual(again.older.days, first.older.days, bad.slice(0, 60));
    }
  });

  it("Clear History: no summary of a cleared day is used, even one already made; the user's days prune summaries", async () => {
    await open('a').append(thirtyDays());
    const b = open('b');
    assert.equal((await b.summaries(90, dayOf(NOW))).length, 29);
    const names = () =>
      [...files.data.keys()]
        .filter((p) => p.includes('/s2-'))
        .map((p) => p.slice(-15, -5))
        .sort();
    assert.equal(names().length, 29);
    await b.pruneDisk(10);
    assert.deepEqual(
      names(),
      Array.from({ length: 10 }, (_, i) => dayOf(NOW - (10 - i) * DAY)),
      "summaries older than the user's days are deleted with their days",
    );
    now += MIN;
    await open('c').clear();
    assert.deepEqual(await b.summaries(90, dayOf(NOW)), [], 'the window that made them drops them');
    // A window that read the marker only now, and files written back by a window that had not seen the clear.
    files.put(
      `${FOLDER}/${logFileName(dayOf(NOW - 3 * DAY), windowTag('late'))}`,
      logRecord(run(5, 10, NOW - 3 * DAY, MIN)),
    );
    assert.deepEqual(
      await open('d').summaries(90, dayOf(NOW)),
      [{ day: dayOf(NOW - 3 * DAY), runs: 0, flows: [] }],
      'a cleared run is not counted',
    );
  });

  it('a run two windows saw leave on either side of midnight is counted once, on the day of its merged leftAt', async () => {
    const midnight = Date.parse(`${dayOf(NOW - 2 * DAY)}T00:00:00.000Z`);
    const seen = {
      id: 77,
      flowId: 10,
      flowName: 'Flow 10',
      createdAt: new Date(midnight - 10 * MIN).toISOString(),
      firstSeen: midnight - 9 * MIN,
      lastSeen: midnight - 30 * SEC,
    };
    await open('a').append([makeEntry({ ...seen, leftAt: midnight - 10 * SEC })]); // a's poll just before midnight
    await open('b').append([makeEntry({ ...seen, leftAt: midnight + 10 * SEC })]); // b's just after
    const days = await open('c').summaries(90, dayOf(NOW));
    assert.deepEqual(
      days.map((d) => [d.day, d.runs]),
      [
        [dayOf(midnight - DAY), 1],
        [dayOf(midnight), 0],
      ],
    );
  });

  it('summarizeDay: processing time per hour reaches back before the day (a run over midnight)', () => {
    const leftAt = Date.UTC(2026, 10, 20, 0, 30);
    const summary = summarizeDay('2026-11-20', [run(1, 7, leftAt, 2 * HOUR)]);
    const flat = summary.flows[0].hours;
    const hours = Array.from({ length: flat.length / 2 }, (_, i) => [
      new Date(flat[2 * i] * HOUR).toISOString().slice(11, 13),
      Math.round(flat[2 * i + 1] / SEC),
    ]);
    assert.deepEqual(hours, [
      ['22', 30 * 60],
      ['23', 3600],
      ['00', 30 * 60 - 7],
    ]);
  });
});
