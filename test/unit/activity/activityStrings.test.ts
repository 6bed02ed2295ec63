import * as assert from 'node:assert/strict';
import { activityStrings } from '../../../src/activity/activityStrings';

describe('activity panel page (activityStrings)', () => {
  it('gives the page every word it shows, none empty', () => {
    const strings = activityStrings();
    const words = Object.values(strings).flatMap((v) => (typeof v === 'string' ? [v] : Object.values(v)));
    assert.equal(words.length, 15);
    for (const w of words) assert.ok(typeof w === 'string' && w.trim().length > 0);
    assert.deepEqual(Object.keys(strings.ranges), ['hour', 'day', 'week']);
    assert.deepEqual(Object.keys(strings.captions), ['hour', 'day', 'week']);
  });
});
