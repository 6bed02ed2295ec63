#!/usr/bin/env node
// Refresh pipeline against the embedded mock on loopback (out/src/mock/server.js, same process), per list size:
//   pipeline = FlowSyncClient.listConnections() (node-fetch GET, capped read, JSON.parse, SHA-1 fingerprint,
//              validateList) + grouping by team + the first visible level of the tree as the plain objects GroupedTree's
//              getTreeItem would fill for a team group (id, label, description from the real connectionsAdapter)
//   floor    = the same GET with node-fetch (same headers, same bytes) + response.text() + JSON.parse, nothing else
// Runs alternate floor / pipeline (order flipped every pair) after warm-up; global.gc() before each run when exposed.
// One client for all runs, as the product keeps one: each answer has the bytes of the last, so the client compares
// them instead of counting and hashing (what a poll that finds nothing new costs); JSON.parse, validation, grouping
// (arrangedTree(connectionsList).group, what TreeModel.regroup calls) and the first tree level run every time.
// From 10,000 items, a second series where every answer differs from the one before (one connection renamed, every
// other time; the floor is served the same bytes): what a poll that finds news costs, counting and hashing included.
// Each size runs with the key of one service registered (hideEverywhere, as activate() registers every service's key:
// service text masks it), then with the keys of two services: the rows marked "(2 keys)".
import fetch from 'node-fetch';
import { performance } from 'node:perf_hooks';
import { emitRows, median, ms, outModule, progress, row } from './lib/common.mjs';

const { FlowSyncClient } = outModule('api/client.js');
const { MockFlowSyncServer } = outModule('mock/server.js');
const { connectionsList } = outModule('lists/connections.js');
const { arrangedTree } = outModule('lists/arrange.js');
const { hideEverywhere } = outModule('base/inert.js');

const API_KEY = 'fs_bench_0123456789abcdef';
/** A second service's key: every service text masks the keys of all services (hideEverywhere, as activate() does). */
const OTHER_KEY = 'fsk_Test_Q8w3Er5Ty7Ui9Op2As4Df6Gh';
const KEY_SETS = [
  ['', [API_KEY]],
  [' (2 keys)', [API_KEY, OTHER_KEY]],
];
const TEAMS = 50;
const SIZES = [
  [100, 40],
  [1_000, 30],
  [10_000, 25],
  [50_000, 11], // 11 pairs (was 7): at 50,000 one pair's ratio varies by ±0.15x on 2 cores, so 7 left the median to chance
];
const WARMUP = 2;
const say = (m) => progress('pipeline', m);
const gc = () => globalThis.gc?.();

function firstLevel(groups) {
  const a = arrangedTree(connectionsList);
  return groups.map((g) => ({
    id: `${a.groupRows.idPrefix}:${g.key}`,
    label: g.label,
    description: a.groupRows.describe(g),
    contextValue: a.groupRows.context,
  }));
}

async function pipelineOnce(client) {
  const t0 = performance.now();
  const result = await client.listConnections();
  const t1 = performance.now();
  const groups = arrangedTree(connectionsList).group(result.items);
  const t2 = performance.now();
  const nodes = firstLevel(groups);
  const t3 = performance.now();
  return {
    total: t3 - t0,
    list: t1 - t0,
    group: t2 - t1,
    nodes: t3 - t2,
    items: result.items.length,
    groups: nodes.length,
  };
}

