import * as assert from 'node:assert/strict';
import { COMMAND, type CommandId } from '../../../src/base/commandIds';
import { MAX_CHOSEN_ROWS, argumentOf, checkArguments } from '../../../src/commands/commandArgs';
import { makeEntry } from '../../../src/history/index';
import { NOW, conn, sync } from '../helpers/items';
import { ECHO_MARKS, HOSTILE } from './hostileArguments';

const run = makeEntry({
  id: 900_123,
  flowId: 7,
  flowName: 'Invoices',
  createdAt: new Date(NOW - 60_000).toISOString(),
  firstSeen: NOW - 60_000,
  lastSeen: NOW - 10_000,
  leftAt: NOW,
});
const leaf = { kind: 'leaf', list: 'processing', item: sync(1003, 7, 'Invoices'), parent: undefined };
const group = { kind: 'group', list: 'connections', group: { key: 3, label: 'Sales', items: [conn(5, 'Slack', 3)] } };
/** The rows of the views, as VS Code hands them back (a notification's run has only its ids). */
const ROWS: ReadonlyArray<readonly [what: string, row: unknown]> = [
  ['an item row', leaf],
  ['a group row', group],
  ['a History run', { kind: 'historyEntry', entry: run, service: 's' }],
  ["a notification's run", { kind: 'historyEntry', entry: { id: 900_123, flowId: 7 }, service: 's' }],
  ['a History day', { kind: 'historyDay', group: { key: NOW, label: 'Today', entries: [run] }, service: 's' }],
  ["History's service row", { kind: 'historyService', service: 's' }],
];

const byKind = (kind: string) => (Object.values(COMMAND) as CommandId[]).filter((id) => argumentOf(id) === kind);
const TAKING = (Object.values(COMMAND) as CommandId[]).filter((id) => argumentOf(id) !== 'none');

/** The one line a command logs for an argument it ignores: it names the command, never the argument's text. */
function assertIgnored(id: CommandId, value: unknown, what: string, nodes?: unknown) {
  const checked = checkArguments(id, value, nodes);
  assert.ok('ignored' in checked, `${id} ignores ${what}: ${JSON.stringify(Object.keys(checked))}`);
  const line = checked.ignored;
  assert.ok(line.startsWith(`${id}: `), line);
  assert.ok(!line.includes('\n'), 'one line');
  assert.ok(line.length <= 160, `bounded: ${line.length} characters`);
  for (const mark of ECHO_MARKS) assert.ok(!line.includes(mark), `${what}: "${mark}" echoed in ${line}`);
}

describe("commands' arguments: each checked for its shape before any handler runs (#49 finding 11)", () => {
  it('the commands that take an argument: the row commands, Clear Filter (a view) and Export History', () => {
    assert.deepEqual(byKind('rows').sort(), [
      COMMAND.copyAsMarkdown,
      COMMAND.copyId,
      COMMAND.copyLink,
      COMMAND.openInBrowser,
      COMMAND.openJson,
      COMMAND.pinFlow,
      COMMAND.unpinFlow,
      COMMAND.unwatch,
      COMMAND.watch,
    ]);
    assert.deepEqual(byKind('view'), [COMMAND.clearFilter]);
    assert.deepEqual(byKind('export'), [COMMAND.exportHistory]);
  });

  for (const id of TAKING) {
    it(`${id}: every hostile argument is ignored with one line that names the type only`, () => {
      for (const [what, value] of HOSTILE) assertIgnored(id, value, what);
    });
  }

  it('a row command ignores hostile selected rows beside a good row, and more rows than any view holds', () => {
    for (const id of byKind('rows')) {
      for (const [what, value] of HOSTILE) {
        if (Array.isArray(value) && value.length === 0) continue; // no rows selected: the row alone
        assertIgnored(id, leaf, `${what} as the selection`, Array.isArray(value) ? value : [leaf, value]);
      }
      assertIgnored(id, leaf, 'too many rows', new Array(MAX_CHOSEN_ROWS + 1).fill(leaf));
    }
  });

  it("a row command takes the views' rows as they are; a view's service or no-match row runs it as from the palette", () => {
    for (const id of byKind('rows')) {
      for (const [what, row] of ROWS) {
        assert.deepEqual(checkArguments(id, row, undefined), { node: row }, `${id}: ${what}`);
        assert.deepEqual(checkArguments(id, row, [row, leaf]), { node: row, nodes: [row, leaf] }, `${id}: ${what}`);
      }
      for (const other of [
        { kind: 'service', list: 'processing', service: 's' },
        { kind: 'noMatch', list: 'connections' },
        { kind: 'more', list: 'processing', cut: { level: 'root', shown: 1000, total: 2500 } },
      ]) {
        assert.deepEqual(checkArguments(id, other, undefined), {}, `${id}: ${other.kind}`);
        assert.deepEqual(checkArguments(id, leaf, [other, leaf]), { node: leaf, nodes: [leaf] });
      }
      assert.deepEqual(checkArguments(id, undefined, undefined), {}, 'the palette');
    }
  });

  it("Clear Filter takes a view's name only; Export History its object, whose bad field it logs (the command says which)", () => {
    for (const view of ['processing', 'connections', 'history']) {
      assert.deepEqual(checkArguments(COMMAND.clearFilter, view, undefined), { arg: view });
    }
    for (const [what, value] of [
      ['a view with a path', 'processing/../x'],
      ['a view in capitals', 'PROCESSING'],
      ['a view with spaces', ' history'],
      ['an object naming a view', { view: 'history' }],
      ['a row', leaf],
    ] as const) {
      assertIgnored(COMMAND.clearFilter, value, what);
    }
    const good = { uri: 'file:///tmp/a.csv', format: 'csv' };
    assert.deepEqual(checkArguments(COMMAND.exportHistory, good, undefined), { arg: good });
    const bad = { uri: 'file:///tmp/evil.csv', format: 'xlsx' };
    const checked = checkArguments(COMMAND.exportHistory, bad, undefined);
    assert.ok('log' in checked && checked.arg === bad, 'the command says what is wrong, and writes nothing');
    assert.equal(checked.log, `${COMMAND.exportHistory}: its argument's "format" cannot be used; nothing is written.`);
    assertIgnored(COMMAND.exportHistory, leaf, "a view's row");
  });

  it('a command that takes no argument is handed none, whatever it is given', () => {
    for (const id of byKind('none')) {
      for (const [, value] of HOSTILE) assert.deepEqual(checkArguments(id, value, [value]), {}, id);
    }
  });
});
