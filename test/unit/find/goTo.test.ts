import * as assert from 'node:assert/strict';
import { goToPicks } from '../../../src/find/goTo';
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

describe('goToPicks: every sync, connection and History run of every service', () => {
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
        ['$(plug) #5 Slack EU', 'Sales · slack'],
        ['$(history) #99', 'left processing · Payroll'],
      ],
    );
    assert.deepEqual(picks[2].target, { view: 'history', service: 'a', id: 99, leftAt: NOW });
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
    assert.ok(picks[0].description.endsWith(' · Production'));
    assert.ok(!picks[0].label.slice(2).includes('$('), picks[0].label);
    assert.ok(!picks[0].label.includes('](command:'), picks[0].label);
    assert.deepEqual(picks[1].target, { view: 'processing', service: 'b', id: 1 });
  });
});
