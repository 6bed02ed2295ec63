#!/usr/bin/env node
// Bounded everywhere (issue #38): what a filtered answer costs when its rows are new objects that say what the answer
// before said (src/filter/filterMatch.ts: folds kept by what a row says), with accented and with ASCII text. Plain
// Node over the compiled sources, with the describers the views use (src/lists/findRows.ts).
import { emitRows, ms, outModule, progress, row } from './lib/common.mjs';
import { performance } from 'node:perf_hooks';

const RUNS = 5;
const say = (m) => progress('bounds', m);
const rows = [];

const { FilterSubjects } = outModule('filter/filterMatch.js');
const { parseFilter } = outModule('filter/filterQuery.js');
const { processingRows } = outModule('lists/findRows.js');

const filterOf = (text, view) => {
  const parsed = parseFilter(text, view);
  if (!parsed.filter) throw new Error(parsed.problem);
  return parsed.filter;
};

/** Median of RUNS samples of fn(i), a full collection before each. */
function timeSamples(fn) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    globalThis.gc?.();
    const t0 = performance.now();
    fn(i);
    samples.push(ms(t0));
  }
  return samples;
}

{
  // 100,000 processing syncs: each answer a new array of new objects (as validateList makes them), 1 % of the rows
  // changed since the answer before (a new status), the rest saying the same. Flows, statuses and errors accented or
  // ASCII.
  const N = 100_000;
  const FLOWS = 2_000;
  const accent = (text) => text.replace(/a/g, 'á').replace(/e/g, 'é').replace(/o/g, 'ö').replace(/u/g, 'ü');
  const make = (accented, answer) => {
    const text = accented ? accent : (t) => t;
    return Array.from({ length: N }, (_, i) => {
      const changed = (i + answer) % 100 === 0;
      return {
        id: 1_000_000 + i,
        flow_id: i % FLOWS,
        status: text(changed && answer > 0 ? `retrying ${answer}` : i % 3 ? 'pending' : 'queued'),
        created_at: '2026-11-22T12:00:00.000Z',
        updated_at: '2026-11-22T12:00:00.000Z',
        errors: i % 11 ? null : [text(`Connection refused by upstream ${i % 97}`)],
        webhook: i % 5 === 0,
        flow: { id: i % FLOWS, name: text(`Flow ${i % FLOWS} Invoices Europe Customers`) },
      };
    });
  };
  const filter = filterOf('invoices -status:queued', 'processing');
  const results = {};
  for (const accented of [false, true]) {
    const kind = accented ? 'accented' : 'ASCII';
    say(`filter 100,000 ${kind} rows, a new answer`);
    const answers = Array.from({ length: RUNS + 1 }, (_, a) => make(accented, a));
    const subjects = new FilterSubjects((s) => processingRows.subject(s, 'Production'));
    subjects.filter(filter, answers[0]);
    const next = timeSamples((i) => subjects.filter(filter, answers[i + 1]));
    const cold = timeSamples((i) =>
      new FilterSubjects((s) => processingRows.subject(s, 'Production')).filter(filter, answers[i + 1]),
    );
    results[kind] = { next, cold };
    rows.push(
      row('bounds', `filter 100,000 ${kind} syncs, a new answer (1 % of rows changed)`, 'ms', next, {
        note: 'new row objects: a row that says what one before said takes its fold',
      }),
      row('bounds', `filter 100,000 ${kind} syncs, every row folded (as every new answer was before)`, 'ms', cold),
    );
  }
  const ratio = results.accented.next.map((v, i) => v / results.ASCII.next[i]);
  rows.push(
    row('bounds', 'a new answer of 100,000 syncs: accented / ASCII', 'x', ratio, {
      target: { max: 2, text: '≤ 2x' },
    }),
  );
}

emitRows(rows);
