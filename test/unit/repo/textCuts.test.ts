import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listSources } = require(
  path.join(root, 'scripts', 'lib', 'sourceFiles.js'),
) as typeof import('../../../scripts/lib/sourceFiles');

/**
 * The cuts in src that are known not to cut service text (lists of items, ids, the extension's own paths): file, and
 * the text of the line around the cut. Text from the service is cut only by inert() or bounded() in
 * src/base/inert.ts, which mask the API key first; a new raw cut fails this test until it is one of those or listed
 * here with the reason it holds no service text.
 */
const NOT_SERVICE_TEXT: ReadonlyArray<[file: string, line: string]> = [
  ['src/history/historyService.ts', '.slice(0, MAX_WATCHES)'], // ids (numbers)
  ['src/json/vscode/jsonDocuments.ts', 'target.ids.slice(0, MAX_JSON_ITEMS)'], // ids
  ['src/json/vscode/jsonDocuments.ts', '.slice(0, MAX_JSON_ITEMS);'], // ids
  ['src/api/url.ts', 'path = path.slice(0, apiAt)'], // the URL the person set
  ['src/api/url.ts', '`${text.slice(0, 59)}…`'], // the URL the person set
  ['src/history/activity.ts', '.slice(0, Math.max(0, topN))'], // bands (a list)
  ['src/history/mergedRuns.ts', 'walk.built.slice(0, count)'], // runs (a list: the History view's first page)
  ['src/history/store.ts', 'value.slice(0, RAW_KEPT)'], // raw items (a list)
  ['src/history/store.ts', '.slice(0, 60);'], // a folder name from the origin, a file name from the window id (each after .replace(/[^…]+/g, '_'))
  ['src/activity/activityMessages.ts', 'm.violations.slice(0, 20)'], // a list, each item then inert()
  ['src/insights/insightsPage.ts', 'm.violations.slice(0, 20)'], // a list, each item then inert()
  ['src/timeline/timelineMessages.ts', 'm.violations.slice(0, 20)'], // a list, each item then inert()
  ['src/timeline/timelineData.ts', 'ranked.slice(0, MAX_LANES)'], // lanes (a list), each name then inert()
  ['src/timeline/timelineLayout.ts', 'all.slice(0, max)'], // run indexes (numbers)
  ['src/activity/activityMessages.ts', 'series.flows : []).slice(0, MAX_FLOWS)'], // a list
  ['src/status/statusSummary.ts', 'groups.slice(0, 10)'], // a list
  ['src/status/statusSummary.ts', 'stuck.slice(0, 10)'], // a list
  ['src/history/pins.ts', 'states.slice(0, 10)'], // a list, each name then escapeMarkdown()ed
  ['src/history/pins.ts', 'ids.slice(0, MAX_PINS * 4)'], // flow ids (numbers)
  ['src/history/pins.ts', 'scopes.slice(0, Math.max(0, scopes.length - MAX_PIN_SCOPES))'], // a list of scopes
  ['src/status/statusSummary.ts', 'withErrors.slice(0, ERRORS_NAMED)'], // a list, each name then escaped
  ['src/tools/toolInput.ts', 's?.trim().slice(0, MAX_FILTER)'], // the model's filter input, not service text
  ['src/tools/historyResult.ts', 'stuck.slice(0, input.limit)'], // a list
  ['src/tools/historyResult.ts', 'entries.slice(0, input.limit - shownStuck.length)'], // a list
  ['src/tools/listAnswer.ts', 'matching.slice(0, max)'], // a list
  ['src/tools/insightsResult.ts', 'sorted.slice(0, input.limit)'], // a list of flows
  ['src/tools/connectionsResult.ts', '.slice(0, MAX_TEAMS_LISTED)'], // a list, each name then quote()d with the key masked
  ['src/sharing/pollLease.ts', "context.slice(0, context.indexOf('|'))"], // the extension's own context string
  ['src/history/log.ts', 'toISOString().slice(0, 10)'], // a day of the extension's own clock
  ['src/export/export.ts', 'text.slice(0, 11)'], // an ISO time of the extension's own making
  ['src/export/export.ts', '.slice(0, 40)'], // a file name from the service's name in the settings, only [\w.-] left
  ['src/history/log.ts', ".replace(/[^A-Za-z0-9-]+/g, '_').slice(0, 40)"], // a file name from the window id
  ['src/keys/legacyKeys.ts', '.filter((o) => !decided.has(o)).slice(0, MAX_LEGACY_ORIGINS)'], // a list of origins
  ['src/services/legacyKeyState.ts', 'Object.keys(v).slice(0, MAX_LEGACY_ORIGINS)'], // a list of URLs (the keys)
  ['src/services/legacyKeyState.ts', 'historyFolders.slice(0, 4 * MAX_LEGACY_ORIGINS)'], // a list of folder names
  ['src/services/legacyKeyState.ts', '[...new Set(origins)].slice(0, MAX_LEGACY_ORIGINS)'], // a list of origins
  ['src/services/vscode/legacyKey.ts', 'targets.slice(0, 3)'], // a list of services, each name then inert()
  ['src/lists/levelPages.ts', 'rows.slice(0, shown)'], // a level's rows (a list), each drawn inert
];

/** A cut from the start: .slice(0, n), .substring(0, n), .substr(0, n). */
const CUT = /\.(?:slice|substring|substr)\(\s*0\s*,/g;

describe('every cut of service text masks the key first (inert or bounded)', () => {
  it('src has no cut from the start other than the listed ones (webview page scripts and the mock are apart)', () => {
    const unlisted: string[] = [];
    const used = new Set<number>();
    for (const file of listSources(path.join(root, 'src'))) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      if (rel.startsWith('src/webview/') || rel.startsWith('src/mock/') || rel === 'src/base/inert.ts') continue;
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!line.match(CUT) || /^\s*(\/\/|\*|\/\*)/.test(line)) return; // a comment line
        const known = NOT_SERVICE_TEXT.findIndex(([f, text]) => f === rel && line.includes(text));
        if (known >= 0) used.add(known);
        else unlisted.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(
      unlisted,
      [],
      'cut service text with inert(text, max, key) or bounded(text, max, key) (src/base/inert.ts), which mask the key before the cut; list a cut here only when it holds no service text',
    );
    assert.deepEqual(
      NOT_SERVICE_TEXT.filter((_, i) => !used.has(i)),
      [],
      'listed cuts that are gone: remove them from the list',
    );
  });
});
