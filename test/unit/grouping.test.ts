import * as assert from 'node:assert/strict';
import type { Connection, FlowSync, Item } from '../../src/api/types';
import { groupByFlow, groupByTeam, sortKey } from '../../src/core/grouping';
import { connectionIcon, flowSyncIcon } from '../../src/core/icons';
import { connectionTooltip, escapeMarkdown, syncDescription, syncTooltip, timeAgo } from '../../src/core/format';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();

function sync(id: number, flowId: number, name: string | undefined, extra: Partial<FlowSync> = {}): Item<FlowSync> {
  const value: FlowSync = { id, flow_id: flowId, status: 'pending', created_at: iso(id * 1000), updated_at: iso(0), errors: null, webhook: false, flow: name ? { id: flowId, name } : undefined, ...extra };
  return { value, raw: { ...value } };
}

function conn(id: number, name: string, teamId: number, teamName?: string, type = 'slack'): Item<Connection> {
  const value: Connection = { id, name, type, team_id: teamId, team: teamName ? { id: teamId, name: teamName } : undefined, user_id: 1, created_at: iso(0), updated_at: iso(0), meta: { a: 1, b: 2 } };
  return { value, raw: { ...value } };
}

describe('grouping', () => {
  it('groups syncs by flow, sorted by flow name, newest sync first, "Flow <id>" without a summary', () => {
    const groups = groupByFlow([sync(1, 20, 'Zeta'), sync(2, 10, 'alpha'), sync(3, 20, 'Zeta'), sync(4, 30, undefined)]);
    assert.deepEqual(groups.map((g) => [g.label, g.items.map((i) => i.value.id)]), [['alpha', [2]], ['Flow 30', [4]], ['Zeta', [1, 3]]]);
  });

  it('groups connections by team, sorted by name, "Team <id>" without a summary', () => {
    const groups = groupByTeam([conn(1, 'b', 2, 'Billing'), conn(2, 'A', 2, 'Billing'), conn(3, 'x', 7), conn(4, 'c10', 1, 'Alpha'), conn(5, 'c9', 1, 'Alpha')]);
    assert.deepEqual(groups.map((g) => [g.label, g.items.map((i) => i.value.name)]), [['Alpha', ['c9', 'c10']], ['Billing', ['A', 'b']], ['Team 7', ['x']]]);
  });
});

describe('sortKey', () => {
  it('orders naturally, ignoring case and accents', () => {
    const names = ['b10', 'B9', 'émile', 'Emilia', 'a', 'item 007', 'item 7x', 'Zeta', 'alpha 2', 'alpha 10'];
    const sorted = [...names].sort((x, y) => (sortKey(x) < sortKey(y) ? -1 : sortKey(x) > sortKey(y) ? 1 : 0));
    assert.deepEqual(sorted, ['a', 'alpha 2', 'alpha 10', 'B9', 'b10', 'émile', 'Emilia', 'item 007', 'item 7x', 'Zeta']);
  });
});

describe('icons', () => {
  it('maps statuses: spinning for pending, distinct for others, an error icon when errors is set', () => {
    assert.equal(flowSyncIcon({ status: 'pending', errors: null }).id, 'sync~spin');
    assert.notEqual(flowSyncIcon({ status: 'queued', errors: null }).id, 'sync~spin');
    assert.equal(flowSyncIcon({ status: 'something-new', errors: null }).id, 'circle-outline');
    assert.equal(flowSyncIcon({ status: 'pending', errors: [{ message: 'x' }] }).id, 'warning');
  });

  it('maps types: a PDF icon for pdf, a generic one for unknown types', () => {
    assert.equal(connectionIcon({ type: 'pdf' }).id, 'file-pdf');
    assert.equal(connectionIcon({ type: 'PDF' }).id, 'file-pdf');
    assert.equal(connectionIcon({ type: 'brand-new' }).id, 'plug');
  });
});

describe('format', () => {
  it('says how long ago', () => {
    assert.equal(timeAgo(iso(1000), NOW), 'just now');
    assert.equal(timeAgo(iso(42_000), NOW), '42 s ago');
    assert.equal(timeAgo(iso(3 * 60_000 + 5), NOW), '3 min ago');
    assert.equal(timeAgo(iso(5 * 3600_000), NOW), '5 h ago');
    assert.equal(timeAgo(iso(50 * 3600_000), NOW), '2 d ago');
    assert.equal(timeAgo('not a date', NOW), 'unknown time');
  });

  it('describes a sync with status, age and marks', () => {
    assert.equal(syncDescription(sync(120, 1, 'F').value, NOW), 'pending · started 2 min ago');
    assert.equal(syncDescription(sync(1, 1, 'F', { webhook: true, errors: ['x'] }).value, NOW), 'pending · started just now · webhook · has errors');
  });

  it('builds tooltips with every field, escaping text from the service', () => {
    const tip = syncTooltip(sync(7, 3, '*bold* [link](http://x)', { errors: [{ message: 'E_X: y' }] }), NOW);
    for (const part of ['#7', '(#3)', 'pending', 'Started', 'Updated', 'Triggered by webhook', 'E_X: y', '\\*bold\\* \\[link\\] \\(http://x\\)']) {
      assert.ok(tip.includes(part), `${part} in ${tip}`);
    }
    const ctip = connectionTooltip(conn(5, 'Sales', 2, 'Billing'), NOW);
    for (const part of ['Sales (#5)', 'slack', 'Billing (#2)', '#1', 'Created', 'Updated', '2 keys']) assert.ok(ctip.includes(part), part);
    assert.equal(escapeMarkdown('a|b\nc'), 'a\\|b c');
  });
});
