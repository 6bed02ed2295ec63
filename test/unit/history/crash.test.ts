import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseLog } from '../../../src/history/log';
import { LogStore } from '../../../src/history/logStore';
import { nodeFiles } from '../../../src/env/node/files';

const CHILD = path.join(__dirname, '../helpers/historyCrashChild.js');
/**
 * Each kill is a Node process started (about 150 ms of CPU, most of this test's cost), so the kills are as many as the
 * moments they must cover, not more: each of the 4 windows is killed 6 times under its id (each start appends after
 * what the last kill left), once after each of 1 to 6 writes begun, at a delay spread over the write (0-3 ms in four
 * steps, random within each; in each round the four windows take the four steps, so each mode meets each step every
 * two rounds). Every kill lands between a write's "w" and its "ok" (measured: 40 of 40).
 *
 * Why 6 and not 12 writes: what a kill can meet does not change after the first few writes of a process. The 1st
 * write is the process's first (its store finds the day file as the last kill left it, or no folder yet: mkdir and
 * retry); the 2nd and 3rd are the first steady ones and cover the run counts (1 to 3 runs a write, by id); from then
 * on each write is the same append (or rewrite) on a longer file, which 4 to 6 cover (and the 6 starts per id still
 * stack torn writes on one file).
 * The kills after 7 to 12 writes proved nothing more and cost half the test: 24.6 s alone at load 10 with 48 kills
 * (the earlier 200 random kills: 28 s of the unit stage idle, and the 60 s, then 120 s, timeout at load 20+).
 */
const KILLS_PER_WINDOW = 6;
const SLOTS = 4;
const KILLS = KILLS_PER_WINDOW * SLOTS;

/** Runs the child until it has begun a few writes, kills it at a random moment; what it acknowledged and was writing (its journal). */
function killedWriter(
  root: string,
  windowId: string,
  firstId: number,
  mode: 'append' | 'rewrite',
  round: number,
  slot: number,
): Promise<{ acked: number[]; inFlight: number[] }> {
  const journal = path.join(root, `journal-${firstId}.txt`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, root, windowId, String(firstId), mode, journal], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let writes = 0;
    const killAfter = 1 + (round % KILLS_PER_WINDOW); // writes begun before the kill is armed: 1 to 6
    // Where in the write: 0-3 ms in four steps; each count of writes meets each step in one of the four windows.
    const delay = ((round + slot) % 4) * 0.75 + Math.random() * 0.75;
    let armed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      writes += chunk.toString().split('\n').length - 1;
      if (writes >= killAfter && !armed && child.exitCode === null) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), delay);
      }
    });
    child.on('error', reject);
    child.on('close', () => {
      const acked: number[] = [];
      let inFlight: number[] = [];
      for (const line of fs.readFileSync(journal, 'utf8').split('\n')) {
        if (line.startsWith('w ')) inFlight = line.slice(2).split(',').map(Number);
        else if (line === 'ok') {
          acked.push(...inFlight);
          inFlight = [];
        }
      }
      resolve({ acked, inFlight });
    });
  });
}

describe('historyCrash: a window killed at any moment of a write', function () {
  this.timeout(120_000); // a guard against a child that hangs: about 5 s on an idle 2-core machine, 12 s at load 10

  it(`${KILLS} kills: loses at most the runs of the interrupted write, sets aside nothing, doubles nothing`, async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-crash-'));
    try {
      const acked = new Set<number>();
      const allowed = new Set<number>();
      // Four windows at once, each killed again and again under the same id (it appends after whatever a kill left);
      // two append, two rewrite their day file (the browser's way).
      await Promise.all(
        Array.from({ length: SLOTS }, async (_, slot) => {
          const mode = slot % 2 ? 'rewrite' : 'append';
          for (let k = slot, round = 0; k < KILLS; k += SLOTS, round++) {
            const result = await killedWriter(root, `window-${slot}`, (k + 1) * 10_000, mode, round, slot);
            for (const id of result.acked) acked.add(id);
            for (const id of [...result.acked, ...result.inFlight]) allowed.add(id);
          }
        }),
      );
      const store = new LogStore({
        files: nodeFiles(root),
        folder: 'origin',
        windowId: 'reader',
        now: () => Date.now(),
      });
      const read = await store.read(7);
      const ids = new Set(read.entries.map((e) => e.id));
      const lost = [...acked].filter((id) => !ids.has(id));
      assert.deepEqual(lost, [], 'every run whose write completed is there');
      const unexpected = [...ids].filter((id) => !allowed.has(id)).sort((a, b) => a - b);
      assert.deepEqual(unexpected, [], 'nothing that was not written');
      assert.equal(store.setAside, 0, 'nothing set aside');
      const names = fs.readdirSync(path.join(root, 'origin'));
      assert.deepEqual(
        names.filter((n) => n.endsWith('.corrupt')),
        [],
      );
      // Doubled: a record of one run twice on disk (the merge would hide it).
      const records = names
        .filter((n) => n.endsWith('.log'))
        .flatMap((n) => parseLog(fs.readFileSync(path.join(root, 'origin', n), 'utf8')).entries.map((e) => e.id));
      assert.equal(records.length, new Set(records).size, 'no run written twice');
      assert.ok(acked.size > KILLS, `the children wrote (${acked.size} runs acknowledged)`);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
