import * as assert from 'node:assert/strict';
import { writeExport, type ExportSink } from '../../../src/export/exportRun';
import {
  LEFTOVER_QUIET_MS,
  LEFTOVERS_STATE_KEY,
  rememberedLeftovers,
  rememberedSink,
  removeLeftovers,
  type Leftover,
} from '../../../src/export/leftovers';
import { makeEntry } from '../../../src/history/entry';
import { bounded } from '../../../src/base/inert';
import { FakeClock } from '../helpers/fakeClock';
import { NOW } from '../helpers/items';

const TEMP = 'file:///home/me/.runs.csv.0123456789abcdef0123456789abcdef.tmp';

/** globalState (one key) and a folder of files with their times, in memory. */
function world(clock: FakeClock) {
  const state = new Map<string, unknown>();
  const memory = {
    get: () => state.get(LEFTOVERS_STATE_KEY),
    update: async (value: readonly Leftover[]) => void state.set(LEFTOVERS_STATE_KEY, value),
  };
  const files = new Map<string, { text: string; mtime: number }>();
  const disk = {
    modifiedAt: async (where: string) => files.get(where)?.mtime,
    remove: async (where: string) => void files.delete(where),
  };
  /** A sink writing to `TEMP` (made when opened), renamed to `target` on commit. */
  const sink = (target: string): ExportSink => {
    files.set(TEMP, { text: '', mtime: clock.now() });
    return {
      write: async (text) => void files.set(TEMP, { text: files.get(TEMP)!.text + text, mtime: clock.now() }),
      commit: async () => {
        files.set(target, files.get(TEMP)!);
        files.delete(TEMP);
      },
      abort: async () => void files.delete(TEMP),
    };
  };
  return { state, memory, files, disk, sink };
}

const runs = Array.from({ length: 1_200 }, (_, i) =>
  makeEntry({
    id: i + 1,
    flowId: 7,
    flowName: 'Invoices',
    createdAt: new Date(NOW - 600_000).toISOString(),
    firstSeen: NOW - 540_000,
    lastSeen: NOW - 120_000,
    leftAt: NOW - 60_000,
    raw: undefined,
  }),
);

describe('Export History: a temporary file left by a killed export is removed at the next start', () => {
  it('the temporary file is remembered before it exists and forgotten at the commit', async () => {
    const clock = new FakeClock(NOW);
    const w = world(clock);
    let rememberedWhenOpened: Leftover[] = [];
    const outcome = await writeExport(
      () =>
        rememberedSink(w.memory, TEMP, clock.now(), async () => {
          rememberedWhenOpened = rememberedLeftovers(w.memory.get());
          return w.sink('file:///home/me/runs.csv');
        }),
      {
        format: 'csv',
        sources: [{ service: 'P', entries: runs }],
        mask: (t, m) => bounded(t, m),
        cancelled: () => false,
      },
    );
    assert.equal(outcome.kind, 'done');
    assert.deepEqual(rememberedWhenOpened, [{ where: TEMP, at: NOW }]);
    assert.deepEqual(rememberedLeftovers(w.memory.get()), []);
    assert.deepEqual([...w.files.keys()], ['file:///home/me/runs.csv']);
  });

  it('cancelled: forgotten too', async () => {
    const clock = new FakeClock(NOW);
    const w = world(clock);
    let asked = 0;
    await writeExport(() => rememberedSink(w.memory, TEMP, clock.now(), async () => w.sink('file:///t.csv')), {
      format: 'csv',
      sources: [{ service: 'P', entries: runs }],
      mask: (t, m) => bounded(t, m),
      cancelled: () => ++asked > 2,
    });
    assert.deepEqual(rememberedLeftovers(w.memory.get()), []);
    assert.equal(w.files.size, 0);
  });

  it('killed mid-export: the next start removes the file and forgets it (after a quiet minute: another window may be writing it)', async () => {
    const clock = new FakeClock(NOW);
    const w = world(clock);
    const sink = await rememberedSink(w.memory, TEMP, clock.now(), async () => w.sink('file:///t.csv'));
    await sink.write('service,flow_id\r\n'.repeat(1_000));
    // the extension host ends here: neither commit nor abort
    await clock.advance(5_000); // a reload
    assert.deepEqual(await removeLeftovers(w.memory, w.disk, clock.now()), { removed: 0, again: LEFTOVER_QUIET_MS });
    assert.ok(w.files.has(TEMP), 'written 5 s ago: perhaps another window, kept for now');
    await clock.advance(LEFTOVER_QUIET_MS);
    assert.deepEqual(await removeLeftovers(w.memory, w.disk, clock.now()), { removed: 1 });
    assert.equal(w.files.size, 0, 'the temporary file is gone');
    assert.deepEqual(rememberedLeftovers(w.memory.get()), []);
  });

  it('a file already gone is forgotten; only temporary names of ours are ever removed; the list is bounded', async () => {
    const clock = new FakeClock(NOW);
    const w = world(clock);
    w.state.set(LEFTOVERS_STATE_KEY, [
      { where: TEMP, at: NOW - 3_600_000 },
      { where: 'file:///home/me/thesis.docx', at: NOW - 3_600_000 },
      { where: 7, at: 1 },
      'x',
    ]);
    w.files.set('file:///home/me/thesis.docx', { text: 'mine', mtime: 0 });
    assert.deepEqual(await removeLeftovers(w.memory, w.disk, clock.now()), { removed: 0 });
    assert.ok(w.files.has('file:///home/me/thesis.docx'));
    assert.deepEqual(rememberedLeftovers(w.memory.get()), []);
    const many = Array.from({ length: 50 }, (_, i) => ({ where: TEMP.replace('0123', String(1000 + i)), at: NOW }));
    assert.equal(rememberedLeftovers(many).length, 20);
  });
});
