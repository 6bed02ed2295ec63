import * as assert from 'node:assert/strict';
import { PICK_ROWS, PICK_STEP, PickRows, pickSegment, type PickStep } from '../../../src/filter/pickRows';

/** An item of a test segment: an id, a flow's id, a name and a team's name. */
interface Thing {
  readonly id: number;
  readonly flow: number;
  readonly name?: string;
  readonly team?: string;
}
interface Row {
  readonly label: string;
  readonly section?: string;
  readonly id: number;
}

const segment = (items: readonly Thing[], section?: string, more: Partial<Parameters<typeof pickSegment>[0]> = {}) =>
  pickSegment<Thing, Row>({
    items,
    row: (t) => ({ label: `#${t.id}`, section, id: t.id }),
    id: (t) => t.id,
    otherId: (t) => t.flow,
    name: (t) => t.name,
    otherName: (t) => t.team,
    ...(more as object),
  });

/** Runs a search to its end, a step at a time: its rows, and every step's report. */
function runAll(rows: PickRows<Row>, text: string): { rows: readonly Row[]; steps: PickStep<Row>[] } {
  const search = rows.search(text);
  const steps: PickStep<Row>[] = [];
  for (;;) {
    const step = search.step();
    steps.push({ ...step, rows: [...step.rows] });
    if (step.done) return { rows: step.rows, steps };
    assert.ok(steps.length < 100_000, 'a search ends');
  }
}

const ids = (rows: readonly Row[]) => rows.map((r) => r.id);

/** 200,000 items in 20 segments (20 services), every name its own: the worst case for a search's steps. */
const HELD = Array.from({ length: 20 }, (_, k) =>
  Array.from({ length: 10_000 }, (_, i) => ({ id: k * 1_000_000 + i, flow: i % 200, name: `Item ${k} ${i}` })),
);
const huge = () => new PickRows(HELD.map((items, k) => segment(items, `Service ${k}`)));

