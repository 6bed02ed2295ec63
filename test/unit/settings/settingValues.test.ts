import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SETTING_BOUNDS, normalizeSettings, notifyMode } from '../../../src/settings/settingValues';
import { MAX_TIMER_MS } from '../../../src/base/clock';
import { UNFOCUSED_SLOWDOWN } from '../../../src/lists/explorer';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8'));
const properties: Record<string, { type: string; minimum?: number; maximum?: number; default: unknown }> =
  manifest.contributes.configuration.properties;

describe('setting values (a workspace may set some of them)', () => {
  it('every numeric setting has a maximum in package.json, and the same bounds are applied where it is read', () => {
    const numeric = Object.entries(properties).filter(([, p]) => p.type === 'number' || p.type === 'integer');
    assert.ok(numeric.length >= 2);
    for (const [id, p] of numeric) {
      const key = id.replace(/^flowsync\./, '');
      assert.equal(typeof p.maximum, 'number', `${id} has no maximum`);
      assert.deepEqual(
        [p.minimum, p.maximum, p.default],
        [SETTING_BOUNDS[key]?.min, SETTING_BOUNDS[key]?.max, SETTING_BOUNDS[key]?.fallback],
        id,
      );
    }
  });

  it('clamps numbers from outside, so no timer delay can overflow', () => {
    const s = normalizeSettings({ refreshIntervalSeconds: 3_000_000, requestTimeoutSeconds: 1e12 });
    assert.equal(s.refreshIntervalSeconds, SETTING_BOUNDS.refreshIntervalSeconds.max);
    assert.equal(s.requestTimeoutSeconds, SETTING_BOUNDS.requestTimeoutSeconds.max);
    assert.ok(s.refreshIntervalSeconds * 1000 * UNFOCUSED_SLOWDOWN <= MAX_TIMER_MS, 'the unfocused poll fits a timer');
    assert.equal(normalizeSettings({ refreshIntervalSeconds: 1 }).refreshIntervalSeconds, 5);
    for (const bad of [Number.NaN, Infinity, -Infinity, '30', null, {}]) {
      assert.equal(normalizeSettings({ refreshIntervalSeconds: bad }).refreshIntervalSeconds, 30, String(bad));
    }
  });

  it('accepts a team id of digits only; anything else is refused with a reason and no filter applies', () => {
    assert.equal(normalizeSettings({ teamId: ' 42 ' }).teamId, '42');
    assert.equal(normalizeSettings({ teamId: ' 0042 ' }).teamId, '42', 'compared as a number: leading zeros removed');
    assert.equal(normalizeSettings({ teamId: '000' }).teamId, '0');
    assert.equal(normalizeSettings({ teamId: 42 }).teamId, '42');
    assert.equal(normalizeSettings({ teamId: '' }).teamIdProblem, undefined);
    for (const bad of ['\uD800', '4 2', '1e3', '-1', '١٢', '12345678901234567890123', 'abc', 4.5]) {
      const s = normalizeSettings({ teamId: bad });
      assert.equal(s.teamId, '', JSON.stringify(bad));
      assert.match(s.teamIdProblem ?? '', /digits/, JSON.stringify(bad));
    }
  });

  it('the notify mode: unknown values fall back to "watched"', () => {
    assert.deepEqual(['off', 'watched', 'all', 'loud', undefined, 3].map(notifyMode), [
      'off',
      'watched',
      'all',
      'watched',
      'watched',
      'watched',
    ]);
  });
});
