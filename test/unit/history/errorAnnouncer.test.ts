import * as assert from 'node:assert/strict';
import type { FlowSync } from '../../../src/api/types';
import { ErrorAnnouncer, type ErrorsPoll } from '../../../src/history/errorAnnouncer';
import { GRACE_MS as ERRORS_GRACE_MS, QUIET_MS as ERRORS_QUIET_MS } from '../../../src/history/quietAnnouncer';
import type { NotifyMode } from '../../../src/settings/settingValues';
import { LONG_KEY, keyPiece } from '../helpers/keyPieces';

const SEC = 1000;
const sync = (id: number, errors: unknown = null, name = 'Invoices', flowId = 7): FlowSync => ({
  id,
  flow_id: flowId,
  status: 'pending',
  created_at: '',
  updated_at: '',
  errors,
  webhook: false,
  flow: { id: flowId, name },
});
const ERR = [{ message: 'E_TIMEOUT: upstream took too long' }];

/** An announcer on a fake clock (moved by hand, never slept), and one poll of it. */
function announcer(key?: string) {
  const clock = { now: 1_000_000 };
  const a = new ErrorAnnouncer(
    () => clock.now,
    () => key,
  );
  const poll = (processing: FlowSync[], more: Partial<ErrorsPoll> = {}) =>
    a.next({ processing, mode: 'all', watched: () => false, adopted: false, ...more });
  const text = (processing: FlowSync[], more: Partial<ErrorsPoll> = {}) => poll(processing, more)?.text;
  return { a, clock, poll, text };
}

