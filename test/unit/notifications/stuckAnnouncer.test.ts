import * as assert from 'node:assert/strict';
import { StuckAnnouncer } from '../../../src/notifications/stuckAnnouncer';
import { LONG_KEY, keyPiece } from '../helpers/keyPieces';

const sync = (id: number, name = 'Invoices') => ({ id, flow_id: 7, status: 'pending', created_at: '', updated_at: '', errors: null, webhook: false, flow: { id: 7, name } });

describe('StuckAnnouncer: a sync that becomes stuck is said once', () => {
  it('once per sync, nothing on a poll that changes nothing, several at once in one sentence', () => {
    const a = new StuckAnnouncer();
    assert.equal(a.next([]), undefined);
    assert.equal(a.next([sync(1)]), 'Sync #1 (Invoices) is stuck: it has been processing for longer than its flow allows.');
    assert.equal(a.next([sync(1)]), undefined, 'the same stuck sync on the next poll');
    assert.equal(a.next([sync(1), sync(2), sync(3)]), '2 syncs are now stuck: processing for longer than their flows allow.');
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
