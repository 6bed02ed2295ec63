import * as assert from 'node:assert/strict';
import type { FlowSync } from '../../../src/api/types';
import { ErrorAnnouncer, runOf, type ErrorsPoll } from '../../../src/history/errorAnnouncer';
import { GRACE_MS as ERRORS_GRACE_MS, QUIET_MS as ERRORS_QUIET_MS } from '../../../src/history/quietAnnouncer';
import { AnnouncedRuns, MAX_FILE_BYTES, MAX_MARKS, REMARK_MS } from '../../../src/notifications/announcedRuns';
import { MemoryFiles } from '../helpers/memoryFiles';
import { LONG_KEY, keyPiece } from '../helpers/keyPieces';

/*
 * Errors said once per run across reloads and windows (issue #49, #7): the announcer with its memory on disk, each
 * "window" a new announcer and memory (a reload of VS Code makes both anew, with a new window id) over the same files
 * (the profile's global storage), on a fake clock.
 */

const SEC = 1000;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 22, 12);
const FOLDER = 'flowsync.example.com-0000abcd';
const ERR = [{ message: 'E_TIMEOUT: upstream took too long' }];

const sync = (id: number, errors: unknown = ERR, createdAt = `2026-11-22T10:00:${String(id % 60).padStart(2, '0')}Z`) =>
  ({
    id,
    flow_id: 7,
    status: 'pending',
    created_at: createdAt,
    updated_at: '',
    errors,
    webhook: false,
    flow: { id: 7, name: 'Invoices' },
  }) as FlowSync;
const many = (n: number, from = 5000) => Array.from({ length: n }, (_, i) => sync(from + i));

/** The windows of one profile: one clock, one global storage. */
function profile({ append = true, days = 7 } = {}) {
  const clock = { now: NOW };
  const files = new MemoryFiles(() => clock.now, { append });
  const logs: string[] = [];
  let windows = 0;
  /** A window (or the one after a reload): its own announcer and memory over the profile's files. */
  const window = (key?: string) => {
    const memory = new AnnouncedRuns({
      files,
      folder: FOLDER,
      windowId: `window-${++windows}`,
      now: () => clock.now,
      days: () => days,
      secret: (record) => key !== undefined && keyPiece(record, key) !== undefined,
      log: (line) => logs.push(line),
    });
    const announcer = new ErrorAnnouncer(
      () => clock.now,
      () => key,
    );
    /** One answer, as the adapter takes it; resolves once what it marked is written. */
    const poll = async (processing: FlowSync[], more: Partial<ErrorsPoll> = {}) => {
      const said = await announcer.nextWithMemory({
        processing,
        mode: 'all',
        watched: () => false,
        adopted: false,
        memory,
        ...more,
      });
      await memory.flushed();
      return said;
    };
    /** How many syncs one answer says. */
    const says = async (processing: FlowSync[], more: Partial<ErrorsPoll> = {}) =>
      (await poll(processing, more))?.syncs.length ?? 0;
    return { memory, announcer, poll, says };
  };
  return { clock, files, logs, window };
}