describe('ErrorAnnouncer: a processing sync that reports errors is said once', () => {
  it('turned: a sync listed without errors, then with them, is said once, on the poll that saw it', () => {
    const { clock, text } = announcer();
    assert.equal(text([sync(1003)]), undefined);
    clock.now += 30 * SEC;
    assert.equal(text([sync(1003, ERR)]), 'Sync #1003 (Invoices) reports errors');
    clock.now += ERRORS_QUIET_MS;
    assert.equal(text([sync(1003, ERR)]), undefined, 'the same run on the next poll');
    assert.equal(text([sync(1003, [{ message: 'another' }])]), undefined, 'its errors changed: still the same run');
  });

  it('came with them: a sync first seen with errors is said; one without errors never', () => {
    const { text } = announcer();
    assert.equal(text([sync(1), sync(2, 'E_AUTH: token expired')]), 'Sync #2 (Invoices) reports errors');
  });

  it('the announcement carries its syncs, newest first (the buttons act on them)', () => {
    const { poll } = announcer();
    const said = poll([sync(5, ERR), sync(9, ERR, 'Payroll')]);
    assert.deepEqual(
      said?.syncs.map((s) => s.id),
      [9, 5],
    );
    assert.equal(said?.text, '2 syncs report errors');
  });

  it('once per service per quiet period: those meanwhile are said together when it ends, if still listed', () => {
    const { clock, text } = announcer();
    assert.equal(text([sync(1, ERR)], { service: 'Production' }), 'Production: Sync #1 (Invoices) reports errors');
    clock.now += 60 * SEC;
    assert.equal(text([sync(1, ERR), sync(2, ERR)], { service: 'Production' }), undefined, 'quiet');
    clock.now += 60 * SEC;
    assert.equal(text([sync(1, ERR), sync(2, ERR), sync(3, ERR), sync(4, ERR)]), undefined, 'quiet');
    clock.now += ERRORS_QUIET_MS; // sync 4 left meanwhile: not said (it is no longer processing)
    assert.equal(
      text([sync(1, ERR), sync(2, ERR), sync(3, ERR)], { service: 'Production' }),
      '2 syncs of Production report errors',
    );
    clock.now += ERRORS_QUIET_MS;
    assert.equal(text([sync(1, ERR), sync(2, ERR), sync(3, ERR)]), undefined, 'each said once');
  });

  it('off says nothing and remembers what it saw; watched says only watched syncs (or of a watched flow); all says every one', () => {
    const modes = (mode: NotifyMode) => {
      const { clock, poll } = announcer();
      const watched = (s: FlowSync) => s.id === 2 || s.flow_id === 8;
      const first = poll([sync(1, ERR), sync(2, ERR), sync(3, ERR, 'Payroll', 8)], { mode, watched });
      clock.now += ERRORS_QUIET_MS;
      // Turned on afterwards: what was seen while off is not news.
      const later = poll([sync(1, ERR), sync(2, ERR), sync(3, ERR, 'Payroll', 8)], { mode: 'all' });
      return { first: first?.syncs.map((s) => s.id), later: later?.syncs.map((s) => s.id) };
    };
    assert.deepEqual(modes('off'), { first: undefined, later: undefined });
    // watched: #1 was not said, it waits for its watch; "all" watches every sync, so it is said then (issue #52, 4)
    assert.deepEqual(modes('watched'), { first: [3, 2], later: [1] });
    assert.deepEqual(modes('all'), { first: [3, 2, 1], later: undefined });
  });

  it('watched: a sync that had errors before it was watched is said once it is watched (its flow too), once', () => {
    const { clock, poll } = announcer();
    const watchedIds = new Set<number>();
    const watchedFlows = new Set<number>();
    const more = {
      mode: 'watched' as const,
      watched: (s: FlowSync) => watchedIds.has(s.id) || watchedFlows.has(s.flow_id),
    };
    const listed = () => [sync(1, ERR), sync(2, ERR, 'Payroll', 8), sync(3)];
    const ids = (processing: FlowSync[]) => poll(processing, more)?.syncs.map((s) => s.id);
    assert.equal(ids(listed()), undefined, 'none watched');
    clock.now += ERRORS_QUIET_MS;
    assert.equal(ids(listed()), undefined, 'still none watched: nothing');
    watchedIds.add(1);
    clock.now += 30 * SEC;
    assert.deepEqual(ids(listed()), [1], 'watched now: said at the next answer');
    watchedFlows.add(8);
    clock.now += 30 * SEC;
    assert.equal(ids(listed()), undefined, 'its flow watched within the quiet period: held');
    clock.now += ERRORS_QUIET_MS;
    assert.deepEqual(ids(listed()), [2], 'said when the quiet period ends; #1 once');
    clock.now += ERRORS_QUIET_MS;
    assert.equal(ids(listed()), undefined, 'once');
    watchedIds.add(3);
    assert.equal(ids(listed()), undefined, 'a watched sync without errors: nothing');
  });

  it('watched: a sync waiting for its watch is dropped when notifications are turned off, and never said later', () => {
    const { clock, poll } = announcer();
    const watched = () => true;
    assert.equal(poll([sync(1, ERR)], { mode: 'watched', watched: () => false }), undefined);
    clock.now += SEC;
    assert.equal(poll([sync(1, ERR)], { mode: 'off', watched }), undefined);
    clock.now += ERRORS_QUIET_MS;
    assert.equal(poll([sync(1, ERR)], { mode: 'watched', watched }), undefined, 'seen while off: not news');
  });

  it('turned off while held: the held syncs are dropped, never said later', () => {
    const { clock, text } = announcer();
    assert.ok(text([sync(1, ERR)]));
    clock.now += SEC;
    assert.equal(text([sync(1, ERR), sync(2, ERR)]), undefined, 'quiet: #2 held');
    clock.now += ERRORS_QUIET_MS;
    assert.equal(text([sync(1, ERR), sync(2, ERR)], { mode: 'off' }), undefined);
    assert.equal(text([sync(1, ERR), sync(2, ERR)]), undefined);
  });

  it("another window's poll (adopted): remembered, said there; this window does not say it when it polls later", () => {
    const { clock, text } = announcer();
    assert.equal(text([sync(1, ERR)], { adopted: true }), undefined);
    clock.now += ERRORS_QUIET_MS;
    assert.equal(text([sync(1, ERR)]), undefined, 'this window took over the polling: not news');
    assert.equal(text([sync(1, ERR), sync(2, ERR)]), 'Sync #2 (Invoices) reports errors');
  });

  it('service text is never markup: flow and service names inert and bounded; an echoed key masked', () => {
    const { text } = announcer(LONG_KEY);
    const said = text([sync(9, ERR, `$(alert) [x](command:evil) ${'x'.repeat(500)}`)], {
      service: `$(zap) **Prod** ${LONG_KEY}`,
    })!;
    assert.ok(!said.includes('$(alert)') && !said.includes('$(zap)'), said);
    assert.ok(!said.includes('](command:'), said);
    assert.ok(said.length < 250, String(said.length));
    assert.equal(keyPiece(said, LONG_KEY), undefined, said);
  });

  it('memory stays bounded: a sync not seen with errors for the grace period is forgotten (a new run may say it)', () => {
    const { a, clock, text } = announcer();
    text(Array.from({ length: 1000 }, (_, i) => sync(i, ERR)));
    assert.equal(a.remembered, 1000);
    clock.now += ERRORS_GRACE_MS + SEC;
    assert.equal(text([sync(5000)]), undefined);
    assert.equal(a.remembered, 0);
  });
});
