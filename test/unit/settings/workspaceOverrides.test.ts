import * as assert from 'node:assert/strict';
import { MAX_SETTINGS_FILE_CHARS, settingsFileSets } from '../../../src/settings/workspaceOverrides';

const KEYS = ['baseUrl', 'allowHttp'];

describe('settingsFileSets (which user-only settings a workspace file tries to set)', () => {
  it('finds a dotted key and a nested object, in JSONC with comments and trailing commas', () => {
    assert.deepEqual(settingsFileSets('{ // c\n "flowsync.baseUrl": "https://x", }', 'flowsync', KEYS), ['baseUrl']);
    assert.deepEqual(
      settingsFileSets('{ "flowsync": { "allowHttp": true, /* x */ "baseUrl": "" } }', 'flowsync', KEYS),
      ['baseUrl', 'allowHttp'],
    );
  });

  it('in a .code-workspace file, finds them under "settings" (where VS Code reads a workspace file\'s settings) only', () => {
    const workspaceFile = (settings: string) =>
      `{ "folders": [{ "path": "a" }], "flowsync.allowHttp": true, "settings": ${settings} }`;
    assert.deepEqual(
      settingsFileSets(workspaceFile('{ "flowsync.baseUrl": "https://x" }'), 'flowsync', KEYS, 'settings'),
      ['baseUrl'],
    );
    assert.deepEqual(
      settingsFileSets(workspaceFile('{ "flowsync": { "allowHttp": true } }'), 'flowsync', KEYS, 'settings'),
      ['allowHttp'],
    );
    assert.deepEqual(settingsFileSets(workspaceFile('{}'), 'flowsync', KEYS, 'settings'), []);
    assert.deepEqual(
      settingsFileSets('{ "settings": { "flowsync.baseUrl": 1 } }', 'flowsync', KEYS),
      [],
      'a .vscode/settings.json has no "settings" level',
    );
  });

  it('is not fooled by text in strings or comments', () => {
    assert.deepEqual(
      settingsFileSets('{ "a": "\\"flowsync.baseUrl\\": 1" /* "flowsync.allowHttp": true */ }', 'flowsync', KEYS),
      [],
    );
    assert.deepEqual(settingsFileSets('{ "other": { "flowsync": { "baseUrl": 1 } } }', 'flowsync', KEYS), []);
    assert.deepEqual(settingsFileSets('not json at all', 'flowsync', KEYS), []);
  });

  it('costs linear time on a hostile 512 KB file (the regular expression it replaced took about 23 s per key)', function () {
    this.timeout(3000); // a failure here is a hang, not a slow machine: linear parsing of 512 KB takes milliseconds
    const hostile = `{${'"flowsync":{'.repeat(45_000)}`;
    assert.ok(hostile.length >= 512 * 1024);
    assert.deepEqual(settingsFileSets(hostile, 'flowsync', KEYS), []);
    assert.deepEqual(settingsFileSets(`{"flowsync":{${'"x":{},'.repeat(80_000)}"baseUrl":1}}`, 'flowsync', KEYS), [
      'baseUrl',
    ]);
  });

  it('does not read a file over the size bound', () => {
    const big = `{"flowsync.baseUrl": "x", "pad": "${'x'.repeat(MAX_SETTINGS_FILE_CHARS)}"}`;
    assert.equal(settingsFileSets(big, 'flowsync', KEYS), undefined);
  });
});
