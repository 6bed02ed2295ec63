import * as assert from 'node:assert/strict';
import { goToPicks, goToRows, type GoToService } from '../../../src/find/goTo';
import type { GoToPick } from '../../../src/find/goTo';
import type { PickRows } from '../../../src/filter/pickRows';
import { makeEntry } from '../../../src/history/index';
import { NOW, conn, sync } from '../helpers/items';

const entry = (id: number, flowName: string) =>
  makeEntry({
    id,
    flowId: 3,
    flowName,
    createdAt: new Date(NOW - 60_000).toISOString(),
    firstSeen: NOW - 60_000,
    lastSeen: NOW - 10_000,
    leftAt: NOW,
  });

describe('goToPicks: every sync, History run and connection of every service, at most GO_TO_ROWS', () => {
  it('one service: icon and id first, flow or team after; no service name', () => {
    const picks = goToPicks([
      {
        id: 'a',
        processing: [sync(1003, 7, 'Invoices')],
        connections: [conn(5, 'Slack EU', 3, 'Sales')],
        history: [entry(99, 'Payroll')],
      },
    ]);
    assert.deepEqual(
      picks.map((p) => [p.label, p.description]),
      [
        ['$(sync) #1003', 'Invoices · pending'],
        ['$(history) #99', 'left processing · Payroll'],
        ['$(plug) #5 Slack EU', 'Sales · slack'],
      ],
    );
    assert.deepEqual(picks[1].target, { view: 'history', service: 'a', id: 99, leftAt: NOW });
  });

  it('several services: each row names its service; service text is inert', () => {
    const picks = goToPicks([
      {
        id: 'a',
        name: 'Production',
        processing: [],
        connections: [conn(5, '$(alert) [x](command:evil)', 3, 'Sales')],
        history: [],
      },
      { id: 'b', name: 'Staging', processing: [sync(1, 7, 'Invoices')], connections: [], history: [] },
    ]);
    assert.equal(picks.length, 2);
    assert.deepEqual(picks[0].target, { view: 'processing', service: 'b', id: 1 }, 'processing first');
    assert.ok(picks[1].description.endsWith(' · Production'));
    assert.ok(!picks[1].label.slice(2).includes('$('), picks[1].label);
    assert.ok(!picks[1].label.includes('](command:'), picks[1].label);
  });

  it('bounded: 20 services at 6,550 rows each give at most 2,000 rows at first, processing first, then the newest History', () => {
    const services = Array.from({ length: 20 }, (_, k) => ({
      id: `s${k}`,
      name: `Service ${k}`,
      processing: Array.from({ length: 50 }, (_, i) => sync(k * 100_000 + i, 7, 'Invoices')),
      connections: Array.from({ length: 500 }, (_, i) => conn(k * 100_000 + i, `Slack ${i}`, 3, 'Sales')),
      history: Array.from({ length: 2_000 }, (_, i) => ({
        ...entry(k * 100_000 + i, 'Payroll'),
        leftAt: NOW - i * 1000 - k,
      })),
    }));
    const picks = goToPicks(services);
    assert.ok(picks.length <= 2_000, `${picks.length} rows`);
    assert.ok(picks.length >= 1_000, 'a few thousand rows at most, not a handful');
    const views = picks.map((p) => p.target.view);
    assert.equal(views.lastIndexOf('processing'), 999, 'every processing sync of every service first');
    assert.ok(
      views.slice(1_000).every((v) => v === 'history'),
      'then History',
    );
    const left = picks.slice(1_000).map((p) => (p.target.view === 'history' ? p.target.leftAt : 0));
    assert.deepEqual(
      left,
      [...left].sort((a, b) => b - a),
      'the newest History first, across services',
    );
    assert.equal(left[0], NOW);
  });
});

/** Go to's search as the pick runs it, a step at a time, to its end: the rows it shows. */
class GoToSearch {
  readonly rows: PickRows<GoToPick>;
  constructor(services: readonly GoToService[], max?: number) {
    this.rows = goToRows(services, max);
  }
  find(text: string): GoToPick[] {
    const search = this.rows.search(text);
    for (;;) {
      const step = search.step();
      if (step.done) return [...step.rows];
    }
  }
}