describe('PickRows: a pick of loaded rows, found a bounded step at a time (src/filter/pickRows.ts)', () => {
  it('finds by id (with or without #, or a flow id), by the words of a name in any order, accents and case folded', () => {
    const rows = new PickRows([
      segment([
        { id: 1003, flow: 7, name: 'Invoices Europe', team: 'Sales' },
        { id: 1004, flow: 1003, name: 'Payroll' },
        { id: 5, flow: 8, name: 'Café Zürich', team: 'Ops' },
      ]),
    ]);
    assert.deepEqual(ids(runAll(rows, '1003').rows), [1003, 1004], 'its id, and a flow id');
    assert.deepEqual(ids(runAll(rows, ' #1003 ').rows), [1003, 1004]);
    assert.deepEqual(ids(runAll(rows, 'europe INV').rows), [1003], 'words in any order');
    assert.deepEqual(ids(runAll(rows, 'cafe zur').rows), [5], 'accents folded');
    assert.deepEqual(ids(runAll(rows, 'ops').rows), [5], 'the other name');
    assert.deepEqual(ids(runAll(rows, 'sales europe').rows), [], 'each name holds every word on its own');
    assert.deepEqual(ids(runAll(rows, '').rows), [1003, 1004, 5], 'nothing typed: every row, in order');
  });

  it('a distinct segment offers the first item of each key once, shared by the segments of one `among`; skipped items are no rows', () => {
    const syncs = [
      { id: 1, flow: 7, name: 'Invoices' },
      { id: 2, flow: 7, name: 'Invoices' },
      { id: 3, flow: 8, name: 'Payroll' },
    ];
    const runs = [
      { id: 10, flow: 8, name: 'Payroll' },
      { id: 11, flow: 9, name: 'Billing' },
      { id: 12, flow: 10, name: 'Pinned' },
    ];
    const flows = { among: 'flows', key: (t: Thing) => t.flow };
    const rows = new PickRows([
      segment(syncs, 'Flows', { distinct: flows }),
      segment(runs, 'Flows', { distinct: flows, skip: (t: Thing) => t.flow === 10 }),
      segment(syncs, 'Syncs'),
    ]);
    assert.deepEqual(ids(runAll(rows, '').rows), [1, 3, 11, 1, 2, 3]);
    assert.deepEqual(ids(runAll(rows, 'payroll').rows), [3, 3], 'a repeated flow is found once');
    assert.deepEqual(
      runAll(rows, '').rows.map((r) => r.section),
      ['Flows', 'Flows', 'Flows', 'Syncs', 'Syncs', 'Syncs'],
    );
  });

  it('first rows: at most `max`, from one step that examines at most PICK_STEP, however much is held', () => {
    const rows = huge();
    assert.equal(rows.size, 200_000);
    const first = rows.search('').step();
    assert.equal(first.rows.length, PICK_ROWS);
    assert.ok(first.done, 'the first page is the first `max` rows');
    assert.ok(first.examined.indexed <= PICK_STEP.indexed, JSON.stringify(first.examined));
    assert.ok(first.examined.scanned <= PICK_ROWS + 1, JSON.stringify(first.examined));
    const mine = new PickRows([segment([{ id: 1, flow: 1 }])], { first: () => [{ label: 'mine', id: 42 }] });
    assert.deepEqual(ids(mine.search('').step().rows), [42], "a pick's own first rows (Go to's)");
  });

  it('every step of any text examines at most PICK_STEP (items indexed, positions compared, names compared), and shows at most `max` rows', () => {
    const rows = huge();
    // A rare text (walks everything: 1.4 M items, every name distinct), a common one (stops at max + 1), an id, and a
    // text typed on (narrowed), each a keystroke after the one before.
    for (const text of ['item 19 6999', 'item', '19000001', 'item 1', 'item 19 9999', 'zzz']) {
      const { rows: found, steps } = runAll(rows, text);
      for (const step of steps) {
        assert.ok(step.examined.indexed <= PICK_STEP.indexed, `${text}: ${JSON.stringify(step.examined)}`);
        assert.ok(step.examined.scanned <= PICK_STEP.scanned, `${text}: ${JSON.stringify(step.examined)}`);
        assert.ok(step.examined.names <= PICK_STEP.names, `${text}: ${JSON.stringify(step.examined)}`);
        assert.ok(step.rows.length <= PICK_ROWS, `${text}: ${step.rows.length} rows`);
      }
      assert.ok(found.length <= PICK_ROWS);
      if (text === 'item 19 6999') {
        assert.ok(ids(found).includes(19_006_999) && found.length < 20, `${found.length} rows`);
        assert.ok(steps.length > 10, `the rare text's walk is cut into steps (${steps.length})`);
      }
      if (text === 'item') assert.equal(found.length, PICK_ROWS);
      if (text === '19000001') assert.deepEqual(ids(found), [19_000_001]);
      if (text === 'zzz') assert.deepEqual(found, []);
    }
  });

  it('each item is read once per pick (the index is kept from text to text), and a row is made only when shown', () => {
    let reads = 0;
    let made = 0;
    const items = Array.from({ length: 50_000 }, (_, i) => ({
      id: i + 1,
      flow: 3,
      name: i % 2 ? 'Payroll' : 'Invoices',
    }));
    const rows = new PickRows(
      [
        pickSegment<Thing, Row>({
          items,
          row: (t) => (made++, { label: `#${t.id}`, id: t.id }),
          id: (t) => t.id,
          name: (t) => (reads++, t.name),
        }),
      ],
      { max: 300 },
    );
    const typed = ['1', '12', '123', 'p', 'pa', 'pay', 'payr', 'payroll', 'x', 'zz', '', '4999'];
    for (const text of typed) runAll(rows, text);
    assert.equal(reads, items.length, 'each name read once');
    assert.ok(made <= typed.length * 300, `${made} rows made`);
    assert.deepEqual(ids(runAll(rows, '49999').rows), [49_999]);
  });

  it('a text typed on looks only among what the last text found, with the same answer as a fresh search', () => {
    const items = Array.from({ length: 30_000 }, (_, i) => ({
      id: i,
      flow: i % 50,
      name: `Slack ${i % 700}`,
      team: i % 3 ? 'Sales' : 'Café',
    }));
    const rows = new PickRows([segment(items)], { max: 1_000 });
    for (const [before, after] of [
      ['sla', 'slack 12'],
      ['caf', 'cafe'],
      ['slack 69', 'slack 699'],
    ]) {
      runAll(rows, before);
      const narrowed = runAll(rows, after);
      assert.deepEqual(ids(narrowed.rows), ids(runAll(new PickRows([segment(items)], { max: 1_000 }), after).rows));
      if (before === 'slack 69') {
        const scanned = narrowed.steps.reduce((n, s) => n + s.examined.scanned, 0);
        assert.ok(scanned <= 1_001, `looked among the ${scanned} found before`);
      }
    }
  });

  it("a search dropped for the next text leaves the index whole: the next text's answer is a fresh search's", () => {
    const rows = huge();
    const dropped = rows.search('item 3 5');
    dropped.step();
    dropped.step();
    const next = runAll(rows, 'item 7 4242');
    assert.deepEqual(ids(next.rows), ids(runAll(huge(), 'item 7 4242').rows));
    assert.ok(ids(next.rows).includes(7_004_242));
  });
});
