import * as assert from 'node:assert/strict';
import { GRACE_MS as STUCK_GRACE_MS, QUIET_MS as STUCK_QUIET_MS } from '../../../src/history/quietAnnouncer';
import { StuckAnnouncer } from '../../../src/history/stuckAnnouncer';
import { LONG_KEY, keyPiece } from '../helpers/keyPieces';

const sync = (id: number, name = 'Invoices') => ({
  id,
  flow_id: 7,
  status: 'pending',
  created_at: '',
  updated_at: '',
  errors: null,
  webhook: false,
  flow: { id: 7, name },
});

describe('StuckAnnouncer: a sync that becomes stuck is said once', () => {
  it('once per sync, nothing on a poll that changes nothing, several at once in one sentence', () => {
    // A poll every quiet period, so the rate limit (tested below) does not hold anything back here.
    let now = 0;
    const a = new StuckAnnouncer(undefined, () => (now += STUCK_QUIET_MS));
    assert.equal(a.next([]), undefined);
    assert.equal(
      a.next([sync(1)]),
      'Sync #1 (Invoices) is stuck: it has been processing for longer than its flow allows.',
    );
    assert.deepEqual(a.saidOne, { id: 1, flowId: 7 }, 'the one sync named (its Open in Browser)');
    assert.equal(a.next([sync(1)]), undefined, 'the same stuck sync on the next poll');
    assert.equal(
      a.next([sync(1), sync(2), sync(3)]),
      '2 syncs are now stuck: processing for longer than their flows allow.',
    );
    assert.equal(a.saidOne, undefined, 'several named: none alone');
    assert.equal(a.next([sync(2), sync(3)]), undefined, 'one left');
    assert.equal(a.next([]), undefined);
  });

  it('the flow name is inert and bounded', () => {
    const text = new StuckAnnouncer().next([sync(9, `$(alert) ${'x'.repeat(500)}`)])!;
    assert.ok(!text.includes('$(alert)'), text);
    assert.ok(text.length < 250, String(text.length));
  });

  it('an API key echoed in the flow name: masked before the name is cut, so no piece of it is said', () => {
    for (const at of [60, 70, 75, 79]) {
      const text = new StuckAnnouncer(() => LONG_KEY).next([sync(9, `${'x'.repeat(at)}${LONG_KEY} tail`)])!;
      assert.equal(keyPiece(text, LONG_KEY), undefined, `key at ${at}: ${text}`);
    }
    const whole = new StuckAnnouncer(() => LONG_KEY).next([sync(9, `Invoices ${LONG_KEY.toUpperCase()}`)])!;
    assert.match(whole, /Invoices •••/);
  });
});

describe('StuckAnnouncer: a flapping list, many stuck syncs (issue #28 item 13)', () => {
  const MINUTE = 60_000;

  it('a sync that drops out of the list for a poll and comes back is not announced again', () => {
    let now = 0;
    const a = new StuckAnnouncer(undefined, () => now);
    assert.match(a.next([sync(1)])!, /Sync #1/);
    for (let poll = 0; poll < 120; poll++) {
      now += 30_000;
      assert.equal(a.next(poll % 2 ? [sync(1)] : []), undefined, `poll ${poll}: the list flapped`);
    }
  });

  it('300 stuck syncs on a list that flaps every poll for an hour: announced once, not 360 times', () => {
    let now = 0;
    const a = new StuckAnnouncer(undefined, () => now);
    const all = Array.from({ length: 300 }, (_, i) => sync(1000 + i));
    let said = 0;
    for (let poll = 0; poll < 360; poll++) {
      // After the first, each poll's list misses a different tenth of them.
      const shown = poll === 0 ? all : all.filter((_, i) => i % 10 !== poll % 10);
      if (a.next(shown)) said++;
      now += 10_000;
    }
    assert.equal(said, 1);
  });

  it('is forgotten only a grace period after it was last seen (memory stays bounded)', () => {
    let now = 0;
    const a = new StuckAnnouncer(undefined, () => now);
    assert.ok(a.next([sync(1)]));
    now += STUCK_GRACE_MS - MINUTE;
    assert.equal(a.next([]), undefined);
    assert.equal(a.next([sync(1)]), undefined, 'seen again within the grace period');
    now += STUCK_GRACE_MS + 1;
    assert.equal(a.next([]), undefined);
    assert.equal(a.remembered, 0, 'forgotten after the grace period');
  });

  it('rate limited per service: newly stuck syncs within the quiet period are said together after it', () => {
    let now = 0;
    const a = new StuckAnnouncer(undefined, () => now);
    assert.match(a.next([sync(1)])!, /Sync #1/);
    now += MINUTE;
    assert.equal(a.next([sync(1), sync(2)]), undefined, 'within the quiet period');
    now += MINUTE;
    assert.equal(a.next([sync(1), sync(2), sync(3)]), undefined);
    now = STUCK_QUIET_MS;
    assert.equal(
      a.next([sync(1), sync(2), sync(3)]),
      '2 syncs are now stuck: processing for longer than their flows allow.',
    );
    now += MINUTE;
    // One held back that is no longer stuck when the quiet period ends is not said.
    assert.equal(a.next([sync(1), sync(2), sync(3), sync(4)]), undefined);
    now += STUCK_QUIET_MS;
    assert.equal(a.next([sync(1), sync(2), sync(3)]), undefined, 'sync 4 left before it could be said');
    assert.match(a.next([sync(1), sync(2), sync(3), sync(5)])!, /Sync #5/);
  });

  it('at most one announcement per quiet period over an hour of new stuck syncs', () => {
    let now = 0;
    const a = new StuckAnnouncer(undefined, () => now);
    const stuck: ReturnType<typeof sync>[] = [];
    let said = 0;
    for (let poll = 0; poll < 360; poll++) {
      stuck.push(sync(poll));
      if (a.next(stuck)) said++;
      now += 10_000;
    }
    assert.ok(said <= Math.ceil(3_600_000 / STUCK_QUIET_MS), String(said));
    assert.ok(said >= 2, String(said));
  });
});

describe('StuckAnnouncer: held during the quiet period', () => {
  it('a sync held back, dropped by the list for a poll, is still said when it is listed again', () => {
    let now = 0;
    const a = new StuckAnnouncer(undefined, () => now);
    assert.ok(a.next([sync(1)]));
    now += 60_000;
    assert.equal(a.next([sync(1), sync(2)]), undefined, 'quiet');
    now = STUCK_QUIET_MS;
    assert.equal(a.next([sync(1)]), undefined, 'sync 2 is not listed on this poll');
    now += 10_000;
    assert.match(a.next([sync(1), sync(2)])!, /Sync #2/);
    assert.equal(a.next([sync(1), sync(2)]), undefined);
  });

  it('a clock that goes back neither repeats an announcement nor forgets early', () => {
    let now = 10 * STUCK_GRACE_MS;
    const a = new StuckAnnouncer(undefined, () => now);
    assert.ok(a.next([sync(1)]));
    now -= 5 * STUCK_GRACE_MS;
    assert.equal(a.next([sync(1)]), undefined);
    assert.equal(a.remembered, 1);
  });
});
