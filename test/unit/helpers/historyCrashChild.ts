/**
 * A window writing History until it is killed (historyCrash.test.ts): plain Node, the store's pure part on node:fs.
 *   node historyCrashChild.js <root> <windowId> <firstId> <append|rewrite> <journal>
 * Before each write it appends "w <ids>" to the journal, after it "ok" (synchronously: a kill cannot lose a line that
 * was written; stdout, a pipe, may be lost with the process), and prints "w" to tell the test it writes. One to
 * three runs at a time, as polls do.
 */
import { appendFileSync } from 'node:fs';
import { makeEntry } from '../../../src/history/entry';
import { LogStore } from '../../../src/history/logStore';
import { nodeFiles } from '../../../src/env/node/files';

async function main(): Promise<void> {
  const [root, windowId, first, mode, journal] = process.argv.slice(2);
  const node = nodeFiles(root);
  const files = mode === 'rewrite' ? { ...node, append: undefined } : node;
  const store = new LogStore({ files, folder: 'origin', windowId, now: () => Date.now() });
  let id = Number(first);
  for (;;) {
    const n = 1 + (id % 3);
    const now = Date.now();
    const runs = Array.from({ length: n }, (_, i) =>
      makeEntry({
        id: id + i,
        flowId: 1,
        flowName: 'Crash test flow',
        createdAt: new Date(now - 60_000).toISOString(),
        firstSeen: now - 50_000,
        lastSeen: now - 10_000,
        leftAt: now,
        raw: { id: id + i, pad: 'x'.repeat(200) },
      }),
    );
    appendFileSync(journal, `w ${runs.map((r) => r.id).join(',')}\n`);
    process.stdout.write('w\n');
    await store.append(runs);
    appendFileSync(journal, 'ok\n');
    id += n;
  }
}

void main();
