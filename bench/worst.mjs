#!/usr/bin/env node
// The worst answer under the caps: for each shape in bench/lib/worstShapes.mjs, a fresh process runs one refresh of
// the real client + ListRefresher (out/src) against a loopback server in another process, and reports the time the
// extension host spends (request to end of refresh) and its peak memory above a warmed-up baseline (maxRSS).
//   node bench/worst.mjs [--runs 3]
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { emitRows, outModule, progress, row } from './lib/common.mjs';
import { SHAPES } from './lib/worstShapes.mjs';

const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '3' }, shape: { type: 'string' } } });
const API_KEY = 'fs_bench_0123456789abcdef';

if (opts.shape) {
  // One measurement, in this fresh process.
  const { FlowSyncClient } = outModule('api/client.js');
  const { ListRefresher } = outModule('lists/refresh.js');
  const { systemClock } = outModule('base/clock.js');
  const server = fork(fileURLToPath(new URL('./lib/worstServer.mjs', import.meta.url)), [opts.shape], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [url, bytes] = await new Promise((resolve) =>
    server.stdout.once('data', (d) => resolve(String(d).trim().split(' '))),
  );
  const client = new FlowSyncClient({ baseUrl: url, apiKey: API_KEY, allowHttp: true, timeoutMs: 60_000 });
  // Warm up on a small answer of the same path, so the baseline holds the loaded code.
  const refresher = new ListRefresher(
    (signal) => client.listConnections({ signal }),
    systemClock,
    () => undefined,
  );
  globalThis.gc?.();
  const baseline = process.resourceUsage().maxRSS * 1024;
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  await refresher.refresh();
  const ms = performance.now() - started;
  const peak = Math.max(process.resourceUsage().maxRSS * 1024 - Math.max(baseline, rssBefore), 0);
  const state = refresher.state;
  const outcome = state.error
    ? `refused: ${state.error.message.slice(0, 70)}`
    : `${state.items.length} items, ${state.dropped} dropped`;
  process.send({ ms, peakMB: peak / 1048576, bytes: Number(bytes), outcome });
  server.kill();
  refresher.dispose();
  process.exit(0);
}

const rows = [];
const runs = Number(opts.runs);
for (const shape of Object.keys(SHAPES)) {
  const samples = [];
  for (let i = 1; i <= runs; i++) {
    const child = fork(fileURLToPath(import.meta.url), ['--shape', shape], {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    samples.push(
      await new Promise((resolve, reject) => {
        child.once('message', resolve);
        child.once('exit', (code) => code !== 0 && reject(new Error(`${shape}: exit ${code}`)));
      }),
    );
  }
  const last = samples.at(-1);
  progress('worst', `${shape}: ${(last.bytes / 1048576).toFixed(1)} MB, ${last.outcome}`);
  rows.push(
    row(
      'worst',
      `${shape}: extension-host time`,
      'ms',
      samples.map((s) => s.ms),
      { target: { max: 1000, text: '< 1 s' }, note: undefined },
    ),
    row(
      'worst',
      `${shape}: peak memory`,
      'MB',
      samples.map((s) => s.peakMB),
      { target: { max: 200, text: '< 200 MB' } },
    ),
  );
}
rows[0].note = `one refresh of the real client + ListRefresher per fresh process (${runs} each); memory = peak RSS above the baseline; the server runs in another process`;
emitRows(rows);