describe('Errors said once per run across reloads and windows (issue #49, #7)', () => {
  it('first start says 300; a reload (a new announcer over the same files, the same answer) says nothing', async () => {
    const p = profile();
    const processing = many(300);
    assert.equal(await p.window().says(processing), 300);
    p.clock.now += 20 * SEC; // the window reloads
    const reloaded = p.window();
    assert.equal(await reloaded.says(processing), 0, 'the same runs, still processing with errors');
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await reloaded.says(processing), 0);
    p.clock.now += 2 * DAY; // a restart two days later: the runs are still processing with errors
    assert.equal(await p.window().says(processing), 0);
  });

  it('a second window over the same files says nothing of what the first said (its first load was its own)', async () => {
    const p = profile();
    const first = p.window();
    const second = p.window();
    assert.equal(await first.says(many(300)), 300);
    p.clock.now += 5 * SEC;
    assert.equal(await second.says(many(300)), 0, 'the first window said them');
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await first.says(many(300)), 0);
  });

  it('a new run with errors is still said: once, by one window, and not again after a reload', async () => {
    const p = profile();
    const first = p.window();
    assert.equal(await first.says(many(300)), 300);
    p.clock.now += ERRORS_QUIET_MS;
    const next = [...many(300), sync(9001)];
    assert.equal((await first.poll(next))?.text, 'Sync #9001 (Invoices) reports errors');
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await p.window().says(next), 0, 'a reload');
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await p.window().says([...next, sync(9002)]), 1, 'after a reload, a new run is news');
  });

  it('a sync id that runs again (another created_at) is a new run: said after a reload', async () => {
    const p = profile();
    assert.equal(await p.window().says([sync(42, ERR, '2026-11-22T10:00:00Z')]), 1);
    p.clock.now += ERRORS_GRACE_MS + MIN;
    assert.equal(await p.window().says([sync(42, ERR, '2026-11-22T10:00:00Z')]), 0, 'the same run');
    assert.equal(await p.window().says([sync(42, ERR, '2026-11-22T11:30:00Z')]), 1, 'a new run of the id');
  });

  it('held in the quiet period and not said before a reload: said after it, once', async () => {
    const p = profile();
    const first = p.window();
    assert.equal(await first.says([sync(1)]), 1);
    p.clock.now += MIN;
    assert.equal(await first.says([sync(1), sync(2)]), 0, 'quiet: #2 held');
    const reloaded = p.window();
    assert.equal((await reloaded.poll([sync(1), sync(2)]))?.text, 'Sync #2 (Invoices) reports errors');
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await p.window().says([sync(1), sync(2)]), 0);
  });

  it('seen while off stays not news after a reload; not watched in watched, it waits for its watch, as in one window', async () => {
    for (const [more, after] of [
      [{ mode: 'off' }, 0],
      [{ mode: 'watched' }, 3], // "all" watches every sync
    ] as Array<[Partial<ErrorsPoll>, number]>) {
      const p = profile();
      assert.equal(await p.window().says(many(3), more), 0);
      assert.equal(await p.window().says(many(3)), after, `${more.mode}, then all after a reload`);
      assert.equal(await p.window().says([...many(3), sync(77)]), 1);
    }
  });

  it('watched: a run with errors before its watch is said once watched, once across reloads and windows (issue #52, 4)', async () => {
    const p = profile();
    const watchedIds = new Set<number>();
    const watched = { mode: 'watched', watched: (s: FlowSync) => watchedIds.has(s.id) } as Partial<ErrorsPoll>;
    const listed = [sync(1), sync(2)];
    assert.equal(await p.window().says(listed, watched), 0, 'none watched');
    const reloaded = p.window();
    assert.equal(await reloaded.says(listed, watched), 0, 'after a reload, still none watched');
    watchedIds.add(2);
    p.clock.now += 30 * SEC;
    assert.equal((await reloaded.poll(listed, watched))?.text, 'Sync #2 (Invoices) reports errors');
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await reloaded.says(listed, watched), 0, 'once');
    assert.equal(await p.window().says(listed, watched), 0, 'a reload: not again');
    watchedIds.add(1);
    assert.equal(await p.window().says(listed, watched), 1, '#1 watched now: said, once');
    assert.equal(await p.window().says(listed, watched), 0);
  });

  it('watched: a window that adopted the answers says a run once watched when it polls itself, unless the poller did', async () => {
    const p = profile();
    const watchedIds = new Set<number>();
    const watched = { mode: 'watched', watched: (s: FlowSync) => watchedIds.has(s.id) } as Partial<ErrorsPoll>;
    const poller = p.window();
    const adopter = p.window();
    const listed = [sync(1), sync(2)];
    assert.equal(await poller.says(listed, watched), 0);
    assert.equal(await adopter.says(listed, { ...watched, adopted: true }), 0);
    watchedIds.add(1);
    p.clock.now += 30 * SEC;
    assert.equal(await poller.says(listed, watched), 1, 'the poller says #1');
    assert.equal(await adopter.says(listed, { ...watched, adopted: true }), 0, 'said there');
    // The poller's window closes; the adopter polls from now on.
    watchedIds.add(2);
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal((await adopter.poll(listed, watched))?.text, 'Sync #2 (Invoices) reports errors', '#1 was said');
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await adopter.says(listed, watched), 0, 'once');
  });

  it('turned off while held: not said after a reload either', async () => {
    const p = profile();
    const first = p.window();
    assert.equal(await first.says([sync(1)]), 1);
    p.clock.now += MIN;
    assert.equal(await first.says([sync(1), sync(2)]), 0, 'quiet: #2 held');
    assert.equal(await first.says([sync(1), sync(2)], { mode: 'off' }), 0);
    assert.equal(await p.window().says([sync(1), sync(2)]), 0);
  });

  it("a window that adopts another's answers writes nothing and reads nothing; the one that polled wrote the marks", async () => {
    const p = profile();
    const poller = p.window();
    const adopter = p.window();
    assert.equal(await poller.says(many(300)), 300);
    const [read, written] = [p.files.bytesRead, p.files.bytesWritten];
    assert.equal(await adopter.says(many(300), { adopted: true }), 0);
    assert.deepEqual([p.files.bytesRead, p.files.bytesWritten], [read, written]);
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await adopter.says(many(300)), 0, 'it took over the polling: the same runs are not news');
    assert.equal(p.files.bytesWritten, written, 'nor marked again: the poller marked them');
    assert.equal(await adopter.says([...many(300), sync(1)]), 1, 'a new run is');
  });

  it('a window that holds no memory (no service scope) says as before', async () => {
    const a = new ErrorAnnouncer(() => NOW);
    const said = await a.nextWithMemory({ processing: many(3), mode: 'all', watched: () => false, adopted: false });
    assert.equal(said?.syncs.length, 3);
  });
});

