import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listSources, stripComments } = require(
  path.join(root, 'scripts', 'lib', 'sourceFiles.js'),
) as typeof import('../../../scripts/lib/sourceFiles');

/** The one file that makes a quick pick of loaded rows: pickRow, over src/filter/pickRows.ts (bounded steps). */
const THE_HELPER = 'src/filter/vscode/rowPick.ts';

/**
 * The quick picks that are not of loaded rows: a few fixed choices, each bounded by what it offers, not by what the
 * service sent. File, how many quick picks it makes, and why each is small. Every other pick goes through pickRow.
 */
const FIXED_PICKS: ReadonlyArray<readonly [file: string, picks: number, why: string]> = [
  ['src/find/vscode/findCommands.ts', 1, 'pickView: the three filterable views (FILTER_VIEWS)'],
  ['src/lists/vscode/arrangeCommands.ts', 1, "a list's groupings and sortings, as its definition declares them"],
  ['src/services/vscode/pickService.ts', 1, 'the services of the settings (at most MAX_SERVICES, 20)'],
  [
    'src/export/vscode/exportCommand.ts',
    2,
    'the two formats; the services (at most MAX_SERVICES, 20) and "All services"',
  ],
  [
    'src/lists/vscode/teamFilterCommand.ts',
    1,
    'the team directory: at most MAX_TEAMS (1,000) teams, kept by src/lists/teams.ts, and "All teams"',
  ],
];

/** A quick pick made through the API: any mention of either (a call, a reference handed on, a destructured name). */
const QUICK_PICK = /\b(?:showQuickPick|createQuickPick)\b/g;

describe('every quick pick of loaded rows goes through pickRow (src/filter/vscode/rowPick.ts)', () => {
  it('src makes quick picks only in the helper and in the listed fixed picks, as many as listed', () => {
    const found = new Map<string, number>();
    for (const file of listSources(path.join(root, 'src'))) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      const count = stripComments(fs.readFileSync(file, 'utf8')).match(QUICK_PICK)?.length ?? 0;
      if (count > 0) found.set(rel, count);
    }
    assert.deepEqual(
      found.get(THE_HELPER),
      1,
      `${THE_HELPER} makes the quick pick of loaded rows (createQuickPick, once)`,
    );
    found.delete(THE_HELPER);
    const listed = new Map(FIXED_PICKS.map(([file, picks]) => [file, picks]));
    assert.deepEqual(
      Object.fromEntries(found),
      Object.fromEntries(listed),
      'a pick of loaded rows (a list, History, anything the service sent) goes through pickRow ' +
        '(src/filter/vscode/rowPick.ts), which shows the first rows and finds the rest a bounded step at a time; list a ' +
        'pick in FIXED_PICKS only when its choices are few and fixed, with why',
    );
  });

  it('the helper itself uses the bounded core: it shows what PickRows steps find, and never a whole list', () => {
    const helper = stripComments(fs.readFileSync(path.join(root, THE_HELPER), 'utf8'));
    assert.match(helper, /\.step\(\)/, 'the rows come from PickSearch.step()');
    assert.doesNotMatch(helper, /showQuickPick/, 'not showQuickPick: it takes every row at once');
  });
});
