// First UI tests: what a person sees when they run "Flow Sync: Show Log" from the command palette.
import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { waitFor } from './workbench.mjs';
import { runCommand } from './palette.mjs';
import { outputPanel, statusBarText } from './views.mjs';

describe('Flow Sync: Show Log', () => {
  it('runs from the command palette and shows the "Flow Sync" output channel', async () => {
    await runCommand('Flow Sync: Show Log');
    const output = await waitFor(
      async () => {
        const o = await outputPanel();
        // The first line says the extension activated; once other suites have used it, requests follow (and the
        // visible part of the channel may have scrolled past the first line).
        return o.channel === 'Flow Sync' && /activated|GET \/api\/public\/v1\//.test(o.text) ? o : undefined;
      },
      { timeout: 15000, message: 'the Output panel to show the "Flow Sync" channel with its "activated" line' },
    );
    assert.equal(output.channel, 'Flow Sync');
    assert.match(output.text, /\[info\] (Flow Sync Explorer.* activated|GET \/api\/public\/v1\/\S+ → \d{3})/);
  });

  it('leaves the workbench usable (status bar shown)', async () => {
    const text = await statusBarText();
    assert.ok(text.length > 0, 'status bar is empty');
  });
});