describe('goToRows: any loaded item by id or name as the person types, at most GO_TO_ROWS rows', () => {
  const services = () =>
    Array.from({ length: 20 }, (_, k) => ({
      id: `s${k}`,
      name: `Service ${k}`,
      processing: Array.from({ length: 50 }, (_, i) => sync(k * 100_000 + i, 7, 'Invoices')),
      connections: Array.from({ length: 500 }, (_, i) => conn(k * 100_000 + 50_000 + i, `Slack ${i}`, 3, 'Sales')),
      history: Array.from({ length: 2_000 }, (_, i) => ({
        ...entry(k * 100_000 + 20_000 + i, i === 1_999 ? 'Café Zürich' : 'Payroll'),
        leftAt: NOW - i * 1000,
      })),
    }));

  const held = services();
  const big = () => held;

  it('finds a row the first rows do not show, by its id (with or without #) and by its name, accents folded', () => {
    const search = new GoToSearch(big());
    const oldest = 19 * 100_000 + 20_000 + 1_999;
    assert.ok(!search.find('').some((p) => p.target.id === oldest), 'not among the first rows');
    for (const typed of [String(oldest), `#${oldest}`, ` ${oldest} `]) {
      assert.deepEqual(
        search.find(typed).map((p) => p.target),
        [{ view: 'history', service: 's19', id: oldest, leftAt: NOW - 1_999_000 }],
        typed,
      );
    }
    const cafes = search.find('cafe zur');
    assert.equal(cafes.length, 20, 'one per service');
    assert.ok(cafes.every((p) => p.label.startsWith('$(history) #') && p.description.includes('Café Zürich')));
    assert.deepEqual(
      search.find('slack 499').map((p) => p.target.service),
      big().map((s) => s.id),
    );
    assert.deepEqual(search.find('no such name'), []);
  });

  it('makes at most GO_TO_ROWS rows for any text, in the order of the first rows; typing on narrows to the same answer', () => {
    const search = new GoToSearch(big(), 300);
    const payroll = search.find('payr');
    assert.equal(payroll.length, 300);
    assert.ok(payroll.every((p) => p.target.view === 'history'));
    const slack = search.find('s');
    assert.equal(slack.length, 300);
    assert.equal(slack[0].target.view, 'processing', 'Services: processing first');
    for (const [before, after] of [
      ['sla', 'slack 12'],
      ['caf', 'cafe z'],
      ['inv', 'invoices'],
    ]) {
      search.find(before);
      const narrowed = search.find(after).map((p) => p.target);
      assert.deepEqual(
        narrowed,
        new GoToSearch(big(), 300).find(after).map((p) => p.target),
        `${before} → ${after}`,
      );
    }
  });

  it('a keystroke costs numbers, not items: each item is read once when Go to first searches, never again per keystroke (#38 item 4)', () => {
    // Every History run's name is a getter that counts its reads: what a keystroke costs per item held.
    let reads = 0;
    const counted = (id: number, name: string) => {
      const e = entry(id, name);
      return Object.defineProperty({ ...e }, 'flowName', {
        get: () => (reads++, name),
        enumerable: true,
      }) as typeof e;
    };
    const history = Array.from({ length: 20_000 }, (_, i) => counted(i + 1, i % 2 ? 'Payroll Europe' : 'Invoices'));
    const search = new GoToSearch([{ id: 's', processing: [], connections: [], history }], 300);
    const typed = ['1', '12', '123', 'p', 'pa', 'pay', 'payr', 'payroll', 'payroll e', 'x', 'zz'];
    for (const text of typed) search.find(text);
    assert.ok(
      reads <= history.length + typed.length * 300,
      `${reads.toLocaleString('en-US')} reads of ${history.length.toLocaleString('en-US')} runs for ${typed.length} keystrokes (each once, and once per row shown)`,
    );
    assert.equal(search.find('payroll e').length, 300, 'still finds them');
    assert.deepEqual(
      search.find('12345').map((p) => p.target.id),
      [12345],
    );
  });
});
