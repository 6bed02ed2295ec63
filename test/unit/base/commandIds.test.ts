import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PANEL_VIEW_TYPES } from '../../../src/base/commandIds';

// Compiled to out/test/unit/base/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

describe('the webview panels restored after a reload (PANEL_VIEW_TYPES)', () => {
  it('each has an onWebviewPanel activation event in package.json (VS Code activates the extension to restore it)', () => {
    const events = (JSON.parse(read('package.json')) as { activationEvents: string[] }).activationEvents;
    for (const viewType of Object.values(PANEL_VIEW_TYPES)) {
      assert.ok(events.includes(`onWebviewPanel:${viewType}`), `onWebviewPanel:${viewType} in ${events.join(', ')}`);
    }
    assert.deepEqual(
      events.filter((e) => e.startsWith('onWebviewPanel:')).sort(),
      Object.values(PANEL_VIEW_TYPES)
        .map((v) => `onWebviewPanel:${v}`)
        .sort(),
      'and no other',
    );
  });

  it('is the view type each panel opens with (a serializer of another type would restore nothing)', () => {
    assert.match(read('src/activity/vscode/activityPanel.ts'), /ACTIVITY_VIEW_TYPE = 'flowsync\.activity'/);
    assert.match(read('src/insights/vscode/insightsPanel.ts'), /INSIGHTS_VIEW_TYPE = 'flowsync\.insights'/);
    assert.match(read('src/timeline/vscode/timelinePanel.ts'), /TIMELINE_VIEW_TYPE = PANEL_VIEW_TYPES\.timeline/);
    assert.deepEqual(PANEL_VIEW_TYPES, {
      activity: 'flowsync.activity',
      insights: 'flowsync.insights',
      timeline: 'flowsync.timeline',
    });
  });
});
