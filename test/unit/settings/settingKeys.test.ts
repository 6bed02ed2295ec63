import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SETTING_KEYS, SETTINGS_SECTION } from '../../../src/settings/settingKeys';
import { ANY_LISTS } from '../../../src/lists';

// Compiled to out/test/unit/settings/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');

/** The keys package.json contributes (contributes.configuration, one object or a list of them). */
function manifestKeys(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    contributes: {
      configuration: { properties: Record<string, unknown> } | Array<{ properties: Record<string, unknown> }>;
    };
  };
  const sections = [manifest.contributes.configuration].flat();
  return sections.flatMap((section) => Object.keys(section.properties));
}

describe('settingKeys: the typed table of flowsync.* keys', () => {
  it('is exactly the keys package.json contributes, both ways, each once', () => {
    const table = SETTING_KEYS.map((key) => `${SETTINGS_SECTION}.${key}`);
    assert.equal(new Set(table).size, table.length, 'no key twice in the table');
    assert.deepEqual([...table].sort(), manifestKeys().sort());
  });

  it("holds each list's arrangement settings (the lists name theirs by a key of the table)", () => {
    for (const list of ANY_LISTS) {
      assert.ok(SETTING_KEYS.includes(list.arrangements.groupBySetting), list.arrangements.groupBySetting);
      assert.ok(SETTING_KEYS.includes(list.arrangements.sortBySetting), list.arrangements.sortBySetting);
    }
  });
});
