import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { makeEntry, type HistoryEntry } from '../../../src/history/entry';
import { flowStats, stuckThresholdMs, STUCK_P95_FACTOR } from '../../../src/history/stats';
import { TeamRuns, mergeHistory } from '../../../src/teamHistory/merge';
import { MAX_RUN_MS, readRunRow, readSpanRow, runOfEntry } from '../../../src/teamHistory/teamRows';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

/** A row as PostgreSQL sends it (bigints as decimal text), every field right. */
function dbRow(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    observer: '3f1c2a9e-5b7d-4c1e-9a2b-7d8e9f0a1b2c',
    service: 'https://flowsync.example.com',
    team: '',
    sync_id: '1001',
    flow_id: '7',
    flow_name: 'Invoices',
    created_at: new Date(NOW - 30 * MIN).toISOString(),
    first_seen: String(NOW - 29 * MIN),
    last_seen: String(NOW - 10 * MIN),
    left_at: String(NOW - 9 * MIN),
    had_errors: false,
    ...extra,
  };
}

/** A run of flow 7 "Invoices" as History keeps it (by default seen 10 to 2 minutes ago, gone a minute ago). */
function entry(
  fields: Pick<HistoryEntry, 'id' | 'createdAt'> &
    Partial<Pick<HistoryEntry, 'firstSeen' | 'lastSeen' | 'leftAt' | 'hadErrors'>>,
): HistoryEntry {
  return makeEntry({
    flowId: 7,
    flowName: 'Invoices',
    firstSeen: NOW - 10 * MIN,
    lastSeen: NOW - 2 * MIN,
    leftAt: NOW - MIN,
    ...fields,
  });
}

