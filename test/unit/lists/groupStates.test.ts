import * as assert from 'node:assert/strict';
import { groupMarks } from '../../../src/lists/groupStates';

/** A row of a group: the states it is in. */
interface Row {
  errors?: boolean;
  stuck?: boolean;
  longer?: boolean;
}

/** Probes that count how often each is asked. */
function probes() {
  const asked = { errors: 0, stuck: 0, longer: 0 };
  return {
    asked,
    probes: {
      errors: (r: Row) => (asked.errors++, r.errors === true),
      stuck: (r: Row) => (asked.stuck++, r.stuck === true),
      longer: (r: Row) => (asked.longer++, r.longer === true),
    },
  };
}

describe('groupMarks: a group row (a flow) wears the strongest state of its rows (its syncs), in words too', () => {
  it('errors over stuck over longer: only the strongest, with how many rows are in it', () => {
    const { probes: p } = probes();
    assert.deepEqual(groupMarks([{ longer: true }, { stuck: true }, { errors: true }, { errors: true }], p), {
      states: { errors: true },
      words: '2 with errors',
    });
    assert.deepEqual(groupMarks([{ longer: true }, { stuck: true }, {}], p), {
      states: { stuck: true },
      words: '1 stuck',
    });
    assert.deepEqual(groupMarks([{ longer: true }, { longer: true }, {}], p), {
      states: { longer: true },
      words: '2 longer than usual',
    });
    assert.deepEqual(groupMarks([{ errors: true, stuck: true }], p)?.words, '1 with errors');
  });

  it('none in a state, or no rows (an idle pinned flow): nothing', () => {
    const { probes: p } = probes();
    assert.equal(groupMarks([{}, {}], p), undefined);
    assert.equal(groupMarks([], p), undefined);
  });

  it('a weaker state is not probed once a stronger one is found (a flow of 10,000 syncs with errors asks no stuck test)', () => {
    const { asked, probes: p } = probes();
    const rows: Row[] = Array.from({ length: 10_000 }, (_, i) => ({ errors: i === 5, stuck: true }));
    assert.equal(groupMarks(rows, p)?.words, '1 with errors');
    assert.deepEqual(asked, { errors: 10_000, stuck: 0, longer: 0 });
  });
});
