import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseFilter } from '../../../src/filter/filterQuery';
import { makeEntry, type HistoryEntry } from '../../../src/history/entry';
import { historyRunSubjects } from '../../../src/history/findRows';
import { historyEntryFilter } from '../../../src/history/historyFilter';
import { NOW } from '../helpers/items';

const MIN = 60_000;

/** A History run as random as the filter can tell runs apart: flow, status (short or too long to be read), errors, webhook, when. */
const runArb = fc
  .record({
    flowId: fc.integer({ min: 1, max: 4 }),
    flowName: fc.constantFrom('Invoices', 'Payroll EU', 'Überweisungen', ''),
    status: fc.option(fc.constantFrom('pending', 'retrying', `waiting ${'x'.repeat(60)}`, 'Pénding'), {
      nil: undefined,
    }),
    errors: fc.boolean(),
    webhook: fc.boolean(),
    startedMin: fc.integer({ min: 1, max: 3 * 24 * 60 }),
    ranMin: fc.integer({ min: 0, max: 180 }),
  })
  .map(
    (r) => (id: number) =>
      makeEntry({
        id,
        flowId: r.flowId,
        flowName: r.flowName,
        createdAt: new Date(NOW - r.startedMin * MIN).toISOString(),
        firstSeen: NOW - r.startedMin * MIN,
        lastSeen: NOW - r.startedMin * MIN + r.ranMin * MIN,
        leftAt: NOW - r.startedMin * MIN + r.ranMin * MIN + 1000,
        raw: {
          ...(r.status !== undefined ? { status: r.status } : {}),
          errors: r.errors ? 'boom' : null,
          webhook: r.webhook,
        },
      }),
  );

/** Filter texts of the History view's language: words (a date, a time, a name), fields, flags, durations, negated. */
const termArb = fc.oneof(
  fc.constantFrom('invoices', 'payroll', 'uberweisungen', 'eu', 'pending', 'waiting', '2026', '2026-11-2', '"11:"'),
  fc.constantFrom('status:pending', 'status:waiting', 'status:pend', 'flow:1', 'flow:payroll', 'service:prod'),
  fc.integer({ min: 1, max: 12 }).map((id) => `id:${id}`),
  fc.constantFrom('has:errors', 'has:webhook', 'is:watched'),
  fc.tuple(fc.constantFrom('<', '>'), fc.integer({ min: 0, max: 200 })).map(([op, n]) => `ran${op}${n}m`),
);
const filterTextArb = fc
  .array(fc.tuple(fc.boolean(), termArb), { minLength: 0, maxLength: 3 })
  .map((terms) => terms.map(([negated, term]) => (negated ? `-${term}` : term)).join(' '));

describe('History filter: the History view and Export keep the same runs for the same filter text', () => {
  it('for random filter texts and runs (some watched), the view\u2019s rows are the export\u2019s rows', () => {
    fc.assert(
      fc.property(
        fc.array(runArb, { maxLength: 12 }).map((made) => made.map((run, i) => run(i + 1))),
        fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 6 }),
        filterTextArb,
        (runs: HistoryEntry[], watchedIds, text) => {
          const watched = new Set(watchedIds);
          const parsed = parseFilter(text, 'history');
          const exported = historyEntryFilter(text, 'Production', (id) => watched.has(id));
          if (!parsed.filter) {
            assert.ok('problem' in exported, text);
            return;
          }
          assert.ok('test' in exported, text);
          // The History view: its Finder's rows of one service (the list's index, as the view filters a list).
          const view = historyRunSubjects(
            () => 'Production',
            (id) => watched.has(id),
          );
          const viewIds = view.filter(parsed.filter, runs).map((e) => e.id);
          const againIds = view.filter(parsed.filter, runs).map((e) => e.id);
          const exportIds = runs.filter(exported.test).map((e) => e.id);
          assert.deepEqual(exportIds, viewIds, text);
          assert.deepEqual(againIds, viewIds, text);
        },
      ),
      { numRuns: 400 },
    );
  });
});