describe('The memory of runs announced: what it costs, bounded, crash-safe', () => {
  it('a poll with nothing new touches no file; a mark writes its own record, whatever the files hold', async () => {
    const p = profile();
    const w = p.window();
    await w.says(many(300));
    const [read, written] = [p.files.bytesRead, p.files.bytesWritten];
    for (let i = 0; i < 10; i++) {
      p.clock.now += ERRORS_QUIET_MS;
      assert.equal(await w.says(many(300)), 0);
    }
    assert.deepEqual([p.files.bytesRead, p.files.bytesWritten], [read, written], 'the same runs: no read, no write');
    assert.equal(await w.says([...many(300), sync(1)]), 1);
    const one = p.files.bytesWritten - written;
    assert.ok(one > 0 && one < 100, `one record: ${one} bytes`);
  });

  it('a window reads only what other windows added since its last read', async () => {
    const p = profile();
    const first = p.window();
    const second = p.window();
    await first.says(many(300));
    await second.says(many(300));
    const read = p.files.bytesRead;
    p.clock.now += ERRORS_QUIET_MS;
    await first.says([...many(300), sync(1)]);
    await second.says([...many(300), sync(1), sync(2)]);
    assert.ok(p.files.bytesRead - read < 100, `only the new record: ${p.files.bytesRead - read} bytes`);
  });

  it('a run gone is forgotten after the horizon (historyDays), and its day files deleted', async () => {
    const p = profile({ days: 2 });
    await p.window().says(many(300));
    p.clock.now += 3 * DAY;
    const later = p.window();
    assert.equal(await later.says([sync(1)]), 1);
    assert.equal(later.memory.remembered, 1, 'the 300 runs that are gone are forgotten');
    assert.deepEqual(
      [...p.files.data.keys()].map((path) => path.replace(/window-\d+.*/, 'window')),
      [`${FOLDER}/e1-2026-11-25-window`],
      'the old day file is deleted',
    );
  });

  it('a run still listed with errors is marked again, so it is never forgotten while it processes', async () => {
    const p = profile({ days: 1 });
    const w = p.window();
    assert.equal(await w.says([sync(1)]), 1);
    for (let t = 0; t < 5 * DAY; t += HOUR) {
      p.clock.now += HOUR;
      assert.equal(await w.says([sync(1)]), 0);
    }
    assert.equal(await p.window().says([sync(1)]), 0, 'a reload five days later: still not news');
    const records = [...p.files.data.values()].map((f) => new TextDecoder().decode(f.bytes).split('\n').length - 1);
    assert.ok(
      records.reduce((a, b) => a + b, 0) <= (5 * DAY) / REMARK_MS + 1,
      `marked again every ${REMARK_MS / HOUR} h, not every poll: ${records}`,
    );
  });

  it(`at most ${MAX_MARKS} runs remembered: the oldest forgotten first`, async () => {
    const p = profile();
    const w = p.window();
    const runs = Array.from({ length: MAX_MARKS + 10 }, (_, i) => runOf(sync(i)));
    for (let i = 0; i < runs.length; i += 10_000) {
      w.memory.mark(runs.slice(i, i + 10_000));
      p.clock.now += SEC;
    }
    assert.equal(w.memory.remembered, MAX_MARKS);
    assert.ok(!w.memory.has(runs[0]) && w.memory.has(runs.at(-1)!));
    await w.memory.flushed();
    const other = p.window();
    await other.memory.refresh();
    assert.equal(other.memory.remembered, MAX_MARKS, 'another window reads at most as many');
  });

  it('a torn record (a write cut short) and garbage are skipped; the marks around them count', async () => {
    const p = profile();
    const path = `${FOLDER}/e1-2026-11-22-planted.log`;
    const record = (id: number) => `\n${JSON.stringify([id, sync(id).created_at, NOW])}`;
    p.files.put(path, `${record(1)}\n[2, "2026-11-22T1${record(3)}\nnot json\n{"a":1}\n[4,"x"]${record(5)}\n[6, "2026`);
    const w = p.window();
    assert.equal((await w.poll([1, 2, 3, 5, 6].map((id) => sync(id))))?.syncs.map((s) => s.id).join(), '6,2');
    assert.equal(w.memory.remembered, 5);
  });

  it('a record being written is read once it is whole', async () => {
    const p = profile();
    const path = `${FOLDER}/e1-2026-11-22-planted.log`;
    const record = (id: number) => `\n${JSON.stringify([id, sync(id).created_at, NOW])}`;
    p.files.put(path, `${record(1)}${record(2).slice(0, 12)}`);
    const w = p.window();
    await w.memory.refresh();
    assert.deepEqual([w.memory.has(runOf(sync(1))), w.memory.has(runOf(sync(2)))], [true, false]);
    p.files.put(path, `${record(1)}${record(2)}`);
    await w.memory.refresh();
    assert.ok(w.memory.has(runOf(sync(2))));
  });

  it('a file over the bound is not read (nor parsed); the log says so once', async () => {
    const p = profile();
    p.files.put(`${FOLDER}/e1-2026-11-22-planted.log`, '\n[1,"x",1]'.repeat(MAX_FILE_BYTES / 10 + 1));
    const w = p.window();
    assert.equal(await w.says([sync(1)]), 1);
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await w.says([sync(2)]), 1);
    assert.equal(p.files.bytesRead, 0);
    assert.equal(p.logs.filter((l) => /larger than/.test(l)).length, 1, p.logs.join('\n'));
  });

  it('a read reads at most 16 MiB across files, the newest days first; the rest the next time', async () => {
    const p = profile();
    const record = (id: number) => `\n${JSON.stringify([id, sync(id).created_at, NOW - DAY])}`;
    const padding = `\n${'x'.repeat(6 * 1024 * 1024)}`; // 6 MiB of a line that is not a record
    for (const [i, day] of ['2026-11-22', '2026-11-21', '2026-11-20'].entries()) {
      p.files.put(`${FOLDER}/e1-${day}-planted.log`, `${record(i + 1)}${padding}`);
    }
    const w = p.window();
    await w.memory.refresh();
    assert.ok(p.files.bytesRead <= 16 * 1024 * 1024, String(p.files.bytesRead));
    assert.deepEqual(
      [1, 2, 3].map((id) => w.memory.has(runOf(sync(id)))),
      [true, true, false],
    );
    await w.memory.refresh();
    assert.ok(w.memory.has(runOf(sync(3))), 'the oldest day, read next');
  });

  it('marks from the future (a clock that was ahead, or planted) do not count; leftovers of interrupted writes go', async () => {
    const p = profile();
    p.files.put(`${FOLDER}/e1-2026-11-22-planted.log`, `\n${JSON.stringify([1, sync(1).created_at, NOW + 2 * DAY])}`);
    p.files.put(`${FOLDER}/.e1-2026-11-20-old.log.${'0'.repeat(32)}.tmp`, 'x', NOW - 2 * DAY);
    assert.equal(await p.window().says([sync(1)]), 1);
    assert.ok(![...p.files.data.keys()].some((k) => k.endsWith('.tmp')));
  });

  it('a write that failed is written by the next; the log says so once; this window remembers meanwhile', async () => {
    const p = profile();
    const w = p.window();
    p.files.fault = () => 3; // no space left: 3 bytes reach the file, then the append fails
    assert.equal(await w.says([sync(1)]), 1);
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await w.says([sync(1), sync(2)]), 1);
    assert.equal(p.logs.filter((l) => /could not be remembered/.test(l)).length, 1, p.logs.join('\n'));
    assert.equal(await p.window().says([sync(1), sync(2)]), 2, 'nothing reached the disk yet');
    p.files.fault = undefined;
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await w.says([sync(1), sync(2), sync(3)]), 1);
    assert.equal(await p.window().says([sync(1), sync(2), sync(3)]), 0, 'the marks that waited were written');
  });

  it('where files cannot be appended to (the browser), a window rewrites its own day file; others read it', async () => {
    const p = profile({ append: false });
    const first = p.window();
    assert.equal(await first.says(many(3)), 3);
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await first.says([...many(3), sync(1)]), 1);
    assert.equal(await p.window().says([...many(3), sync(1)]), 0);
    assert.equal(p.files.data.size, 1, 'one file of the day');
  });

  it('the key is never written: a created_at that echoes it is masked, and a record holding a piece is left out', async () => {
    const p = profile();
    const w = p.window(LONG_KEY);
    assert.equal(await w.says([sync(1, ERR, `2026-11-22 ${LONG_KEY}`), sync(2, ERR, LONG_KEY.slice(3, 20))]), 2);
    for (const f of p.files.data.values()) {
      assert.equal(keyPiece(new TextDecoder().decode(f.bytes), LONG_KEY), undefined);
    }
    p.clock.now += ERRORS_QUIET_MS;
    assert.equal(await w.says([sync(1, ERR, `2026-11-22 ${LONG_KEY}`), sync(2, ERR, LONG_KEY.slice(3, 20))]), 0);
  });
});
