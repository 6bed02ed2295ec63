import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listSources, stripComments } = require(
  path.join(root, 'scripts', 'lib', 'sourceFiles.js'),
) as typeof import('../../../scripts/lib/sourceFiles');

/**
 * The one reader of VS Code's `TreeView.selection`: SelectedRows, which keeps the rows selected while a refreshed view
 * is read again (each view makes one of its own: `ListView.selection`, `HistoryView.selection`).
 */
const READERS = ['src/base/selectedRows.ts'];

/**
 * A read of a tree view's own selection: `.selection` or `['selection']` of a `view`, `treeView` or `tree` (a variable
 * or a field: `historyView.view`), or `selection` taken apart from one (`{ selection } = view`). The views' own
 * `selection` (`historyView.selection`, a ListView's) is what to read.
 */
const VIEW_SELECTION =
  /(?<![\w$])(?:view|treeView|tree)\??(?:\.selection\b|\.?\[['"]selection['"]\])|\{[^}]*\bselection\b[^}]*\}\s*=\s*(?:[\w$.]*\.)?(?:view|treeView|tree)\b/g;

describe('commands read the selection as the person sees it (src/base/selectedRows.ts)', () => {
  it('only SelectedRows reads TreeView.selection, once', () => {
    const found: Record<string, number> = {};
    for (const file of listSources(path.join(root, 'src'))) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      const count = stripComments(fs.readFileSync(file, 'utf8')).match(VIEW_SELECTION)?.length ?? 0;
      if (count > 0) found[rel] = count;
    }
    assert.deepEqual(
      found,
      Object.fromEntries(READERS.map((file) => [file, 1])),
      'read `selection` of ListView or HistoryView (SelectedRows): `view.selection` lacks rows still selected on the screen while a ' +
        'refreshed view is read again (a command from the palette then asks, or acts on nothing)',
    );
  });
});
