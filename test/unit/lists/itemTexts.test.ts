import * as assert from 'node:assert/strict';
import { connectionTooltip, syncDescription, syncLabel, syncTooltip } from '../../../src/lists/itemTexts';
import { connectionCount, syncCount } from '../../../src/lists/listFaces';
import { escapeMarkdown } from '../../../src/base/format';
import { NOW, conn, iso, sync } from '../helpers/items';

describe('itemTexts', () => {
  it('describes a sync with status, age and marks', () => {
    assert.equal(syncDescription(sync(120, 1, 'F').value, NOW), 'pending · started 2 min ago');
    assert.equal(
      syncDescription(sync(1, 1, 'F', { webhook: true, errors: ['x'] }).value, NOW),
      'pending · started just now · webhook · has errors',
    );
  });

  it('never claims an age a time from the service cannot have: before 2000 or in the future is "unknown time"', () => {
    for (const created_at of [
      '1970-01-01T00:00:00.000Z',
      '1999-12-31T23:59:59.000Z',
      iso(-6 * 60_000),
      iso(-365 * 24 * 3600_000),
    ]) {
      assert.equal(
        syncDescription(sync(1, 1, 'F', { created_at }).value, NOW),
        'pending · started unknown time',
        created_at,
      );
      assert.match(
        syncTooltip(sync(1, 1, 'F', { created_at, updated_at: created_at }), NOW),
        /Started\*\* \| [^|]* \(unknown time\) \|\n\| \*\*Updated\*\* \| [^|]* \(unknown time\) \|/,
        created_at,
      );
      assert.equal(
        (
          connectionTooltip({ ...conn(5, 'Sales', 2), value: { ...conn(5, 'Sales', 2).value, created_at } }, NOW).match(
            /unknown time/g,
          ) ?? []
        ).length,
        1,
        created_at,
      );
    }
    assert.equal(
      syncDescription(sync(1, 1, 'F', { created_at: iso(-4 * 60_000) }).value, NOW),
      'pending · started just now',
      'a few minutes ahead: clocks differ',
    );
    assert.equal(
      syncDescription(sync(1, 1, 'F', { created_at: '2000-01-01T00:00:00.000Z' }).value, NOW),
      `pending · started ${Math.floor((NOW - Date.UTC(2000, 0, 1)) / 86_400_000)} d ago`,
    );
  });

  it('builds tooltips with every field, escaping text from the service', () => {
    const tip = syncTooltip(sync(7, 3, '*bold* [link](http://x)', { errors: [{ message: 'E_X: y' }] }), NOW);
    for (const part of [
      '#7',
      '(#3)',
      'pending',
      'Started',
      'Updated',
      'Triggered by webhook',
      'E_X: y',
      '\\*bold\\* \\[link\\] \\(http\\:\\/\\/x\\)',
    ]) {
      assert.ok(tip.includes(part), `${part} in ${tip}`);
    }
    const ctip = connectionTooltip(conn(5, 'Sales', 2, 'Billing'), NOW);
    for (const part of ['Sales (#5)', 'slack', 'Billing (#2)', '#1', 'Created', 'Updated', '2 keys']) {
      assert.ok(ctip.includes(part), part);
    }
    assert.equal(escapeMarkdown('a|b\nc'), 'a\\|b c');
  });

  it('counts in the singular and the plural, and labels a sync by its id', () => {
    assert.deepEqual([syncCount(0), syncCount(1), syncCount(2)], ['0 syncs', '1 sync', '2 syncs']);
    assert.deepEqual([connectionCount(1), connectionCount(7)], ['1 connection', '7 connections']);
    assert.equal(syncLabel(sync(42, 1, 'F').value), '#42');
  });

  it('a sync without errors says so; errors are shown as inert code, pipes escaped', () => {
    assert.match(syncTooltip(sync(1, 1, 'F'), NOW), /\| \*\*Errors\*\* \| none \|/);
    const tip = syncTooltip(sync(1, 1, 'F', { errors: [{ message: 'a|b `c`' }] }), NOW);
    assert.ok(tip.includes("a\\|b 'c'"), tip);
  });
});
