import * as assert from 'node:assert/strict';
import { NotificationGate } from '../../../src/notifications/notificationGate';

describe('NotificationGate', () => {
  it('announces each kind once until everything recovered', () => {
    const gate = new NotificationGate();
    assert.equal(gate.shouldNotify('http'), true);
    assert.equal(gate.shouldNotify('http'), false);
    assert.equal(gate.shouldNotify('network'), true);
    gate.recovered();
    assert.equal(gate.shouldNotify('http'), true);
  });

  it('kinds are muted independently, and a recovery with nothing announced changes nothing', () => {
    const gate = new NotificationGate();
    gate.recovered();
    assert.deepEqual(
      ['timeout', 'http', 'timeout', 'http', 'rateLimited'].map((kind) => gate.shouldNotify(kind)),
      [true, true, false, false, true],
    );
    gate.recovered();
    assert.deepEqual(
      ['http', 'timeout', 'timeout'].map((kind) => gate.shouldNotify(kind)),
      [true, true, false],
    );
  });
});
