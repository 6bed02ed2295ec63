import * as assert from 'node:assert/strict';
import { HistoryWriteTrouble } from '../../../src/history/writeTrouble';

describe('HistoryWriteTrouble (History cannot be written: the person is told once)', () => {
  it('tells once, however often writing fails, and logs each failure; a write that works again ends the spell', () => {
    const told: string[] = [];
    const logged: string[] = [];
    const trouble = new HistoryWriteTrouble(
      (text) => told.push(text),
      (line) => logged.push(line),
    );
    assert.equal(trouble.unsaved, false);
    for (let i = 0; i < 5; i++) {
      trouble.failed(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    }
    assert.equal(told.length, 1, 'told once');
    assert.match(told[0], /History cannot be written/);
    assert.match(told[0], /ENOSPC/, 'says why, in a word');
    assert.equal(logged.length, 5, 'every failure logged');
    assert.equal(trouble.unsaved, true, 'runs wait: the next poll writes them');
    trouble.saved();
    assert.equal(trouble.unsaved, false);
    trouble.failed(new Error('EROFS'));
    assert.equal(told.length, 1, 'not again in this window');
  });

  it('what it tells is text, never markup, and bounded (an error message from the file system)', () => {
    const told: string[] = [];
    new HistoryWriteTrouble(
      (text) => told.push(text),
      () => undefined,
    ).failed(Object.assign(new Error(`[x](command:evil) ${'y'.repeat(10_000)}`), { code: '<b>EIO</b>' }));
    assert.ok(told[0].length < 400, `${told[0].length} characters`);
    assert.doesNotMatch(told[0], /command:evil|<b>/);
  });
});
