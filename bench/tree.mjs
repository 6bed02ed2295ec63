#!/usr/bin/env node
// GroupedTree.getChildren in plain Node: out/src/lists/vscode/groupedTree.js with the real connections list, loaded with a
// minimal `vscode` stub (bench/lib/vscodeStub.js: EventEmitter, TreeItem, ThemeIcon, ...). Items are the mock's
// connections run through the product's validateList, fed to a real ListRefresher. Every row's service text is made
// inert with the key of one service registered (hideEverywhere, as activate() does), then with the keys of two: the
// rows marked "(2 keys)".
import { emitRows, ms, outModule, outTestHelper, progress, row } from './lib/common.mjs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

createRequire(import.meta.url)('./lib/vscodeStub.js');
const { GroupedTree } = outModule('lists/vscode/groupedTree.js');
const { connectionsList } = outModule('lists/connections.js');
const { ListRefresher } = outModule('lists/refresh.js');
const { validateList, validateConnection } = outModule('api/validate.js');
const { MockDataset } = outModule('mock/data.js');
const { FakeClock } = outTestHelper('fakeClock.js');
const { hideEverywhere } = outModule('base/inert.js');

const RUNS = 21;
const say = (m) => progress('tree', m);

async function treeOf({ connections, teams }) {
  const dataset = new MockDataset({ connections, teams });
  const body = JSON.parse(JSON.stringify(dataset.connections));
  const list = validateList(body, validateConnection, 'connections');
  const clock = new FakeClock();
  const refresher = new ListRefresher(async () => ({ ...list, fingerprint: 'bench' }), clock, () => undefined);
  await refresher.refresh();
  const tree = new GroupedTree(connectionsList, refresher, () => clock.now(), () => true);
  return tree;
}

function timeRuns(fn) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    samples.push(ms(t0));
  }
  return samples;
}

const rows = [];
const note = `plain Node + vscode stub, ${RUNS} calls, the first (cold) included`;
const KEY_SETS = [
  ['', ['fs_bench_0123456789abcdef']],
  [' (2 keys)', ['fs_bench_0123456789abcdef', 'fsk_Test_Q8w3Er5Ty7Ui9Op2As4Df6Gh']],
];
for (const [keysLabel, keys] of KEY_SETS) {
  hideEverywhere(() => keys.slice());
  {
    say('one team of 10,000 connections');
    const tree = await treeOf({ connections: 10_000, teams: 1 });
    const [team] = tree.getChildren();
    if (team.group.items.length !== 10_000) throw new Error(`expected 10,000 items, got ${team.group.items.length}`);
    rows.push(row('tree', `getChildren(team of 10,000)${keysLabel}`, 'ms', timeRuns(() => tree.getChildren(team)), { target: { max: 10, text: '< 10 ms' }, note }));
    rows.push(
      row('tree', `getChildren + getTreeItem each (10,000)${keysLabel}`, 'ms', timeRuns(() => {
        for (const child of tree.getChildren(team)) tree.getTreeItem(child);
      })),
    );
  }
  {
    say('root with 500 teams (10,000 connections)');
    const tree = await treeOf({ connections: 10_000, teams: 500 });
    const count = tree.getChildren().length;
    if (count !== 500) throw new Error(`expected 500 teams, got ${count}`);
    rows.push(row('tree', `getChildren(root, 500 teams)${keysLabel}`, 'ms', timeRuns(() => tree.getChildren()), { target: { max: 10, text: '< 10 ms' } }));
    rows.push(
      row('tree', `getChildren + getTreeItem each (500 teams)${keysLabel}`, 'ms', timeRuns(() => {
        for (const child of tree.getChildren()) tree.getTreeItem(child);
      })),
    );
  }
  {
    // What the view does when an answer differs (new fingerprint) but the team set is the same: TreeModel.update
    // regroups and compares each group's items (what their rows show, looksSame) to find the groups to refresh. Parsing and
    // validation happen before the timed part; timed: refresher.refresh() resolving with the prepared list, whose change
    // event runs GroupedTree.update synchronously.
    say('update on a changed answer: 10,000 connections in 50 teams, one name differs between answers');
    const dataset = new MockDataset({ connections: 10_000, teams: 50 });
    const json = JSON.stringify(dataset.connections);
    const renamed = JSON.parse(json);
    renamed[0].name += ' (renamed)';
    const bodies = [json, JSON.stringify(renamed)];
    let next;
    const prepare = (i) => {
      next = { ...validateList(JSON.parse(bodies[i % 2]), validateConnection, 'connections'), fingerprint: `body-${i % 2}` };
    };
    const clock = new FakeClock();
    const refresher = new ListRefresher(async () => next, clock, () => undefined);
    prepare(0);
    await refresher.refresh();
    const tree = new GroupedTree(connectionsList, refresher, () => clock.now(), () => true);
    // Shown, as VS Code shows a visible view: it asks for the rows, so the model is current (a view never read, or
    // hidden, only marks the model stale and fires nothing per answer: that would time nothing)
    for (const group of tree.getChildren()) tree.getChildren(group);
    let fired = 0;
    tree.onDidChangeTreeData(() => fired++);
    const samples = [];
    for (let i = 1; i <= RUNS; i++) {
      prepare(i);
      globalThis.gc?.();
      const t0 = performance.now();
      await refresher.refresh();
      samples.push(ms(t0));
    }
    if (fired !== RUNS) throw new Error(`update on a changed answer: ${fired} change events over ${RUNS} updates, expected one each`);
    rows.push(
      row('tree', `update on a changed answer (10,000 in 50 teams)${keysLabel}`, 'ms', samples, {
        target: { max: 5, text: '≤ 5 ms' },
        note: `TreeModel.update of a visible view: regroup + compare items by what their rows show (looksSame); ${fired} change events over ${RUNS} updates, one each`,
      }),
    );
  }
}
hideEverywhere(() => undefined);
emitRows(rows);
