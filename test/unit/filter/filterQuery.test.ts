import * as assert from 'node:assert/strict';
import {
  MAX_FILTER_LENGTH,
  MAX_FILTER_TERMS,
  parseFilter,
  type FilterTerm,
  type FilterView,
} from '../../../src/filter/filterQuery';

const terms = (input: string, view: FilterView = 'processing'): readonly FilterTerm[] => {
  const parsed = parseFilter(input, view);
  assert.equal(parsed.problem, undefined, `${input}: ${parsed.problem}`);
  return parsed.filter!.terms;
};
const problem = (input: string, view: FilterView = 'processing'): string => {
  const parsed = parseFilter(input, view);
  assert.ok(parsed.problem, `${input} should be refused`);
  assert.equal(parsed.filter, undefined);
  return parsed.problem;
};

describe('parseFilter: the one filter language', () => {
  it('words, folded: case and accents, several words all kept', () => {
    assert.deepEqual(terms('  Café   RECEIPTS '), [
      { kind: 'text', text: 'cafe', negated: false },
      { kind: 'text', text: 'receipts', negated: false },
    ]);
    assert.equal(parseFilter('  Café ', 'processing').filter!.source, 'Café');
  });

  it('an empty input is the empty filter', () => {
    assert.deepEqual(terms(''), []);
    assert.deepEqual(terms('   '), []);
  });

  it('"quoted phrases" are one term, spaces folded', () => {
    assert.deepEqual(terms('"Sales   EU" x'), [
      { kind: 'text', text: 'sales eu', negated: false },
      { kind: 'text', text: 'x', negated: false },
    ]);
    assert.deepEqual(terms('-"sales eu"'), [{ kind: 'text', text: 'sales eu', negated: true }]);
  });

  it('field terms, with quoted values; the name in any case', () => {
    assert.deepEqual(terms('status:Pending FLOW:"Invoices EU" id:1003 service:prod'), [
      { kind: 'field', field: 'status', text: 'pending', negated: false },
      { kind: 'field', field: 'flow', text: 'invoices eu', negated: false },
      { kind: 'field', field: 'id', text: '1003', negated: false },
      { kind: 'field', field: 'service', text: 'prod', negated: false },
    ]);
    assert.deepEqual(terms('team:sales -type:pdf', 'connections'), [
      { kind: 'field', field: 'team', text: 'sales', negated: false },
      { kind: 'field', field: 'type', text: 'pdf', negated: true },
    ]);
  });

  it('flags, per view', () => {
    assert.deepEqual(terms('has:errors -has:webhook is:stuck is:watched is:longer'), [
      { kind: 'flag', flag: 'errors', negated: false },
      { kind: 'flag', flag: 'webhook', negated: true },
      { kind: 'flag', flag: 'stuck', negated: false },
      { kind: 'flag', flag: 'watched', negated: false },
      { kind: 'flag', flag: 'longer', negated: false },
    ]);
    assert.deepEqual(terms('has:errors is:watched', 'history'), [
      { kind: 'flag', flag: 'errors', negated: false },
      { kind: 'flag', flag: 'watched', negated: false },
    ]);
    assert.match(problem('is:stuck', 'history'), /is:stuck does not apply to History/);
    assert.match(problem('has:errors', 'connections'), /has:errors does not apply to Connections/);
    assert.match(problem('is:late'), /is: takes is:stuck, is:watched, is:longer/);
  });

  it('durations in s, m, h, d; age on Processing, ran on History', () => {
    assert.deepEqual(terms('age>10m age<2h -age>1.5d'), [
      { kind: 'duration', field: 'age', op: '>', seconds: 600, negated: false },
      { kind: 'duration', field: 'age', op: '<', seconds: 7200, negated: false },
      { kind: 'duration', field: 'age', op: '>', seconds: 129600, negated: true },
    ]);
    assert.deepEqual(terms('ran>1h ran<30s', 'history'), [
      { kind: 'duration', field: 'ran', op: '>', seconds: 3600, negated: false },
      { kind: 'duration', field: 'ran', op: '<', seconds: 30, negated: false },
    ]);
    assert.match(problem('age>10m', 'history'), /age> does not apply to History/);
    assert.match(problem('ran>1h'), /ran> does not apply to Processing/);
    assert.match(problem('age>10'), /takes a number and a unit/);
    assert.match(problem('age>m'), /takes a number and a unit/);
    assert.match(problem('age>10y'), /takes a number and a unit/);
    assert.match(problem('age>400d'), /at most 366 days/);
    // Words that merely begin like a duration are words.
    assert.deepEqual(terms('agenda range'), [
      { kind: 'text', text: 'agenda', negated: false },
      { kind: 'text', text: 'range', negated: false },
    ]);
  });

  it('explains malformed input, and applies nothing', () => {
    assert.match(problem('"unclosed'), /not closed/);
    assert.match(problem('a - b'), /Nothing follows "-"/);
    assert.match(problem('""'), /empty pair of quotes/);
    assert.match(problem('status:'), /status: needs a value/);
    assert.match(problem('id:12a'), /id: takes a number/);
    assert.match(problem('owner:me'), /Unknown term "owner:".*put it in quotes/);
    assert.match(problem('team:x'), /team: does not apply to Processing/);
    assert.match(problem('status:x', 'connections'), /status: does not apply to Connections/);
    assert.deepEqual(
      terms('"owner:me"'),
      [{ kind: 'text', text: 'owner:me', negated: false }],
      'quoted, a colon is text',
    );
  });

  it('is bounded: 200 characters, 20 terms', () => {
    assert.equal(terms('x'.repeat(MAX_FILTER_LENGTH)).length, 1);
    assert.match(problem('x'.repeat(MAX_FILTER_LENGTH + 1)), /at most 200 characters/);
    assert.equal(terms(Array(MAX_FILTER_TERMS).fill('a').join(' ')).length, MAX_FILTER_TERMS);
    assert.match(
      problem(
        Array(MAX_FILTER_TERMS + 1)
          .fill('a')
          .join(' '),
      ),
      /at most 20 words and terms/,
    );
  });

  it('a problem sentence quotes the typed text short and inert (a link can carry anybody\u2019s filter)', () => {
    const said = problem(`${'a'.repeat(150)}:x`);
    assert.ok(said.length < 200, said);
    assert.match(problem('\u202e\u200b'), /Invisible characters alone match nothing/);
  });

  it('invisible characters are no word', () => {
    assert.match(problem('\u200b\u00ad'), /Invisible characters alone/);
    assert.deepEqual(terms('Pro\u00addu\u200bction'), [{ kind: 'text', text: 'production', negated: false }]);
  });
});
