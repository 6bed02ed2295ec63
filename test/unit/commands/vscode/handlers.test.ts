/**
 * The command table's dispatcher (runCommand) in plain Node, with a stand-in for the `vscode` module: a command handed
 * anything that is not its argument does nothing but log one line. Its context records every part read: an ignored
 * argument reads the log alone (no handler ran: a handler's deps read the whole context), a row shaped like the views'
 * but not theirs reads the services and views to tell, then the log.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { COMMAND, type CommandId } from '../../../../src/base/commandIds';
import { NOW, sync } from '../../helpers/items';
import { ECHO_MARKS, HOSTILE } from '../hostileArguments';

// Compiled to out/test/unit/commands/vscode/: the repository root is five levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { fakeVscode, useVscode } = require(
  path.join(root, 'test', 'unit', 'helpers', 'vscodeStandIn.js'),
) as typeof import('../../helpers/vscodeStandIn');

type RunCommand = (id: CommandId, ctx: unknown, node?: unknown, nodes?: unknown) => Promise<void> | void;

/** A context that records what is read of it; the log's lines; the services shown and the rows the views own. */
function recordingContext(shown: readonly string[] = ['s']) {
  const read = new Set<string>();
  const lines: string[] = [];
  const record = <T extends object>(name: string, target: T): T =>
    new Proxy(target, {
      get: (t, key) => {
        read.add(`${name}${String(key)}`);
        return (t as Record<string | symbol, unknown>)[key];
      },
      ownKeys: (t) => {
        read.add(`${name}<every key>`);
        return Reflect.ownKeys(t);
      },
    });
  const log = {
    warn: (line: string) => lines.push(line),
    info: (line: string) => lines.push(line),
    error: (line: string) => lines.push(line),
  };
  const services = record('services.', {
    whenMade: async () => undefined,
    byId: (id: string) => (shown.includes(id) ? { id } : undefined),
  });
  const notOwned = { ownerOf: () => undefined };
  const views = record('views.', { processing: notOwned, connections: notOwned });
  const ctx = record('', {
    log,
    services,
    views,
    settings: {},
    json: {},
    historyView: {},
    find: {},
    browser: {},
    keys: {},
  });
  return { ctx, read, lines };
}

describe('runCommand: a command given anything but its argument does nothing but log one line (#49 finding 11)', () => {
  let runCommand: RunCommand;
  let stopUsing: () => void;

  before(() => {
    stopUsing = useVscode(fakeVscode(), 'vscode-stand-in-handlers');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the 'vscode' stand-in is in place
    runCommand = (require('../../../../src/commands/vscode/handlers') as { runCommand: RunCommand }).runCommand;
  });

  after(() => stopUsing());

  /** The commands that take an argument (src/commands/commandArgs.ts argumentOf; its test holds the same). */
  const taking: readonly CommandId[] = [
    COMMAND.openJson,
    COMMAND.copyId,
    COMMAND.copyLink,
    COMMAND.watch,
    COMMAND.unwatch,
    COMMAND.pinFlow,
    COMMAND.unpinFlow,
    COMMAND.openInBrowser,
    COMMAND.clearFilter,
    COMMAND.exportHistory,
  ];

  for (const id of taking) {
    it(`${id}: each hostile argument is a no-op that logs one line, never the argument's text`, async () => {
      for (const [what, value] of HOSTILE) {
        const { ctx, read, lines } = recordingContext();
        await assert.doesNotReject(async () => runCommand(id, ctx, value), `${what} threw`);
        assert.equal(lines.length, 1, `${what}: ${JSON.stringify(lines)}`);
        assert.ok(lines[0].startsWith(`${id}: `) && lines[0].length <= 160, lines[0]);
        for (const mark of ECHO_MARKS) assert.ok(!lines[0].includes(mark), `${what}: "${mark}" in ${lines[0]}`);
        assert.deepEqual([...read], ['log'], `${what}: only the log is read (no handler ran)`);
      }
    });
  }

  it("a row of the views' shape that no view shows (made elsewhere, or of a service not shown) is a no-op that logs one line", async () => {
    const forged: ReadonlyArray<readonly [string, unknown]> = [
      ['an item row no view handed out', { kind: 'leaf', list: 'processing', item: sync(1003, 7, 'Invoices') }],
      ['a History run of a service not shown', { kind: 'historyEntry', entry: { id: 5, flowId: 7 }, service: 'evil' }],
      [
        'a History day of a service not shown',
        { kind: 'historyDay', group: { key: NOW, label: 'x', entries: [] }, service: 'evil' },
      ],
    ];
    for (const id of [COMMAND.openInBrowser, COMMAND.openJson, COMMAND.copyId, COMMAND.pinFlow, COMMAND.watch]) {
      for (const [what, row] of forged) {
        const { ctx, read, lines } = recordingContext();
        await runCommand(id, ctx, row);
        assert.deepEqual(lines, [`${id}: ignored its argument, a row that no view shows.`], `${id}: ${what}`);
        for (const part of read) {
          assert.match(part, /^(log|services|views|services\.(whenMade|byId)|views\.(processing|connections))$/, what);
        }
      }
    }
  });
});
