import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Emitter } from '../../../src/base/events';
import {
  APPLICATION_SCOPED,
  readSnapshot,
  SettingsPart,
  userOnlySettings,
  type SettingsFeed,
  type SettingsReader,
} from '../../../src/settings/settingsFeed';

/** What VS Code's inspect() says of each key: its default (the manifest's, or another extension's), the user's value, a workspace's. */
function reader(values: Record<string, { defaultValue?: unknown; globalValue?: unknown; workspaceValue?: unknown }>) {
  const read: SettingsReader = {
    get: (key) => values[key]?.workspaceValue ?? values[key]?.globalValue ?? values[key]?.defaultValue,
    inspect: (key) => values[key],
  };
  return read;
}

describe("settings: the values only the user's own settings give", () => {
  it("userTeamId and userHistoryDays: the user's own values", () => {
    assert.deepEqual(
      userOnlySettings(
        reader({
          teamId: { defaultValue: '', globalValue: '42', workspaceValue: '7' },
          historyDays: { defaultValue: 7, globalValue: 30, workspaceValue: 1 },
        }),
      ),
      { userTeamId: '42', userHistoryDays: 30 },
    );
  });

  it("unset by the user: the manifest's defaults, never a workspace's value nor another extension's default", () => {
    // Another extension's configurationDefaults changes inspect().defaultValue: a team Add Service would write into
    // the user's flowsync.services, and a historyDays of 1 that would delete History from disk.
    const settings = userOnlySettings(
      reader({
        teamId: { defaultValue: '666', workspaceValue: '7' },
        historyDays: { defaultValue: 1, workspaceValue: 1 },
      }),
    );
    assert.deepEqual(settings, { userTeamId: '', userHistoryDays: 7 });
    assert.deepEqual(userOnlySettings(reader({})), { userTeamId: '', userHistoryDays: 7 });
  });
});

