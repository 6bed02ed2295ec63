#!/usr/bin/env node
// The Processing tree at its caps, drawn in the real workbench (issue #52, item 9): VS Code 1.139 (code-server) and
// headless Chromium from test/rig, the production VSIX, a fresh window (profile) a run. The mock answers 10,000 and then
// 50,000 processing syncs, shown in one level (flowsync.processing.groupBy "none"). Three figures a run, as a person
// waits: from Enter on the key (Set API Key...) to the first sync rows drawn in the Processing view, from End pressed in
// the view to its last row drawn (a level shows 1,000 rows and its "Show more" row: src/lists/levelPages.ts), and from
// Enter on that row to its next page drawn, the focus on its first new row.
//
//   node bench/treeDrawn.mjs [--runs 3] [--sizes 10000,50000]     (E2E_NO_BUILD=1: use dist/ as built)
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DEMO_API_KEY, openOwnWindow, page, startSession, stopSession, waitFor } from '../test/e2e/workbench.mjs';
import { runCommandByKeyboard, typeAndEnter } from '../test/e2e/palette.mjs';
import { REPO_ROOT, emitRows, progress, row } from './lib/common.mjs';

const { values: opts } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, sizes: { type: 'string', default: '10000,50000' } },
});
const say = (m) => progress('treeDrawn', m);
const runs = Math.max(1, Number(opts.runs));
const sizes = opts.sizes.split(',').map(Number);
const { MockFlowSyncServer } = createRequire(import.meta.url)(path.join(REPO_ROOT, 'out', 'src', 'mock', 'server.js'));

/**
 * The Processing view's rows drawn in the side bar, its syncs' and its "Show more" row: their indexes in the list, how
 * many rows the list has (aria-setsize), and the focused row's index.
 */
async function drawn() {
  return page()
    .locator('.part.sidebar .monaco-list-row')
    .evaluateAll((rows) => {
      const ours = rows.filter((r) =>
        /^(#\d+|Show [\d,]+ more \(.*\))$/.test(r.querySelector('.label-name')?.textContent?.trim() ?? ''),
      );
      const focused = ours.find((r) => r.classList.contains('focused'));
      return {
        indexes: ours.map((r) => Number(r.getAttribute('data-index'))),
        total: Math.max(0, ...ours.map((r) => Number(r.getAttribute('aria-setsize') ?? 0))),
        focused: focused ? Number(focused.getAttribute('data-index')) : undefined,
      };
    });
}

async function oneRun(size, mockUrl, run) {
  const window = await openOwnWindow(`tree-${size}-${run}`, {
    settings: { 'flowsync.baseUrl': mockUrl, 'flowsync.processing.groupBy': 'none', 'flowsync.autoRefresh': false },
  });
  try {
    await runCommandByKeyboard('Flow Sync: Focus on Processing View');
    await runCommandByKeyboard('Flow Sync: Set API Key...', { opensInput: true });
    const t0 = performance.now();
    await typeAndEnter(DEMO_API_KEY);
    await waitFor(async () => (await drawn()).indexes.length > 0, {
      timeout: 120000,
      interval: 10,
      message: 'first rows',
    });
    const firstRows = performance.now() - t0;
    await page().locator('.part.sidebar .monaco-list-row').filter({ hasText: /^#\d+/ }).first().click();
    const t1 = performance.now();
    await page().keyboard.press('End');
    let total = 0;
    await waitFor(
      async () => {
        const now = await drawn();
        total = now.total;
        return now.indexes.includes(now.total - 1);
      },
      { timeout: 120000, interval: 10, message: 'the last row' },
    );
    const toEnd = performance.now() - t1;
    // Enter on the last row, "Show more" (a level of more than 1,000): the next page drawn, the focus on its first new row
    const before = total;
    let nextPage;
    if (before > 1_000) {
      const t2 = performance.now();
      await page().keyboard.press('Enter');
      await waitFor(
        async () => {
          const now = await drawn();
          return now.total > before && now.focused === before - 1 && now.indexes.includes(before - 1);
        },
        { timeout: 120000, interval: 10, message: 'the next page' },
      );
      nextPage = performance.now() - t2;
    }
    say(
      `about ${size} asked, ${total} rows, run ${run + 1}/${runs}: first rows ${firstRows.toFixed(0)} ms, End to the last row ${toEnd.toFixed(0)} ms, Show more to the next page ${nextPage?.toFixed(0) ?? '-'} ms`,
    );
    return { firstRows, toEnd, nextPage };
  } finally {
    await window.close();
  }
}

await startSession({ window: false });
const rows = [];
try {
  for (const size of sizes) {
    const mock = await MockFlowSyncServer.start({ port: 0, processing: size, now: () => Date.UTC(2026, 10, 29, 12) });
    try {
      const samples = [];
      for (let run = 0; run < runs; run++) samples.push(await oneRun(size, mock.url, run));
      const note = `VS Code 1.139 (code-server), headless Chromium, a fresh profile a run; one level (groupBy none)`;
      rows.push(
        row(
          'treeDrawn',
          `${size.toLocaleString('en-US')} syncs: key entered to the first rows drawn`,
          'ms',
          samples.map((s) => s.firstRows),
          {
            target: { max: 1000, text: '≤ 1,000 ms' },
            note,
          },
        ),
        row(
          'treeDrawn',
          `${size.toLocaleString('en-US')} syncs: End to the last row drawn`,
          'ms',
          samples.map((s) => s.toEnd),
          {
            target: { max: 1000, text: '≤ 1,000 ms' },
            note,
          },
        ),
      );
      if (samples.every((s) => s.nextPage !== undefined)) {
        rows.push(
          row(
            'treeDrawn',
            `${size.toLocaleString('en-US')} syncs: Enter on "Show more" to the next page drawn`,
            'ms',
            samples.map((s) => s.nextPage),
            {
              target: { max: 1000, text: '≤ 1,000 ms' },
              note,
            },
          ),
        );
      }
    } finally {
      await mock.close();
    }
  }
} finally {
  await stopSession();
}
emitRows(rows);
