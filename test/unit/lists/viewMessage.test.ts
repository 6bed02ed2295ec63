import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { clockTime } from '../../../src/base/format';
import { viewMessage } from '../../../src/lists/viewMessage';
import { NOW, sync } from '../helpers/items';

const now = NOW;
/** A processing sync of flow `flow` (the flow's id is the sync's). */
const item = (id: number, flow: string) => sync(id, id, flow);

describe('viewMessage', () => {
  it('the view message marks stale data and says when it was loaded and when it retries', () => {
    const error = new ApiError('http', 'The service answered with HTTP 500.');
    const msg = viewMessage(
      { items: [], dropped: 0, loading: false, failures: 1, error, loadedAt: now, nextAttemptAt: now + 5000 },
      'empty',
      now,
    )!;
    assert.match(msg, /^⚠ The service answered with HTTP 500\. Showing data from .+\. Retrying at .+\.$/);
    assert.equal(
      viewMessage({ items: [], dropped: 0, loading: false, failures: 0 }, 'No flow syncs are processing.', now),
      'No flow syncs are processing.',
    );
    const bare = new ApiError('http', 'HTTP 500: E_INTERNAL: Database unavailable');
    assert.match(
      viewMessage({ items: [], dropped: 0, loading: false, failures: 1, error: bare, loadedAt: now }, 'empty', now)!,
      /Database unavailable\. Showing data from/,
      'a full stop between sentences',
    );
    assert.equal(
      viewMessage({ items: [item(1, 'A')], dropped: 0, loading: false, failures: 0 }, 'empty', now),
      undefined,
    );
  });

  it("a person's refresh kept for the service's wait: the view says when it refreshes (issue #49)", () => {
    const error = new ApiError('rateLimited', 'The service is limiting requests (HTTP 429) and asked to wait 7 s.');
    const keptUntil = now + 7_000;
    const msg = viewMessage(
      {
        items: [],
        dropped: 0,
        loading: false,
        failures: 1,
        error,
        loadedAt: now,
        nextAttemptAt: now + 20_000,
        refreshKeptUntil: keptUntil,
      },
      'empty',
      now,
    )!;
    assert.match(
      msg,
      /asked to wait 7 s\. Showing data from .+\. Your refresh waits as the service asked: refreshing at .+\.$/,
    );
    assert.ok(msg.includes(clockTime(keptUntil)), msg);
    assert.ok(!msg.includes('Retrying at'), 'one time, the one that comes first');
  });

  it('an error before any data: the error alone, no "showing data from"', () => {
    const error = new ApiError('network', 'Could not reach the service');
    assert.equal(
      viewMessage({ dropped: 0, loading: false, failures: 1, error }, 'empty', now),
      '⚠ Could not reach the service.',
    );
  });

  it('says how many items were left out and why, unless an error speaks first', () => {
    const state = {
      items: [item(1, 'A')],
      dropped: 3,
      firstDropReason: 'item 2: id is not an integer',
      loading: false,
      failures: 0,
    };
    assert.equal(
      viewMessage(state, 'empty', now),
      '3 item(s) were left out because they did not have the expected shape (item 2: id is not an integer).',
    );
    const error = new ApiError('http', 'HTTP 500.');
    assert.doesNotMatch(viewMessage({ ...state, failures: 1, error, loadedAt: now }, 'empty', now)!, /left out/);
  });

  it('service text in the message is made inert and bounded', () => {
    const error = new ApiError(
      'http',
      `E_X: [Set API Key](command:flowsync.clearApiKey) $(key) <b>x</b> ${'y'.repeat(2_000)}`,
    );
    const msg = viewMessage({ dropped: 0, loading: false, failures: 1, error }, 'empty', now)!;
    assert.doesNotMatch(msg, /\]\(|\$\(|[<>]/);
    assert.ok(msg.length <= 1000, `${msg.length} characters`);
    assert.ok(msg.endsWith('…'));
  });
});
