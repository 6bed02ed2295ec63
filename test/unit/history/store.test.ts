import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { makeEntry, type HistoryEntry } from '../../../src/history/index';
import {
  HISTORY_CAP,
  HISTORY_FORMAT,
  MAX_SEGMENT_CHARS,
  RAW_KEPT,
  mergeSegments,
  originFolder,
  parseSegment,
  pruneEntries,
  sameRun,
  segmentFileName,
  serializeSegment,
} from '../../../src/history/store';
import { FakeClock } from '../helpers/fakeClock';

const SEC = 1000;
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const ORIGIN = 'https://flowsync.example.com';
const NOW = new FakeClock().now();

/** One window's record of a run: first and last seen, left at (ms before NOW). */
function rec(
  id: number,
  createdAt: string,
  firstSeenAgo: number,
  lastSeenAgo: number,
  leftAgo: number,
  extra: Partial<HistoryEntry> = {},
): HistoryEntry {
  return makeEntry({
    id,
    flowId: 7,
    flowName: 'Invoices',
    createdAt,
    firstSeen: NOW - firstSeenAgo,
    lastSeen: NOW - lastSeenAgo,
    leftAt: NOW - leftAgo,
    ...extra,
  });
}
const created = new Date(NOW - 20 * MIN).toISOString();
const fields = (e: HistoryEntry) => [e.id, e.createdAt, e.firstSeen, e.lastSeen, e.leftAt];

/** Parses, expecting a readable segment. */
function parsed(text: string, origin: string | undefined = ORIGIN) {
  const result = parseSegment(text, origin);
  assert.ok(result.ok, `not read: ${JSON.stringify(result)}`);
  return result;
}