describe('settings: one snapshot from one read', () => {
  /** A reader like VS Code's configuration object that counts the costly inspect() calls. */
  function counting(
    values: Record<string, { defaultValue?: unknown; globalValue?: unknown; workspaceValue?: unknown }>,
  ) {
    const read = reader(values);
    const calls = { inspect: 0 };
    return {
      calls,
      read: {
        get: read.get,
        inspect: (key: Parameters<SettingsReader['inspect']>[0]) => (calls.inspect++, read.inspect(key)),
      } satisfies SettingsReader,
    };
  }

  it('reads the snapshot with get() only when nothing says where the key goes: no inspect() at the start', () => {
    const { read, calls } = counting({
      teamId: { defaultValue: '', globalValue: '42', workspaceValue: '7' },
      refreshIntervalSeconds: { defaultValue: 30, workspaceValue: 1 },
    });
    const snapshot = readSnapshot(read, () => ({}));
    assert.equal(calls.inspect, 0);
    assert.equal(snapshot.baseUrl, '');
    assert.equal(snapshot.allowHttp, false);
    assert.equal(snapshot.teamId, '7');
  });

  it('reads the settings that say where the key goes from the user: inspect() once for each that chooses something', () => {
    const { read, calls } = counting({
      baseUrl: { defaultValue: '', globalValue: 'https://flowsync.example' },
      allowHttp: { defaultValue: false, globalValue: true },
      teamId: { defaultValue: '', globalValue: '42', workspaceValue: '7' },
      refreshIntervalSeconds: { defaultValue: 30, workspaceValue: 1 },
    });
    const snapshot = readSnapshot(read, (r) => ({ services: r.get('services') ?? [] }));
    assert.equal(snapshot.baseUrl, 'https://flowsync.example');
    assert.equal(snapshot.allowHttp, true);
    assert.equal(snapshot.teamId, '7', 'the merged team (a workspace may filter)');
    assert.equal(snapshot.refreshIntervalSeconds, 5, 'clamped to its bounds');
    assert.deepEqual(snapshot.services, []);
    assert.ok(Object.isFrozen(snapshot));
    assert.equal(calls.inspect, 2, 'baseUrl and allowHttp (set), not services (empty: chooses nothing)');
  });

  it("another extension's defaults for baseUrl and allowHttp count for nothing: the user's value, else the manifest's", () => {
    // VS Code applies another extension's configurationDefaults at the start even to these application-scoped
    // settings (APPLICATION_SCOPED): get() then returns the attacker's URL although the user set nothing.
    const attacker = { baseUrl: { defaultValue: 'https://attacker.example' }, allowHttp: { defaultValue: true } };
    const unset = readSnapshot(reader(attacker), () => ({}));
    assert.equal(unset.baseUrl, '');
    assert.equal(unset.allowHttp, false);
    const mine = readSnapshot(
      reader({
        baseUrl: { ...attacker.baseUrl, globalValue: 'https://flowsync.example' },
        allowHttp: { ...attacker.allowHttp, globalValue: false },
      }),
      () => ({}),
    );
    assert.equal(mine.baseUrl, 'https://flowsync.example');
    assert.equal(mine.allowHttp, false);
  });

  it("reads the user's own team and historyDays when first asked, once per snapshot", () => {
    const { read, calls } = counting({
      teamId: { defaultValue: '666', globalValue: '42', workspaceValue: '7' },
      historyDays: { defaultValue: 1, workspaceValue: 1 },
    });
    const snapshot = readSnapshot(read, () => ({}));
    assert.equal(snapshot.userTeamId, '42');
    assert.equal(snapshot.userHistoryDays, 7, "the manifest's default, never another extension's nor a workspace's");
    assert.equal(snapshot.userTeamId, '42');
    assert.equal(calls.inspect, 2, 'teamId and historyDays, each once');
  });

  it('a section cannot replace a shared value', () => {
    const { read } = counting({ baseUrl: { globalValue: 'https://flowsync.example' } });
    // A section is a feature's own reader: one that returned a shared key must not change where the key goes.
    const snapshot = readSnapshot(read, () => ({ extra: 1, baseUrl: 'https://elsewhere.example' }));
    assert.equal(snapshot.extra, 1);
    assert.equal(snapshot.baseUrl, 'https://flowsync.example');
  });

  it('the settings that decide where the key goes are application-scoped in package.json (VS Code then reads no workspace value of them)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../../package.json'), 'utf8')) as {
      contributes: {
        configuration:
          | { properties: Record<string, { scope?: string }> }
          | Array<{ properties: Record<string, { scope?: string }> }>;
      };
    };
    const sections = [manifest.contributes.configuration].flat();
    const scopeOf = (key: string) =>
      sections.find((s) => s.properties[`flowsync.${key}`])?.properties[`flowsync.${key}`].scope;
    for (const key of APPLICATION_SCOPED) assert.equal(scopeOf(key), 'application', `flowsync.${key}`);
    // userOwnValue gives undefined for a key the user did not set: its callers' fallbacks are these defaults.
    const defaultOf = (key: string) =>
      (sections.find((s) => s.properties[`flowsync.${key}`])?.properties[`flowsync.${key}`] as { default?: unknown })
        .default;
    assert.deepEqual(
      APPLICATION_SCOPED.map((key) => defaultOf(key)),
      ['', false, [], {}],
      "the manifest's defaults choose nothing",
    );
  });
});

describe('SettingsPart: one part of the settings, compared once per change for every reader', () => {
  /** A settings feed a test changes, telling its listeners as the settings source does. */
  function feed(first: { pages: readonly string[]; other: number }) {
    const changes = new Emitter<typeof first>();
    const source = {
      current: first,
      onDidChange: changes.event,
      set(next: typeof first) {
        source.current = next;
        changes.fire(next);
      },
      get listeners() {
        return changes.listenerCount;
      },
    };
    return source satisfies SettingsFeed<typeof first>;
  }

  it('fires once per settings change that changed the part, with it; not for a change of anything else', () => {
    const settings = feed({ pages: ['a'], other: 1 });
    let compared = 0;
    const part = new SettingsPart(
      settings,
      (s) => s.pages,
      (pages) => (compared++, pages.join()),
    );
    const seen: (readonly string[])[][] = [[], []];
    part.onDidChange((pages) => seen[0].push(pages));
    part.onDidChange((pages) => seen[1].push(pages));
    assert.deepEqual(part.current, ['a']);
    compared = 0;
    settings.set({ pages: ['a'], other: 2 });
    settings.set({ pages: ['a', 'b'], other: 2 });
    settings.set({ pages: ['a', 'b'], other: 3 });
    assert.deepEqual(seen, [[['a', 'b']], [['a', 'b']]], 'each listener told once, of the one change of the part');
    assert.equal(compared, 3, 'compared once per settings change, however many listen');
    assert.deepEqual(part.current, ['a', 'b']);
    part.dispose();
    assert.equal(settings.listeners, 0, 'disposed: it no longer follows the settings');
    settings.set({ pages: [], other: 3 });
    assert.equal(seen[0].length, 1);
  });
});
