import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  EARLIEST_PLAUSIBLE_TIME,
  MAX_CLOCK_SKEW_MS,
  MAX_UNSEEN_MS,
  isPlausibleTime,
  parseTime,
  plausibleStart,
} from '../../../src/base/plausibleTime';
import { FakeClock } from '../helpers/fakeClock';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const iso = (ms: number) => new Date(ms).toISOString();

describe('plausibleStart: when a sync started, as far as it can be true', () => {
  const now = new FakeClock().now();
  const firstSeen = now - 30 * MIN;

  it('the bounds: not before 2000, at most 5 min ahead (clock skew), at most 7 days before first seen', () => {
    assert.deepEqual(
      [EARLIEST_PLAUSIBLE_TIME, MAX_CLOCK_SKEW_MS, MAX_UNSEEN_MS],
      [Date.UTC(2000, 0, 1), 5 * MIN, 7 * DAY],
    );
  });

  it('with first seen: created_at when it can be true, else first seen', () => {
    const from = (createdAt: string) => plausibleStart(createdAt, firstSeen, now);
    assert.deepEqual(from(iso(firstSeen - 10 * MIN)), { ms: firstSeen - 10 * MIN, from: 'created' });
    assert.deepEqual(
      from(iso(firstSeen - MAX_UNSEEN_MS)),
      { ms: firstSeen - MAX_UNSEEN_MS, from: 'created' },
      'a week before first seen: the window was closed',
    );
    assert.deepEqual(
      from(iso(firstSeen + MAX_CLOCK_SKEW_MS)),
      { ms: firstSeen + MAX_CLOCK_SKEW_MS, from: 'created' },
      'clock skew',
    );
    for (const odd of [
      iso(firstSeen - MAX_UNSEEN_MS - 1),
      iso(firstSeen + MAX_CLOCK_SKEW_MS + 1),
      iso(now + DAY),
      '1970-01-01T00:00:00.000Z',
      '1999-12-31T23:59:59.999Z',
      '0001-01-01T00:00:00.000Z',
      '+275760-09-13T00:00:00.000Z',
      'not a time',
      '',
    ]) {
      assert.deepEqual(from(odd), { ms: firstSeen, from: 'firstSeen' }, odd);
    }
  });

  it('ahead of first seen is measured from first seen, even when now is later (the sync was processing then)', () => {
    assert.equal(plausibleStart(iso(firstSeen + 10 * MIN), firstSeen, now).from, 'firstSeen');
    assert.equal(
      plausibleStart(iso(now + MIN), now + 10 * MIN, now).from,
      'created',
      'a first seen after now (clock set back) counts as now',
    );
  });

  it('without first seen: only the bounds that need none; no start at all for a time that cannot be true', () => {
    assert.deepEqual(plausibleStart(iso(now - 30 * DAY), undefined, now), { ms: now - 30 * DAY, from: 'created' });
    assert.deepEqual(plausibleStart('2000-01-01T00:00:00.000Z', undefined, now), {
      ms: EARLIEST_PLAUSIBLE_TIME,
      from: 'created',
    });
    assert.equal(plausibleStart(iso(now + MAX_CLOCK_SKEW_MS), undefined, now)?.from, 'created');
    for (const odd of [
      iso(now + MAX_CLOCK_SKEW_MS + 1),
      '1970-01-01T00:00:00.000Z',
      '1999-12-31T23:59:59.999Z',
      'yesterday',
    ]) {
      assert.equal(plausibleStart(odd, undefined, now), undefined, odd);
    }
  });

  it('any created_at: the start is created_at within the bounds, or first seen', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        ),
        fc.integer({ min: -30 * DAY, max: 30 * DAY }),
        (createdAt, offset) => {
          const seen = now + offset;
          const start = plausibleStart(createdAt, seen, now);
          if (start.from === 'firstSeen') return start.ms === seen;
          const created = parseTime(createdAt);
          return (
            start.ms === created &&
            created >= EARLIEST_PLAUSIBLE_TIME &&
            created >= seen - MAX_UNSEEN_MS &&
            created <= Math.min(seen, now) + MAX_CLOCK_SKEW_MS
          );
        },
      ),
    );
  });

  it('isPlausibleTime: a finite time from 2000 to now plus clock skew', () => {
    assert.equal(isPlausibleTime(now, now), true);
    assert.equal(isPlausibleTime(EARLIEST_PLAUSIBLE_TIME, now), true);
    assert.equal(isPlausibleTime(EARLIEST_PLAUSIBLE_TIME - 1, now), false);
    assert.equal(isPlausibleTime(now + MAX_CLOCK_SKEW_MS + 1, now), false);
    assert.equal(isPlausibleTime(Number.NaN, now), false);
  });
});

describe('parseTime', () => {
  it('agrees with Date.parse, taking a fast path for the toISOString form', () => {
    const samples = [
      '2026-11-22T11:48:00.000Z',
      '2026-02-28T23:59:59.999Z',
      '2024-02-29T12:00:00.000Z', // past the 28th: Date.parse
      '2026-02-30T12:00:00.000Z',
      '2026-13-01T00:00:00.000Z',
      '2026-11-22T24:00:00.000Z',
      '0050-01-01T00:00:00.000Z', // Date.UTC would read year 50 as 1950
      '2026-11-22T11:48:00Z',
      '2026-11-22T11:48:00.000+01:00',
      '2026-11-22 11:48:00',
      '',
      'not a time',
      '2026-1a-22T11:48:00.000Z',
    ];
    for (const s of samples) assert.ok(Object.is(parseTime(s), Date.parse(s)), s);
    fc.assert(
      fc.property(
        fc.date({ min: new Date(-62_000_000_000_000), max: new Date(8_000_000_000_000), noInvalidDate: true }),
        (d) => parseTime(d.toISOString()) === d.getTime(),
      ),
    );
  });
});