describe('historyStore', () => {
  describe('serialize and parse', () => {
    it('round-trips every field; the duration is recomputed, never read', () => {
      const entries = [
        rec(1003, created, 10 * MIN, 5 * MIN, 5 * MIN - 15 * SEC, {
          raw: { id: 1003, note: 'x', nested: { a: [1, 2] } },
        }),
        rec(1002, 'not a time', 30 * MIN, 20 * MIN, 19 * MIN),
        rec(1001, created, 60 * MIN, 50 * MIN, 49 * MIN, { flowId: 8, flowName: '' }),
      ];
      const text = serializeSegment(entries, ORIGIN);
      const back = parsed(text);
      assert.equal(back.rejected, 0);
      assert.deepEqual(back.entries, entries);
      assert.doesNotMatch(text, /duration/);
      assert.equal(JSON.parse(text).format, HISTORY_FORMAT);
      assert.deepEqual(parsed(serializeSegment([], ORIGIN)), { ok: true, entries: [], rejected: 0 });
    });

    it('keeps the raw items of the newest entries only', () => {
      const entries = Array.from({ length: RAW_KEPT + 5 }, (_, i) =>
        rec(i + 1, created, 30 * MIN, 25 * MIN, 20 * MIN + i, { raw: { i } }),
      );
      const back = parsed(serializeSegment(entries, ORIGIN)).entries;
      assert.equal(back.filter((e) => e.raw).length, RAW_KEPT);
      assert.ok(back.slice(0, RAW_KEPT).every((e) => e.raw));
    });

    it('refuses another origin, a newer version, not-JSON, not-a-segment and oversized text', () => {
      const text = serializeSegment([rec(1, created, 3 * MIN, 2 * MIN, MIN)], ORIGIN);
      assert.deepEqual(parseSegment(text, 'https://other.example.com'), { ok: false, reason: 'otherOrigin' });
      assert.equal(parseSegment(text).ok, true, 'without an origin to check, any');
      assert.deepEqual(parseSegment(text.replace('"version":1', '"version":2')), { ok: false, reason: 'newerVersion' });
      for (const bad of [
        '',
        '{',
        'null',
        '[]',
        '42',
        '"x"',
        '{}',
        '{"format":"flowsync-history"}',
        '{"format":"flowsync-history","version":"1"}',
        text.replace('"base":', '"base":"x","b":'),
      ]) {
        const r = parseSegment(bad);
        assert.equal(r.ok, false, bad);
      }
      assert.deepEqual(parseSegment(' '.repeat(MAX_SEGMENT_CHARS + 1)), { ok: false, reason: 'tooLarge' });
      assert.deepEqual(parseSegment(undefined as unknown as string), { ok: false, reason: 'notJson' });
    });

    it('a hostile file: wrong types, huge strings, prototype keys and deep nesting are left out and counted, never thrown', () => {
      const deep = '['.repeat(100_000) + ']'.repeat(100_000);
      const deepObject = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
      const doc = {
        format: HISTORY_FORMAT,
        version: 1,
        origin: ORIGIN,
        base: NOW - DAY,
        flows: [[7, 'Invoices'], ['7', 'x'], [8, 'y'.repeat(100_000)], null, [9, '[a](command:b)\u202e']],
        id: [1, 2, '3', 4, 5, 6, 7, -1, 9, 10, 11.5, 12],
        flow: [0, 0, 0, 1, 3, 9, 2, 0, 0, 4, 0, 0],
        createdAt: [
          created,
          created,
          created,
          created,
          created,
          created,
          created,
          created,
          'c'.repeat(10_000),
          created,
          created,
          created,
        ],
        firstSeen: [0, 1e300, 0, 0, 0, 0, 0, 0, 0, 0, 0, -(NOW - DAY)],
        seenFor: [MIN, MIN, MIN, MIN, MIN, MIN, MIN, MIN, MIN, MIN, MIN, MIN],
        leftAfter: [SEC, SEC, SEC, SEC, SEC, SEC, SEC, SEC, SEC, SEC, SEC, SEC],
        raw: [
          [0, { ok: true }],
          [0, { second: true }],
          [6, 'x'],
          ['0', {}],
          [1],
          null,
          [9, { PROTO: { polluted: true } }],
        ],
      };
      const text = JSON.stringify(doc)
        .replace('"raw":[', `"raw":[[6,${deepObject}],`)
        .replace('"PROTO"', '"__proto__"')
        .replace('"format"', '"__proto__":{"format":"x","version":99},"constructor":1,"format"');
      const r = parsed(text);
      assert.deepEqual(
        r.entries.map((e) => e.id),
        [1, 7, 10],
        'only the entries whose every field checks out',
      );
      assert.equal(r.rejected, 9);
      const [one, seven, ten] = r.entries;
      assert.deepEqual(one.raw, { ok: true }, 'the first raw item of an entry wins');
      assert.ok(seven.flowName.length <= 120, 'names from disk are bounded');
      assert.doesNotMatch(ten.flowName, /\]\(|\u202e/, 'and made inert');
      assert.deepEqual(Object.keys(ten.raw!), ['__proto__'], 'a "__proto__" key stays a plain key');
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.getPrototypeOf(ten.raw), Object.prototype);
      assert.equal(seven.raw, undefined, 'a deeply nested raw item is dropped');
      // Deep nesting anywhere in the file.
      assert.equal(parseSegment(deep).ok, false);
      assert.equal(parsed(JSON.stringify({ ...doc, raw: 'DEEP' }).replace('"DEEP"', deep)).entries.length, 3);
    });

    it('never throws on any JSON, nor on a valid segment with any field replaced by any JSON value', () => {
      const valid = JSON.parse(
        serializeSegment(
          [rec(1, created, 3 * MIN, 2 * MIN, MIN, { raw: { a: 1 } }), rec(2, created, 5 * MIN, 4 * MIN, 3 * MIN)],
          ORIGIN,
        ),
      ) as Record<string, unknown>;
      const keys = Object.keys(valid);
      fc.assert(
        fc.property(
          fc.jsonValue({ maxDepth: 4 }),
          fc.constantFrom(...keys),
          fc.jsonValue({ maxDepth: 4 }),
          (anything, key, value) => {
            for (const text of [
              JSON.stringify(anything),
              JSON.stringify({ ...valid, [key]: value }),
              JSON.stringify({
                ...valid,
                [key]: [value, ...(Array.isArray(valid[key]) ? (valid[key] as unknown[]) : [])],
              }),
            ]) {
              const r = parseSegment(text);
              if (r.ok) {
                assert.ok(
                  r.entries.every(
                    (e) => Number.isFinite(e.duration.ms) && e.leftAt >= e.lastSeen && e.lastSeen >= e.firstSeen,
                  ),
                );
              }
            }
          },
        ),
        { numRuns: 300 },
      );
      fc.assert(
        fc.property(fc.string(), (text) => void parseSegment(text)),
        { numRuns: 300 },
      );
    });
  });

  describe('merge', () => {
    it('two windows recording the same run are one entry, with the narrowest bounds', () => {
      const a = rec(1, created, 10 * MIN, 5 * MIN, 5 * MIN - 15 * SEC, { raw: { from: 'a' } });
      const b = rec(1, created, 9 * MIN, 5 * MIN + 7 * SEC, 5 * MIN - 8 * SEC, { raw: { from: 'b' } });
      const merged = mergeSegments([[a], [b]]);
      assert.equal(merged.length, 1);
      assert.deepEqual(fields(merged[0]), [1, created, a.firstSeen, a.lastSeen, b.leftAt]);
      assert.deepEqual(merged[0].raw, { from: 'a' }, 'the raw item of the latest sighting');
      assert.equal(merged[0].duration.uncertaintyMs, 4 * SEC);
      assert.deepEqual(mergeSegments([[b], [a]]), merged, 'the order of segments does not matter');
      assert.deepEqual(mergeSegments([merged, merged, [a]]), merged, 'merging a merge changes nothing');
    });

    it('a sync that ran twice stays two entries, in every window, even with the same or an invalid created_at', () => {
      for (const createdAt of [created, 'not a time', '']) {
        // Window A saw run 1 leave at 30 min ago, and run 2 from 20 to 10 min ago; window B the same, 5 s later.
        const a = [rec(1, createdAt, 40 * MIN, 31 * MIN, 30 * MIN), rec(1, createdAt, 20 * MIN, 11 * MIN, 10 * MIN)];
        const b = [
          rec(1, createdAt, 40 * MIN - 5 * SEC, 31 * MIN - 5 * SEC, 30 * MIN - 5 * SEC),
          rec(1, createdAt, 20 * MIN - 5 * SEC, 11 * MIN - 5 * SEC, 10 * MIN - 5 * SEC),
        ];
        const merged = mergeSegments([a, b]);
        assert.equal(merged.length, 2, createdAt);
        assert.deepEqual(
          merged.map((e) => e.firstSeen),
          [NOW - 20 * MIN, NOW - 40 * MIN],
        );
        assert.equal(mergeSegments([a]).length, 2);
      }
    });

    it('no entry lost or doubled: three windows with overlapping views of many syncs', () => {
      const runs = Array.from({ length: 200 }, (_, i) => ({
        id: 100 + (i % 150),
        start: i * 3 * MIN,
        end: i * 3 * MIN + 2 * MIN,
      }));
      // Each window sees a run a little differently, and misses some.
      const windowOf = (w: number) =>
        runs
          .filter((_, i) => (i + w) % 4 !== 0)
          .map((r) =>
            makeEntry({
              id: r.id,
              flowId: 1,
              flowName: 'F',
              createdAt: new Date(NOW - DAY + r.start).toISOString(),
              firstSeen: NOW - DAY + r.start + w * SEC,
              lastSeen: NOW - DAY + r.end - w * SEC,
              leftAt: NOW - DAY + r.end + (3 - w) * SEC,
            }),
          );
      const merged = mergeSegments([windowOf(0), windowOf(1), windowOf(2)]);
      assert.equal(merged.length, runs.length);
      assert.equal(new Set(merged.map((e) => `${e.id}|${e.createdAt}`)).size, runs.length);
      for (let i = 1; i < merged.length; i++) assert.ok(merged[i - 1].leftAt >= merged[i].leftAt, 'newest first');
    });
  });

  it('sameRun: the same sync and created_at with overlapping spans', () => {
    const a = rec(1002, created, 30 * MIN, 25 * MIN, 20 * MIN);
    assert.ok(sameRun(a, rec(1002, created, 30 * MIN - 2 * SEC, 25 * MIN - 2 * SEC, 20 * MIN - 2 * SEC)));
    assert.ok(!sameRun(a, rec(1002, created, 10 * MIN, 8 * MIN, 5 * MIN)), 'a later run of the same sync');
  });

  describe('prune', () => {
    const many = Array.from({ length: 100 }, (_, i) =>
      rec(i + 1, created, i * DAY + 2 * MIN, i * DAY + MIN, i * DAY + 1, { raw: { i } }),
    );

    it('keeps what left within the days (1..90), newest first, at most the cap', () => {
      assert.deepEqual(
        pruneEntries(many, NOW, 7).map((e) => e.id),
        [1, 2, 3, 4, 5, 6, 7],
      );
      assert.equal(pruneEntries(many, NOW, 0).length, 1, 'days below 1 count as 1');
      assert.equal(pruneEntries(many, NOW, 1000).length, 90, 'above 90 count as 90');
      assert.equal(pruneEntries(many, NOW, Number.NaN).length, 7, 'not a number: the default, 7');
      assert.deepEqual(
        pruneEntries([...many].reverse(), NOW, 90, 3).map((e) => e.id),
        [1, 2, 3],
      );
      assert.equal(HISTORY_CAP, 50_000);
    });

    it('drops entries more than a day in the future; keeps raw items of the newest only', () => {
      const future = rec(999, created, -2 * DAY + 2 * MIN, -2 * DAY + MIN, -2 * DAY);
      const skewed = rec(998, created, -DAY / 2, -DAY / 2, -DAY / 2 - 1);
      assert.deepEqual(
        pruneEntries([future, skewed, ...many], NOW, 3).map((e) => e.id),
        [998, 1, 2, 3],
      );
      const kept = pruneEntries(many, NOW, 90, HISTORY_CAP, 2);
      assert.deepEqual(kept.map((e) => e.raw !== undefined).slice(0, 4), [true, true, false, false]);
      assert.ok(kept.every((e) => Number.isFinite(e.duration.ms)));
    });
  });

  it('file names: a folder per origin and a segment per window, safe and distinct', () => {
    const a = originFolder('https://flowsync.example.com');
    assert.match(a, /^flowsync\.example\.com-[0-9a-f]{8}$/);
    assert.notEqual(originFolder('https://flowsync.example.com:8443'), a);
    assert.notEqual(originFolder('http://flowsync.example.com'), a);
    assert.match(originFolder('https://../../etc'), /^[a-z0-9._-]+$/);
    assert.doesNotMatch(originFolder('https://../../etc'), /\.\.\//);
    assert.match(segmentFileName('1b2c-ffee/..\\x'), /^segment-[A-Za-z0-9_-]+-[0-9a-f]{8}\.json$/);
    assert.notEqual(segmentFileName('a/b'), segmentFileName('a_b'));
  });
});
