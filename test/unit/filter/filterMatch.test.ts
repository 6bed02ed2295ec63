import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { FilterSubjects, type FilterLive, type FilterSubject } from '../../../src/filter/filterMatch';
import { parseFilter, type Filter, type FilterTerm, type FilterView } from '../../../src/filter/filterQuery';
import { foldForSearch } from '../../../src/filter/foldText';

interface Row {
  id: number;
  flow: string;
  flowId: number;
  status: string;
  service: string;
  error?: string;
  stuck?: boolean;
  ageSeconds?: number;
}

// One text or id, or a list of them: a subject may give either.
const describe_ = (row: Row): FilterSubject => ({
  fields: { flow: [row.flow], status: [row.status], service: row.service },
  ids: { id: row.id, flow: [row.flowId] },
  more: row.error ? [row.error] : [],
});
const live = (row: Row): FilterLive => ({
  flags: { stuck: row.stuck === true, errors: row.error !== undefined },
  seconds: { age: row.ageSeconds },
});

const filterOf = (input: string, view: FilterView = 'processing'): Filter => {
  const parsed = parseFilter(input, view);
  assert.ok(parsed.filter, parsed.problem);
  return parsed.filter;
};

const rows: Row[] = [
  { id: 1003, flow: 'Invoices EU', flowId: 7, status: 'pending', service: 'Production', ageSeconds: 120 },
  {
    id: 1004,
    flow: 'Receipts Café',
    flowId: 8,
    status: 'pending',
    service: 'Staging',
    error: 'Timeout talking to ERP',
    stuck: true,
    ageSeconds: 7200,
  },
  { id: 2001, flow: 'Payroll', flowId: 12, status: 'retrying', service: 'Production', ageSeconds: 4000 },
];