describe('teamHistory rows: what the store sends is untrusted', () => {
  it('reads a row this extension writes', () => {
    const run = readRunRow(dbRow(), NOW);
    const fields = { id: 1001, createdAt: new Date(NOW - 30 * MIN).toISOString(), hadErrors: false };
    const times = { firstSeen: NOW - 29 * MIN, lastSeen: NOW - 10 * MIN, leftAt: NOW - 9 * MIN };
    const written = runOfEntry(
      entry({ ...fields, ...times }),
      '3f1c2a9e-5b7d-4c1e-9a2b-7d8e9f0a1b2c',
      'https://flowsync.example.com',
      '',
    );
    assert.deepEqual(run, written);
    assert.equal(readRunRow(dbRow({ left_at: null }), NOW)?.leftAt, undefined, 'a run not seen leaving');
  });

  it('refuses impossible times: a run of 10 years, one ending before it started, times in the future or long past', () => {
    const refused = [
      { first_seen: String(NOW - 3650 * DAY) }, // 10 years
      { first_seen: String(NOW - 8 * DAY), last_seen: String(NOW - 10 * MIN) }, // longer than MAX_RUN_MS
      { last_seen: String(NOW - 30 * MIN) }, // last seen before first seen
      { left_at: String(NOW - 20 * MIN) }, // left before last seen
      { left_at: String(NOW + DAY) }, // in the future
      { first_seen: String(NOW - 92 * DAY), last_seen: String(NOW - 92 * DAY), left_at: String(NOW - 92 * DAY) },
      { first_seen: '-1' },
      { first_seen: 'NaN' },
      { first_seen: '9'.repeat(30) },
      { first_seen: 1.5 },
      { left_at: 'soon' },
    ];
    for (const extra of refused) assert.equal(readRunRow(dbRow(extra), NOW), undefined, JSON.stringify(extra));
    assert.ok(readRunRow(dbRow({ first_seen: String(NOW - 7 * DAY + 10 * MIN) }), NOW), 'a run of just under 7 days');
    assert.equal(MAX_RUN_MS, 7 * DAY);
  });

  it('refuses ids, names and flags of the wrong form', () => {
    const refused = [
      { sync_id: '-5' },
      { sync_id: '12345678901234567890' },
      { flow_id: null },
      { flow_name: 42 },
      { created_at: 'x'.repeat(65) },
      { had_errors: 'true' },
      { observer: 'anna' }, // too short: not an id this extension draws
      { observer: 'Anna Smith <anna@example.com>' },
      { service: '' },
      { service: 's'.repeat(301) },
      { team: 'ops' },
      { team: '1'.repeat(19) },
    ];
    for (const extra of refused) assert.equal(readRunRow(dbRow(extra), NOW), undefined, JSON.stringify(extra));
    for (const row of [null, undefined, 42, 'row', [], [dbRow()]]) assert.equal(readRunRow(row, NOW), undefined);
    const inherited = Object.create(dbRow()) as Record<string, unknown>;
    assert.equal(readRunRow(inherited, NOW), undefined, 'fields of a prototype are not the row’s');
  });

  it('makes texts inert and bounded: huge texts, control characters, bidi overrides, markup, links', () => {
    const huge = readRunRow(dbRow({ flow_name: 'A'.repeat(10_000_000) }), NOW);
    assert.ok(huge && huge.flowName.length <= 120);
    const hostile = readRunRow(
      dbRow({ flow_name: 'Pay\u202Eroll\u0000\u001b[31m <img src=x> [click](command:evil) $(alert)\u200B' }),
      NOW,
    );
    assert.ok(hostile);
    assert.ok(![...hostile.flowName].some((c) => c < ' ' || '\u202e\u200b<>'.includes(c)), hostile.flowName);
    assert.doesNotMatch(hostile.flowName, /\]\(|\$\(/);
    const masked = readRunRow(dbRow({ flow_name: 'leak hunter2hunter2 here' }), NOW, 'hunter2hunter2');
    assert.ok(masked && !masked.flowName.includes('hunter2'), masked?.flowName);
  });

  it('reads spans, refusing impossible ones', () => {
    const span = {
      observer: 'installation-1',
      service: 'svc',
      team: '3',
      from_ms: String(NOW - DAY),
      to_ms: String(NOW),
    };
    assert.deepEqual(readSpanRow(span, NOW), {
      observer: 'installation-1',
      service: 'svc',
      team: '3',
      from: NOW - DAY,
      to: NOW,
    });
    for (const extra of [
      { to_ms: String(NOW - 2 * DAY) },
      { from_ms: String(NOW - 3650 * DAY) },
      { to_ms: String(NOW + DAY) },
      { team: 'x' },
      { observer: 7 },
    ]) {
      assert.equal(readSpanRow({ ...span, ...extra }, NOW), undefined, JSON.stringify(extra));
    }
  });

  it('a row of a run this installation kept is its History entry, with who saw it and how', () => {
    const kept = entry({ id: 5, createdAt: 'x', hadErrors: true });
    const row = runOfEntry(kept, 'installation-1', 'svc', '3');
    const { duration: _duration, raw: _raw, ...fields } = kept;
    assert.deepEqual(row, { observer: 'installation-1', service: 'svc', team: '3', ...fields });
  });

  it('a chain of hostile rows, each within bounds, cannot stretch a run past MAX_RUN_MS', () => {
    const honest = entry({ id: 1, createdAt: 'c' });
    const runs = new TeamRuns('self-installation');
    // Each row 6 days long, each meeting the one after it: 8 of them reach back 48 days.
    for (let i = 1; i <= 8; i++) {
      const last = NOW - 10 * MIN - (i - 1) * 6 * DAY;
      const row = readRunRow(
        dbRow({
          sync_id: '1',
          created_at: 'c',
          first_seen: String(last - 6 * DAY),
          last_seen: String(last),
          left_at: null,
        }),
        NOW,
      );
      assert.ok(row);
      runs.add(row);
    }
    const merged = mergeHistory([honest], runs);
    for (const e of merged.entries) assert.ok(e.leftAt - e.firstSeen <= MAX_RUN_MS);
    for (const e of merged.open) assert.ok(e.lastSeen - e.firstSeen <= MAX_RUN_MS);
  });

  it('a few hostile rows cannot move what is learned from runs past its bounds', () => {
    // 40 honest runs of flow 7 take 10 minutes; hostile rows of the same flow claim anything they like.
    const honest = Array.from({ length: 40 }, (_, i) => {
      const start = NOW - (i + 1) * 60 * MIN;
      const createdAt = new Date(start).toISOString();
      return entry({
        id: i,
        createdAt,
        firstSeen: start,
        lastSeen: start + 10 * MIN,
        leftAt: start + 10 * MIN + 15_000,
      });
    });
    const anyTime = fc.oneof(
      fc.integer({ min: NOW - 4000 * DAY, max: NOW + 4000 * DAY }).map(String),
      fc.constantFrom('0', '-1', '9007199254740991', '1e30', ''),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            sync_id: fc.integer({ min: 0, max: 60 }),
            created_at: fc.oneof(
              fc.integer({ min: NOW - 4000 * DAY, max: NOW + DAY }).map((t) => new Date(t).toISOString()),
              fc.string({ maxLength: 70 }),
              fc.constant('honest'), // the created_at of the honest run of that id: its sightings meet
            ),
            first_seen: anyTime,
            last_seen: anyTime,
            left_at: fc.oneof(anyTime, fc.constant(null)),
          }),
          { maxLength: 8 },
        ),
        (hostile) => {
          const runs = new TeamRuns('self-installation');
          for (const { sync_id, created_at, ...extra } of hostile) {
            const createdAt = created_at === 'honest' ? (honest[sync_id]?.createdAt ?? '') : created_at;
            const fields = {
              ...extra,
              sync_id: String(sync_id),
              created_at: createdAt,
              observer: 'mallory-installation',
            };
            const row = readRunRow(dbRow(fields), NOW);
            if (row) runs.add(row);
          }
          const merged = mergeHistory(honest, runs).entries;
          for (const e of merged) {
            assert.ok(e.leftAt - e.firstSeen <= MAX_RUN_MS, 'no run spans more than its bound');
            // From a created_at at most MAX_UNSEEN_MS (as long) before the first sighting (base/plausibleTime.ts).
            assert.ok(e.duration.ms <= 2 * MAX_RUN_MS);
          }
          const stats = flowStats(merged).get(7);
          assert.ok(stats);
          // The median of 40 honest runs cannot be moved by 8 rows past the honest range; p95 (and so the learned
          // stuck threshold) stays within what one bounded run can claim.
          assert.ok(stats.medianMs >= 0 && stats.medianMs <= 10 * MIN + 15_000, String(stats.medianMs));
          const threshold = stuckThresholdMs(stats, 0);
          assert.ok(threshold !== undefined && threshold <= STUCK_P95_FACTOR * 2 * MAX_RUN_MS);
        },
      ),
      { numRuns: 200 },
    );
  });
});
