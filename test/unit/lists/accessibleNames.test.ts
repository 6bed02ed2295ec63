import * as assert from 'node:assert/strict';
import { rowAccessibleName } from '../../../src/lists/accessibleNames';
import { FLOW_ICON, PINNED_ICON, STUCK_ICON, TEAM_ICON, connectionIcon, flowSyncIcon } from '../../../src/lists/icons';
import { syncDescription } from '../../../src/lists/itemTexts';
import { statusSummary } from '../../../src/status/statusSummary';
import { ApiError } from '../../../src/api/errors';

const now = Date.UTC(2026, 10, 22, 12);
const sync = (status: string, errors: unknown = null) => ({
  id: 1003,
  flow_id: 7,
  status,
  created_at: new Date(now - 3 * 60_000).toISOString(),
  updated_at: new Date(now).toISOString(),
  errors,
  webhook: false,
  flow: { id: 7, name: 'Invoices' },
});

describe('accessible names: words for every icon', () => {
  it('every status icon and mark has words; a connection type icon is decorative (its type is in the row)', () => {
    for (const status of ['pending', 'running', 'retrying', 'queued', 'waiting', 'failed', 'completed']) {
      assert.ok(flowSyncIcon({ status, errors: null }).words?.(), status);
    }
    assert.equal(flowSyncIcon({ status: 'pending', errors: [{ message: 'x' }] }).words?.(), 'has errors');
    assert.equal(
      flowSyncIcon({ status: 'brand-new\u202e', errors: null }).words?.(),
      'status brand-new',
      'an unknown status says itself, inert',
    );
    assert.equal(flowSyncIcon({ status: 'retrying', errors: null }).words?.(), 'retrying');
    assert.equal(STUCK_ICON.words?.(), 'stuck');
    assert.equal(FLOW_ICON.words?.(), 'flow');
    assert.equal(TEAM_ICON.words?.(), 'team');
    assert.equal(connectionIcon({ type: 'pdf' }).words, undefined);
  });

  it('icons use theme colours only (theme colour ids, never a fixed colour)', () => {
    const icons = [
      STUCK_ICON,
      FLOW_ICON,
      TEAM_ICON,
      ...['pending', 'running', 'retrying', 'queued', 'failed', 'completed', 'x'].map((status) =>
        flowSyncIcon({ status, errors: null }),
      ),
      flowSyncIcon({ status: 'x', errors: [] }),
    ];
    for (const icon of icons) if (icon.color) assert.match(icon.color, /^[a-zA-Z]+(\.[a-zA-Z]+)+$/, icon.id);
  });

  it('a sync row: label, what the icon says, the description, the marks; each word once', () => {
    const s = sync('retrying', [{ message: 'E_TIMEOUT' }]);
    const name = rowAccessibleName({
      label: '#1003',
      icon: flowSyncIcon(s),
      descriptions: [syncDescription(s, now), 'watched'],
    });
    assert.equal(name, '#1003, has errors, retrying, started 3 min ago, watched');
  });

  it('stuck and stale data are said in words; the "usually done" text too', () => {
    const s = sync('pending');
    const name = rowAccessibleName({
      label: '#1003',
      icon: STUCK_ICON,
      descriptions: [syncDescription(s, now), 'stuck', 'watched'],
      stale: true,
    });
    assert.equal(name, '#1003, stuck, pending, started 3 min ago, watched, stale data');
    const eta = rowAccessibleName({
      label: '#1003',
      icon: flowSyncIcon(s),
      descriptions: [syncDescription(s, now), 'usually done after about 6 min'],
    });
    assert.equal(eta, '#1003, pending, started 3 min ago, usually done after about 6 min');
  });

  it('a group row: its name, what it is, its count', () => {
    assert.equal(
      rowAccessibleName({ label: 'Invoices', icon: FLOW_ICON, descriptions: ['3 syncs · watched'] }),
      'Invoices, flow, 3 syncs, watched',
    );
  });

  it('the status bar in words: count, stuck, failure and freshness', () => {
    const items = [
      { value: sync('pending'), raw: {} },
      { value: { ...sync('pending'), id: 1004 }, raw: {} },
    ];
    const state = { items, dropped: 0, loading: false, failures: 0, loadedAt: now - 20_000 };
    const stuck = { stuck: [items[0].value] };
    assert.equal(
      statusSummary('ready', undefined, state, () => stuck, now).accessibleLabel,
      '2 flow syncs processing, 1 stuck, updated 20 seconds ago',
    );
    assert.equal(
      statusSummary('ready', undefined, { ...state, items: items.slice(0, 1), loadedAt: now - 60_000 }, undefined, now)
        .accessibleLabel,
      '1 flow sync processing, updated 1 minute ago',
    );
    const error = new ApiError('network', 'Could not reach the service.');
    assert.equal(
      statusSummary('ready', undefined, { ...state, error, loadedAt: now - 3 * 3600_000 }, undefined, now)
        .accessibleLabel,
      '2 flow syncs processing, refresh failed: Could not reach the service., updated 3 hours ago',
    );
    assert.equal(
      statusSummary('noKey', undefined, { dropped: 0, loading: false, failures: 0 }, undefined, now).accessibleLabel,
      'Flow Sync: Set API Key',
    );
  });

  it('the status bar hover always says when the data was loaded', () => {
    const state = { items: [], dropped: 0, loading: false, failures: 0, loadedAt: now - 20_000 };
    assert.match(statusSummary('ready', undefined, state, undefined, now).tooltip, /Last loaded at .+ \(20 s ago\)\.$/);
  });
});

describe('rowAccessibleName: a pinned idle flow', () => {
  it('says "pinned" and "idle" in words, not by the pin icon alone', () => {
    assert.equal(
      rowAccessibleName({
        label: 'Nightly export',
        icon: PINNED_ICON,
        descriptions: ['idle · last run 2 h ago, ran about 7 min'],
      }),
      'Nightly export, pinned, idle, last run 2 h ago, ran about 7 min',
    );
  });
});