describe('FilterSubjects: matching rows', () => {
  const subjects = new FilterSubjects(describe_, live);
  const ids = (input: string) => subjects.filter(filterOf(input), rows).map((r) => r.id);

  it('words in any field, every word, case and accents folded', () => {
    assert.deepEqual(ids('cafe'), [1004]);
    assert.deepEqual(ids('RECEIPTS café'), [1004]);
    assert.deepEqual(ids('erp'), [1004], 'error text');
    assert.deepEqual(ids('production'), [1003, 2001], 'service name');
    assert.deepEqual(ids('1003'), [1003], 'an id');
    assert.deepEqual(ids('invoices payroll'), [], 'all words must match');
    assert.deepEqual(ids('"invoices eu"'), [1003]);
    assert.deepEqual(ids('"eu invoices"'), [], 'a phrase keeps its order');
  });

  it('field terms look in their field only; an id term compares the number', () => {
    assert.deepEqual(ids('status:retry'), [2001]);
    assert.deepEqual(ids('flow:12'), [2001], 'the flow id');
    assert.deepEqual(ids('flow:1'), [], 'an id is a number, not a substring');
    assert.deepEqual(ids('flow:invoices'), [1003]);
    assert.deepEqual(ids('id:100'), []);
    assert.deepEqual(ids('id:1004'), [1004]);
    assert.deepEqual(ids('service:staging'), [1004]);
    assert.deepEqual(ids('status:production'), [], 'not another field');
  });

  it('flags and durations are read live', () => {
    assert.deepEqual(ids('is:stuck'), [1004]);
    assert.deepEqual(ids('has:errors'), [1004]);
    assert.deepEqual(ids('-has:errors'), [1003, 2001]);
    assert.deepEqual(ids('age>1h'), [1004, 2001]);
    assert.deepEqual(ids('age<1h'), [1003]);
    const row = { ...rows[0] };
    const s = new FilterSubjects(describe_, live);
    assert.equal(s.matches(filterOf('is:stuck'), row), false);
    row.stuck = true; // the same row object, stuck a poll later
    assert.equal(s.matches(filterOf('is:stuck'), row), true);
  });

  it('negation, and count says what filter gives', () => {
    assert.deepEqual(ids('-production'), [1004]);
    assert.deepEqual(ids('pending -cafe'), [1003]);
    assert.equal(subjects.count(filterOf('pending'), rows), 2);
    assert.equal(subjects.count(filterOf(''), rows), 3);
  });

  it('folds a row once however often it is matched', () => {
    let described = 0;
    const s = new FilterSubjects((row: Row) => (described++, describe_(row)), live);
    for (const input of ['a', 'ab', 'abc', 'invoices']) s.count(filterOf(input), rows);
    assert.equal(described, rows.length);
  });

  it('a filter whose terms read no text (has:, is:, a duration) describes and folds no row; a text term later does', () => {
    let described = 0;
    const s = new FilterSubjects((row: Row) => (described++, describe_(row)), live);
    for (const input of ['has:errors', 'is:stuck -has:errors', 'age>1h', '-is:stuck age<1h']) {
      const filter = filterOf(input);
      const expected = rows.filter((r) => plainMatch(filter, describe_(r), live(r))).map((r) => r.id);
      assert.deepEqual(
        rows.filter((r) => s.matches(filter, r)).map((r) => r.id),
        expected,
        input,
      );
      for (let i = 0; i < 2; i++) {
        assert.deepEqual(
          s.filter(filter, rows).map((r) => r.id),
          expected,
          input,
        );
        assert.equal(s.count(filter, rows), expected.length, input);
      }
    }
    assert.equal(described, 0, 'nothing described for flags and durations');
    assert.deepEqual(
      s.filter(filterOf('has:errors cafe'), rows).map((r) => r.id),
      [1004],
    );
    assert.deepEqual(
      rows.filter((r) => s.matches(filterOf('is:stuck receipts'), r)).map((r) => r.id),
      [1004],
    );
    assert.ok(described > 0, 'a text term folds the rows');
  });

  it('property: a term and its negation split the rows in two', () => {
    const word = fc.stringMatching(/^[a-zA-Zé0-9]{1,6}$/);
    const term = fc.oneof(
      word,
      word.map((w) => `flow:${w}`),
      word.map((w) => `status:${w}`),
      fc.nat(3000).map((n) => `id:${n}`),
      fc.constantFrom('has:errors', 'is:stuck', 'has:webhook', 'is:watched', 'is:longer'),
      fc
        .tuple(fc.constantFrom('<', '>'), fc.nat(500), fc.constantFrom('s', 'm', 'h'))
        .map(([op, n, u]) => `age${op}${n}${u}`),
    );
    const row = fc.record({
      id: fc.nat(3000),
      flow: fc.string({ maxLength: 12 }),
      flowId: fc.nat(30),
      status: fc.constantFrom('pending', 'retrying', 'Pénding'),
      service: fc.string({ maxLength: 8 }),
      error: fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
      stuck: fc.boolean(),
      ageSeconds: fc.option(fc.nat(100_000), { nil: undefined }),
    });
    fc.assert(
      fc.property(term, fc.array(row, { maxLength: 20 }), (t, some) => {
        const s = new FilterSubjects(describe_, live);
        const yes = s.filter(filterOf(t), some);
        const no = s.filter(filterOf(`-${t}`), some);
        assert.equal(yes.length + no.length, some.length);
        for (const r of yes) assert.ok(!no.includes(r));
      }),
    );
  });
});

/** A subject's field or ids as a list (a subject gives one, or several). */
function listOf<T extends string | number>(value: T | readonly T[] | undefined): readonly T[] {
  if (value === undefined) return [];
  return typeof value === 'object' ? value : [value];
}

/**
 * What a filter means, said plainly (the matcher before its caches and index): each text folded, words looked for in
 * all of a row's texts joined, a field term in each of its field's texts or among its ids.
 */
function plainMatch(filter: Filter, subject: FilterSubject, live: FilterLive): boolean {
  const fold = (texts: string | readonly string[] | undefined) => listOf(texts).map(foldForSearch);
  const all = [
    ...Object.values(subject.fields).flatMap((texts) => fold(texts)),
    ...Object.values(subject.ids ?? {}).flatMap((ids) => listOf(ids).map(String)),
    ...fold(subject.more),
  ].join('\u0000');
  const holds = (term: FilterTerm): boolean => {
    switch (term.kind) {
      case 'text':
        return all.includes(term.text);
      case 'field': {
        const ids = listOf(subject.ids?.[term.field]);
        if (/^\d+$/.test(term.text) && ids.includes(Number(term.text))) return true;
        return term.field !== 'id' && fold(subject.fields[term.field]).some((text) => text.includes(term.text));
      }
      case 'flag':
        return live.flags?.[term.flag] === true;
      case 'duration': {
        const seconds = live.seconds?.[term.field];
        if (seconds === undefined || !Number.isFinite(seconds)) return false;
        return term.op === '>' ? seconds > term.seconds : seconds < term.seconds;
      }
    }
  };
  return filter.terms.every((term) => holds(term) !== term.negated);
}

