import * as assert from 'node:assert/strict';
import { canonicalTime } from '../../../src/base/plausibleTime';
import { MAX_ABSENCES, RunTable, type RunFields } from '../../../src/teamHistory/runTable';
import { MAX_RUN_MS } from '../../../src/teamHistory/teamRows';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const CREATED = new Date(T0).toISOString();

function fields(over: Partial<RunFields> = {}): RunFields {
  return {
    flowId: 7,
    flowName: 'Invoices',
    firstSeen: T0,
    lastSeen: T0 + 60_000,
    end: T0 + 75_000,
    seen: 1,
    hadErrors: false,
    ...over,
  };
}

/** A table with `n` runs of syncs 1..n (created at T0), each with one absence. */
function filled(n: number, maxSlots = 1_000_000): { table: RunTable; slots: number[] } {
  const table = new RunTable(maxSlots);
  const slots: number[] = [];
  for (let id = 1; id <= n; id++) {
    const slot = table.add(id, T0, CREATED);
    table.write(slot, fields(), [T0 + 75_000], 1);
    slots.push(slot);
  }
  return { table, slots };
}

const found = (table: RunTable, id: number, text = CREATED) => table.slotsOf(id, canonicalTime(text), text, []);

describe('teamHistory runTable: the columns the team runs are kept in', () => {
  it('reads created_at in the canonical form exactly, and nothing else', () => {
    for (let ms = Date.UTC(1999, 0, 1); ms < Date.UTC(2031, 0, 1); ms += 86_400_000 * 7 + 3_723_457) {
      assert.equal(canonicalTime(new Date(ms).toISOString()), ms);
    }
    assert.equal(canonicalTime('2024-02-29T00:00:00.000Z'), Date.UTC(2024, 1, 29));
    for (const text of [
      '2023-02-29T00:00:00.000Z', // no 29 February that year: Date.parse rolls it over
      '2026-11-31T00:00:00.000Z',
      '2026-11-22T12:00:00Z',
      '2026-11-22t12:00:00.000z',
      '2026-11-22T12:00:00.000+00:00',
      '2026-11-22T24:00:00.000Z',
      '0999-11-22T12:00:00.000Z',
      '2026-13-22T12:00:00.000Z',
      '2026-1a-22T12:00:00.000Z',
      'not a time at all, 24 ch',
      '',
    ]) {
      assert.ok(Number.isNaN(canonicalTime(text)), text);
    }
  });

  it('keeps each field of a run, its created_at text, and its absences exactly (up to MAX_ABSENCES, far apart or 1 ms)', () => {
    const table = new RunTable(10);
    const odd = 'Tuesday, the day after';
    const slot = table.add(9_007_199_254_740_991, NaN, odd);
    const absences = Array.from({ length: MAX_ABSENCES }, (_, i) => T0 + 60_001 + i * i * 1_000_003 + (i % 2));
    const end = absences[absences.length - 1];
    const f = fields({ flowId: 2 ** 40, flowName: 'Payroll', end, seen: (1 << 30) | 1, hadErrors: true });
    table.write(slot, f, absences, absences.length);
    assert.equal(table.syncId(slot), 9_007_199_254_740_991);
    assert.equal(table.createdAt(slot), odd);
    assert.deepEqual(
      [table.flowId(slot), table.flowName(slot), table.firstSeen(slot), table.lastSeen(slot), table.end(slot)],
      [2 ** 40, 'Payroll', f.firstSeen, f.lastSeen, end],
    );
    assert.equal(table.seen(slot), (1 << 30) | 1);
    assert.equal(table.hadErrors(slot), true);
    const out: number[] = [];
    assert.equal(table.absences(slot, out), MAX_ABSENCES);
    assert.deepEqual(out, absences);
    assert.equal(table.latestAbsence(slot), end);
    assert.deepEqual(found(table, 9_007_199_254_740_991, odd), [slot]);
    assert.deepEqual(found(table, 9_007_199_254_740_991), [], 'another created_at is another sync');
    // Fewer absences again: written in place or moved, they read back the same.
    table.write(slot, f, absences.slice(0, 2), 2);
    assert.equal(table.absences(slot, out), 2);
    assert.deepEqual(out.slice(0, 2), absences.slice(0, 2));
    table.write(slot, f, [], 0);
    assert.equal(table.absences(slot, out), 0);
    assert.equal(table.latestAbsence(slot), -Infinity);
  });

  it('refuses a run wider than its offsets can hold (the merge never makes one)', () => {
    const table = new RunTable(10);
    const slot = table.add(1, T0, CREATED);
    assert.throws(() => table.write(slot, fields({ firstSeen: T0 + 60_000 - 2 * MAX_RUN_MS - 1 }), [], 0), RangeError);
    assert.throws(() => table.write(slot, fields({ end: T0 + 60_000 + 2 * MAX_RUN_MS + 1 }), [], 0), RangeError);
    assert.throws(() => table.write(slot, fields({ firstSeen: T0 + 60_001 }), [], 0), RangeError);
    table.write(slot, fields({ end: T0 }), [], 0); // a stale answer's leaving before the last sighting
    assert.equal(table.end(slot), T0);
  });

  it('grows by doubling, never past the runs it may hold, and reuses the slots of runs it dropped', () => {
    const { table } = filled(1_000, 1_000);
    assert.equal(table.size, 1_000);
    assert.equal(table.slots, 1_000);
    const perRun = table.bytes / table.size;
    assert.ok(perRun < 80, `${perRun} bytes a run`);
    for (let id = 1; id <= 1_000; id += 2) table.remove(found(table, id)[0]);
    assert.equal(table.size, 500);
    for (let id = 1; id <= 1_000; id += 2) table.write(table.add(id, T0, CREATED), fields(), [], 0);
    assert.equal(table.slots, 1_000, 'freed slots taken again');
    assert.equal(table.bytes / table.size, perRun, 'no growth');
  });

  it('finds every run of a sync and every other sync after any removal (the index moves entries back)', () => {
    const { table, slots } = filled(3_000);
    // Three more runs of sync 5 (another span each), one of another created_at.
    const more = [table.add(5, T0, CREATED), table.add(5, T0, CREATED), table.add(5, T0 + 1, CREATED)];
    for (const slot of more) table.write(slot, fields(), [], 0);
    assert.deepEqual(found(table, 5).sort(), [slots[4], more[0], more[1]].sort());
    let removed = 0;
    for (let k = 0; k < slots.length; k += 3) {
      table.remove(slots[(k * 7919) % slots.length]);
      removed++;
    }
    const gone = new Set(Array.from({ length: removed }, (_, k) => slots[(k * 3 * 7919) % slots.length]));
    for (let id = 1; id <= 3_000; id++) {
      const want = gone.has(slots[id - 1]) ? [] : [slots[id - 1]];
      const extra = id === 5 ? [more[0], more[1]] : [];
      assert.deepEqual(found(table, id).sort(), [...want, ...extra].sort(), `sync ${id}`);
    }
    assert.equal(table.size, 3_003 - removed);
  });

  it('interns flow names, and settles: the pool keeps only the absences held', () => {
    const { table, slots } = filled(2_000);
    const spread = Array.from({ length: 20 }, (_, i) => T0 + 61_000 + i * 1_017);
    for (const slot of slots) table.write(slot, fields({ end: spread[19] }), spread, 20);
    for (const slot of slots) table.write(slot, fields({ end: spread[19] }), spread.slice(0, 3), 3);
    const before = table.bytes;
    table.settle();
    assert.ok(table.bytes < before, `${before} → ${table.bytes}`);
    const out: number[] = [];
    for (const slot of slots) {
      assert.equal(table.absences(slot, out), 3);
      assert.equal(table.flowName(slot), 'Invoices');
    }
    assert.deepEqual(out.slice(0, 3), spread.slice(0, 3));
  });
});
