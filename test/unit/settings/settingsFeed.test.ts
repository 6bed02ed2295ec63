import * as assert from 'node:assert/strict';
import { userOnlySettings, type SettingsReader } from '../../../src/settings/settingsFeed';

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