/** What `run` gives, and how many texts it folded by the fold's every step (String.prototype.normalize calls). */
function slowFolds<T>(run: () => T): [T, number] {
  const normalize = String.prototype.normalize;
  let folds = 0;
  String.prototype.normalize = function (this: string, form?: string) {
    folds++;
    return normalize.call(this, form);
  };
  try {
    return [run(), folds];
  } finally {
    String.prototype.normalize = normalize;
  }
}

describe('FilterSubjects: folded rows and the list index', () => {
  it('a row that changes is a new row object: matched by what it says now, never by what it said', () => {
    let described = 0;
    const s = new FilterSubjects((row: Row) => (described++, describe_(row)), live);
    const list = rows.slice();
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(
        s.filter(filterOf('status:retrying'), list).map((r) => r.id),
        [2001],
      );
    }
    const changed = { ...rows[0], status: 'retrying' };
    const next = [changed, rows[1], rows[2]];
    assert.deepEqual(
      s.filter(filterOf('status:retrying'), next).map((r) => r.id),
      [1003, 2001],
    );
    assert.deepEqual(
      s.filter(filterOf('status:pending'), next).map((r) => r.id),
      [1004],
    );
    assert.equal(s.count(filterOf('-status:retrying'), next), 1);
    assert.equal(described, rows.length + 1, 'only the changed row is folded again');
    assert.deepEqual(
      s.filter(filterOf('status:retrying'), list).map((r) => r.id),
      [2001],
      'the old list is still the old list',
    );
  });

  it('an array changed in place (a row replaced, one added) is indexed again: no stale match', () => {
    const s = new FilterSubjects(describe_, live);
    const list = rows.slice();
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(
        s.filter(filterOf('pending'), list).map((r) => r.id),
        [1003, 1004],
      );
    }
    list[1] = { ...rows[1], status: 'retrying', error: undefined, stuck: false };
    assert.deepEqual(
      s.filter(filterOf('pending'), list).map((r) => r.id),
      [1003],
    );
    assert.deepEqual(
      s.filter(filterOf('erp'), list).map((r) => r.id),
      [],
    );
    assert.deepEqual(
      s.filter(filterOf('status:retrying'), list).map((r) => r.id),
      [1004, 2001],
    );
    list.push({ id: 3001, flow: 'Pending Orders', flowId: 40, status: 'pending', service: 'Staging' });
    assert.deepEqual(
      s.filter(filterOf('pending'), list).map((r) => r.id),
      [1003, 3001],
    );
    assert.deepEqual(
      s.filter(filterOf('flow:40'), list).map((r) => r.id),
      [3001],
    );
  });

  it('a later list holding the same rows (one run more at the top, the oldest gone) folds only its new rows', () => {
    let described = 0;
    const s = new FilterSubjects((row: Row) => (described++, describe_(row)), live);
    const many: Row[] = Array.from({ length: 40 }, (_, i) => ({
      id: 5000 + i,
      flow: `Flow ${i % 7}`,
      flowId: i % 7,
      status: i % 3 ? 'pending' : 'retrying',
      service: 'Production',
    }));
    assert.equal(s.count(filterOf('retrying'), many), 14);
    const newer: Row = { id: 6000, flow: 'Flow 1', flowId: 1, status: 'retrying', service: 'Production' };
    const next = [newer, ...many.slice(0, 10), ...many.slice(12, 39)];
    assert.deepEqual(
      s.filter(filterOf('retrying'), next).map((r) => r.id),
      next.filter((r) => r.status === 'retrying').map((r) => r.id),
    );
    assert.equal(described, 41);
    assert.equal(s.count(filterOf('flow:1'), next), next.filter((r) => r.flowId === 1).length);
  });

  it('a new answer whose rows say the same (new row objects) takes their folds by their texts: only the new text is folded', () => {
    const s = new FilterSubjects(describe_, live);
    // Greek: its texts take the fold's every step (Latin ones take the table, without String.prototype.normalize).
    const answer = (changed: number): Row[] =>
      Array.from({ length: 50 }, (_, i) => ({
        id: 7000 + i,
        flow: `Ροή ${i % 5}`,
        flowId: i % 5,
        status: 'pending',
        service: 'Αθήνα',
        ...(i === changed ? { error: 'Σφάλμα σύνδεσης' } : {}),
      }));
    const flow = filterOf('ροη');
    assert.equal(s.count(flow, answer(-1)), 50);
    const [matched, folds] = slowFolds(() => s.filter(flow, answer(3)).map((r) => r.id));
    assert.equal(matched.length, 50);
    assert.equal(folds, 1, "the changed row's new text (its error), none of its others, no other row's");
    assert.deepEqual(
      s.filter(filterOf('σφαλμα'), answer(3)).map((r) => r.id),
      [7003],
    );
    assert.deepEqual(s.filter(filterOf('σφαλμα'), answer(-1)), [], 'the same texts, never a stale fold');
  });

  it('a new answer whose rows each have a new status (their other texts as before) folds one text per row', () => {
    const s = new FilterSubjects(describe_, live);
    const answer = (n: number): Row[] =>
      Array.from({ length: 40 }, (_, i) => ({
        id: 8000 + i,
        flow: `Ροή ${i % 4}`,
        flowId: i % 4,
        status: `Επανάληψη ${n}.${i}`,
        service: 'Αθήνα',
        error: `Σφάλμα ${i % 3}`,
      }));
    assert.equal(s.count(filterOf('ροη'), answer(0)), 40);
    const status = filterOf('status:επαναληψη');
    const [next, folds] = slowFolds(() => s.filter(status, answer(1)));
    assert.equal(next.length, 40);
    assert.equal(folds, 40, "each row's new status, none of its other texts (flow, service, error: as before)");
    assert.deepEqual(
      s.filter(filterOf('status:"επαναληψη 1.7"'), answer(1)).map((r) => r.id),
      [8007],
      'matched by the status it has now',
    );
    assert.deepEqual(s.filter(filterOf('status:"επαναληψη 1.7"'), answer(2)), [], 'never by the status it had');
    assert.deepEqual(
      s.filter(filterOf('"σφαλμα 2"'), answer(2)).map((r) => r.id),
      answer(2)
        .filter((r) => r.error === 'Σφάλμα 2')
        .map((r) => r.id),
      'its other texts kept',
    );
  });

  it('a field whose texts are mostly new every answer is folded without keeping them, the other fields kept: same matches', () => {
    const s = new FilterSubjects(describe_, live);
    const answer = (n: number): Row[] =>
      Array.from({ length: 3_000 }, (_, i) => ({
        id: 9000 + i,
        flow: `Ροή ${i % 7}`,
        flowId: i % 7,
        status: i % 5 ? `Επανάληψη ${n}.${i}` : 'Αναμονή',
        service: 'Αθήνα',
      }));
    const filters = ['status:αναμονη', 'ροη 3', '"επαναληψη 2.1"', '-status:αναμονη flow:"ροη 6"'].map((f) =>
      filterOf(f),
    );
    for (let n = 0; n < 4; n++) {
      const rows = answer(n);
      const [, folds] = slowFolds(() => s.count(filters[0], rows));
      // The statuses, mostly new, are folded without a look-up (the repeated one too): one fold a row, never its flow's.
      if (n > 0) assert.equal(folds, rows.length, `answer ${n}: each row's status, not its flow or service`);
      for (const filter of filters) {
        assert.deepEqual(
          s.filter(filter, rows).map((r) => r.id),
          rows.filter((r) => plainMatch(filter, describe_(r), live(r))).map((r) => r.id),
          `answer ${n}: ${filter.source}`,
        );
      }
    }
  });

  it('a word with the separator in it (typed as \\u0000) never spans two rows of the list', () => {
    const pair: Row[] = [
      { id: 1, flow: 'alpha', flowId: 1, status: 'pending', service: 'one', error: 'ends in b' },
      { id: 2, flow: 'c starts', flowId: 2, status: 'pending', service: 'two' },
    ];
    const s = new FilterSubjects(describe_, live);
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(s.filter(filterOf('b\u0000c'), pair), []);
      assert.deepEqual(s.filter(filterOf('-b\u0000c'), pair), pair);
      assert.deepEqual(s.filter(filterOf('alpha\u0000pending'), pair), [pair[0]], 'two texts of one row: as before');
    }
  });

  it('a field text longer than 65,535 characters keeps its place: a field term finds what is after it', () => {
    const long = 'x'.repeat(70_000);
    const tall: Row[] = [
      { id: 1, flow: long, flowId: 1, status: 'pending', service: 'Production' },
      { id: 2, flow: 'short', flowId: 2, status: 'retrying', service: `${long} staging` },
    ];
    const s = new FilterSubjects(describe_, live);
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(
        s.filter(filterOf('service:staging'), tall).map((r) => r.id),
        [2],
      );
      assert.deepEqual(
        s.filter(filterOf('status:pending'), tall).map((r) => r.id),
        [1],
      );
      assert.deepEqual(
        s.filter(filterOf('id:2'), tall).map((r) => r.id),
        [2],
      );
      assert.deepEqual(
        s.filter(filterOf('flow:xxx'), tall).map((r) => r.id),
        [1],
      );
      assert.deepEqual(
        s.filter(filterOf('flow:2 -flow:xx'), tall).map((r) => r.id),
        [2],
      );
    }
  });

  it('property: every filter keeps what its plain meaning keeps, the first time a list is filtered and after', () => {
    // Texts and words of a few letters, accents, digits, and the separator of the folded texts (\u0000) too.
    const of = (alphabet: string, minLength: number, maxLength: number) =>
      fc.array(fc.constantFrom(...alphabet), { minLength, maxLength }).map((chars) => chars.join(''));
    const text = of('abcé 123A\u0000-', 0, 8);
    const word = of('abcé123A\u0000-', 1, 3);
    const term = fc.oneof(
      word,
      fc.stringMatching(/^[a-c ]{1,4}$/).map((w) => `"${w}"`),
      word.map((w) => `flow:${w}`),
      word.map((w) => `status:${w}`),
      word.map((w) => `service:${w}`),
      fc.nat(40).map((n) => `id:${n}`),
      fc.nat(40).map((n) => `flow:${n}`),
      fc.constantFrom('has:errors', 'is:stuck'),
      fc
        .tuple(fc.constantFrom('<', '>'), fc.nat(50), fc.constantFrom('s', 'm'))
        .map(([op, n, u]) => `age${op}${n}${u}`),
    );
    const filterText = fc
      .array(fc.tuple(fc.boolean(), term), { minLength: 1, maxLength: 4 })
      .map((ts) => ts.map(([negated, t]) => `${negated ? '-' : ''}${t}`).join(' '));
    const row = fc.record({
      id: fc.nat(40),
      flow: text,
      flowId: fc.nat(40),
      status: fc.constantFrom('pending', 'retrying', 'Pénding', ''),
      service: text,
      error: fc.option(text, { nil: undefined }),
      stuck: fc.boolean(),
      ageSeconds: fc.option(fc.nat(4000), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(filterText, { minLength: 1, maxLength: 4 }),
        fc.array(row, { maxLength: 60 }),
        (inputs, some) => {
          const s = new FilterSubjects(describe_, live);
          for (const input of inputs) {
            const parsed = parseFilter(input, 'processing');
            if (!parsed.filter) continue;
            const filter = parsed.filter;
            const expected = some.filter((r) => plainMatch(filter, describe_(r), live(r)));
            for (let i = 0; i < 2; i++) {
              assert.deepEqual(s.filter(filter, some), expected, input);
              assert.equal(s.count(filter, some), expected.length, input);
            }
            for (const r of some) assert.equal(s.matches(filter, r), expected.includes(r), input);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
