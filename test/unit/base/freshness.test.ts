import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { STALE_INTERVALS, isStale, updatedAgo, updatedAgoWords } from '../../../src/base/freshness';
import { viewMessage } from '../../../src/lists/viewMessage';

const now = Date.UTC(2026, 10, 22, 12);

describe('freshness: how old the data is', () => {
  it('stale after twice the interval, or when a refresh failed; a list loaded on demand only after a failure', () => {
    const items = [{}];
    assert.equal(STALE_INTERVALS, 2);
    assert.equal(isStale({ items, loadedAt: now - 60_000 }, now, 30_000), false, 'exactly twice: not yet');
    assert.equal(isStale({ items, loadedAt: now - 60_001 }, now, 30_000), true);
    assert.equal(isStale({ items, loadedAt: now - 3600_000 }, now, undefined), false, 'not polled');
    assert.equal(isStale({ items, loadedAt: now, error: new ApiError('network', 'x') }, now, undefined), true);
    assert.equal(isStale({ loadedAt: now - 3600_000 }, now, 30_000), false, 'no data, nothing stale');
  });

  it('short and spoken texts', () => {
    assert.equal(updatedAgo(now - 2000, now), 'updated just now');
    assert.equal(updatedAgo(now - 20_000, now), 'updated 20 s ago');
    assert.equal(updatedAgo(now - 3 * 60_000, now), 'updated 3 min ago');
    assert.equal(updatedAgoWords(now - 20_000, now), 'updated 20 seconds ago');
    assert.equal(updatedAgoWords(now - 2 * 3600_000, now), 'updated 2 hours ago');
    assert.equal(updatedAgoWords(now + 5000, now), 'updated just now', 'a clock ahead is not "in the future"');
  });

  it('the view message says how old stale data is, visible without hovering', () => {
    const state = {
      items: [{ value: {}, raw: {} }],
      dropped: 0,
      loading: false,
      failures: 0,
      loadedAt: now - 3 * 60_000,
    };
    assert.equal(viewMessage(state, 'empty', now, true), '⚠ Data may be out of date: updated 3 min ago.');
    assert.equal(viewMessage(state, 'empty', now, false), undefined);
    const error = new ApiError('network', 'Could not reach the service');
    assert.match(
      viewMessage({ ...state, error }, 'empty', now, true)!,
      /^⚠ Could not reach the service\. Showing data from .+ \(updated 3 min ago\)\.$/,
    );
  });
});
