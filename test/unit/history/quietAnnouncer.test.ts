import * as assert from 'node:assert/strict';
import { GRACE_MS, QUIET_MS, QuietAnnouncer } from '../../../src/history/quietAnnouncer';

const MIN = 60_000;
const run = (id: number) => ({ id });
const all = () => true;

describe('QuietAnnouncer: remember, hold, say after the quiet period, forget', () => {
  it('a run is new once: seen again within the grace period it is known, whatever the list did meanwhile', () => {
    const a = new QuietAnnouncer<{ id: number }>();
    assert.equal(a.see(1, 0), true, 'first seen: new');
    assert.equal(a.see(1, MIN), false);
    assert.equal(a.knows(1), true);
    a.forget(MIN + GRACE_MS);
    assert.equal(a.knows(1), true, 'last seen at 1 min: kept until the grace period after that');
    a.forget(MIN + GRACE_MS + 1);
    assert.equal(a.knows(1), false, 'forgotten');
    assert.equal(a.see(1, MIN + GRACE_MS + 2), true, 'and new again');
  });

  it('says what it holds at most once per quiet period, together, in the order held; only the runs listed now', () => {
    const a = new QuietAnnouncer<{ id: number }>();
    a.hold(run(1));
    assert.deepEqual(a.say(all, 0), [run(1)]);
    assert.equal(a.say(all, 0), undefined, 'nothing held');
    a.hold(run(3));
    a.hold(run(2));
    assert.equal(a.say(all, QUIET_MS - 1), undefined, 'quiet');
    assert.equal(a.isHeld(3), true);
    assert.deepEqual(
      a.say((id) => id === 2, QUIET_MS),
      [run(2)],
      'the one listed now; 3 stays held',
    );
    assert.equal(a.isHeld(3), true);
    assert.equal(a.say(all, QUIET_MS + 1), undefined, 'a new quiet period began when 2 was said');
    assert.deepEqual(a.say(all, 2 * QUIET_MS), [run(3)]);
  });

  it('nothing held and listed: nothing said, and the quiet period does not begin', () => {
    const a = new QuietAnnouncer<{ id: number }>();
    a.hold(run(1));
    assert.equal(
      a.say(() => false, 0),
      undefined,
    );
    a.hold(run(2));
    assert.deepEqual(a.say(all, 1), [run(1), run(2)], 'said at once: nothing was said before');
  });

  it('a forgotten run is no longer held; release drops and gives every held run', () => {
    const a = new QuietAnnouncer<{ id: number }>();
    a.see(1, 0);
    a.hold(run(1));
    a.see(2, GRACE_MS);
    a.hold(run(2));
    a.forget(GRACE_MS + 1);
    assert.equal(a.isHeld(1), false);
    assert.deepEqual(a.release(), [run(2)]);
    assert.equal(a.say(all, GRACE_MS + 2), undefined);
  });

  it('a clock that went back counts as now: nothing is forgotten for it', () => {
    const a = new QuietAnnouncer<{ id: number }>();
    a.see(1, 10 * GRACE_MS);
    a.forget(5 * GRACE_MS);
    assert.equal(a.knows(1), true);
  });

  it('memory is bounded: beyond 100,000 runs the oldest seen are forgotten first', () => {
    const a = new QuietAnnouncer<{ id: number }>();
    for (let id = 0; id < 100_005; id++) a.see(id, 0);
    a.see(0, 1); // seen again: now the newest
    a.forget(1);
    assert.equal(a.remembered, 100_000);
    assert.equal(a.knows(0), true);
    assert.equal(a.knows(1), false);
    assert.equal(a.knows(6), true);
  });
});