async function floorOnce(url) {
  const t0 = performance.now();
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${API_KEY}`, Accept: 'application/json', 'User-Agent': 'flowsync-bench' },
  });
  const text = await response.text();
  const body = JSON.parse(text);
  return { total: ms(t0), items: body.length, bytes: Buffer.byteLength(text) };
}

/** The pipeline when every answer is news: two bodies that differ in one name, served in turn to both sides. */
async function changedAnswers(mock, client, url, label, runs) {
  const base = JSON.parse(await (await fetch(url, { headers: { Authorization: `Bearer ${API_KEY}` } })).text());
  const bodies = [
    JSON.stringify(base.map((c, i) => (i === 0 ? { ...c, name: `${c.name} (renamed)` } : c))),
    JSON.stringify(base),
  ];
  const serve = (i) => mock.inject({ endpoint: 'connections', status: 200, body: bodies[i % 2], times: 1 });
  const pipe = [];
  const floor = [];
  const ratios = [];
  for (let i = 0; i < runs + WARMUP; i++) {
    let p;
    let f;
    gc();
    if (i % 2) {
      serve(i);
      p = await pipelineOnce(client);
      gc();
      serve(i);
      f = await floorOnce(url);
    } else {
      serve(i);
      f = await floorOnce(url);
      gc();
      serve(i);
      p = await pipelineOnce(client);
    }
    if (i < WARMUP) continue;
    pipe.push(p.total);
    floor.push(f.total);
    ratios.push(p.total / f.total);
  }
  mock.clearFaults();
  say(
    `${label}, changed answers: pipeline ${median(pipe).toFixed(1)} ms, floor ${median(floor).toFixed(1)} ms, ratio ${median(ratios).toFixed(2)}x`,
  );
  const note = `${runs} runs; every answer differs from the one before, so it is counted and hashed`;
  return [
    row('pipeline', `${label}: changed answer: refresh pipeline`, 'ms', pipe, { note }),
    row('pipeline', `${label}: changed answer: floor`, 'ms', floor),
    row('pipeline', `${label}: changed answer: ratio pipeline / floor`, 'x', ratios, {
      target: { max: 1.2, text: '<= 1.2x' },
    }),
  ];
}

/** Pipeline / floor pairs (order flipped every pair) of one list size, with `keys` registered. */
async function pairs(client, url, size, runs, keys) {
  hideEverywhere(() => keys.slice());
  for (let i = 0; i < WARMUP; i++) {
    await floorOnce(url);
    await pipelineOnce(client);
  }
  const pipe = [];
  const floor = [];
  const ratios = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    let p;
    let f;
    gc();
    if (i % 2) {
      p = await pipelineOnce(client);
      gc();
      f = await floorOnce(url);
    } else {
      f = await floorOnce(url);
      gc();
      p = await pipelineOnce(client);
    }
    if (p.items !== size || f.items !== size) throw new Error(`expected ${size} items, got ${p.items} / ${f.items}`);
    bytes = f.bytes;
    pipe.push(p);
    floor.push(f.total);
    ratios.push(p.total / f.total);
  }
  return { pipe, floor, ratios, bytes };
}

const rows = [];
const summary = [];
for (const [size, runs] of SIZES) {
  const mock = await MockFlowSyncServer.start({ connections: size, teams: TEAMS, apiKey: API_KEY });
  try {
    const client = new FlowSyncClient({ baseUrl: mock.url, apiKey: API_KEY, userAgent: 'flowsync-bench' });
    const url = `${mock.url}/api/public/v1/connections/index`;
    for (const [keysLabel, keys] of KEY_SETS) {
      const { pipe, floor, ratios, bytes } = await pairs(client, url, size, runs, keys);
      const label = `${size.toLocaleString('en-US')}${keysLabel}`;
      const note = `${runs} runs, ${(bytes / 1024).toFixed(0)} KB body, ${pipe[0].groups} teams; ${keys.length === 1 ? 'the key of 1 service' : `the keys of ${keys.length} services`} masked in service text`;
      rows.push(
        row(
          'pipeline',
          `${label}: refresh pipeline (fetch→tree level 1)`,
          'ms',
          pipe.map((p) => p.total),
          { note },
        ),
      );
      rows.push(
        row(
          'pipeline',
          `${label}:   of which listConnections (fetch+parse+validate)`,
          'ms',
          pipe.map((p) => p.list),
        ),
      );
      rows.push(
        row(
          'pipeline',
          `${label}:   of which grouping`,
          'ms',
          pipe.map((p) => p.group),
        ),
      );
      rows.push(
        row(
          'pipeline',
          `${label}:   of which team nodes (label/description/id)`,
          'ms',
          pipe.map((p) => p.nodes),
        ),
      );
      rows.push(row('pipeline', `${label}: floor (node-fetch GET + JSON.parse)`, 'ms', floor));
      rows.push(
        row(
          'pipeline',
          `${label}: ratio pipeline / floor (per pair)`,
          'x',
          ratios,
          size >= 10_000 ? { target: { max: 1.3, text: '<= 1.3x' } } : {},
        ),
      );
      summary.push(
        `${label}: pipeline ${median(pipe.map((p) => p.total)).toFixed(1)} ms, floor ${median(floor).toFixed(1)} ms, ratio ${median(ratios).toFixed(2)}x`,
      );
      say(summary.at(-1));
      if (size >= 10_000) rows.push(...(await changedAnswers(mock, client, url, label, runs)));
    }
  } finally {
    await mock.close();
  }
}
hideEverywhere(() => undefined);
emitRows(rows);
