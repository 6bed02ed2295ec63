// One fresh process of bench/chunkLoad.mjs: requires DIST/extension.js and calls activate() with a stand-in for `vscode`
// (test/unit/helpers/vscodeStandIn.js, as test/unit/extension.test.ts does), then requires the chunks given (`a+b`: a,
// then b) and prints the process's CPU time of each step, in ms, as one JSON line.
'use strict';
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const { fakeVscode, useVscode } = require('../../test/unit/helpers/vscodeStandIn.js');

const vscode = fakeVscode();
useVscode(vscode);

const [dist, ...groups] = process.argv.slice(2);
const figures = {};
let at = cpu();
const extension = require(`${dist}/extension.js`);
figures.load = cpu() - at;
const memento = { get: () => undefined, update: async () => undefined, keys: () => [] };
at = cpu();
extension.activate({
  extensionMode: vscode.ExtensionMode.Production,
  secrets: {
    get: async () => undefined,
    store: async () => undefined,
    delete: async () => undefined,
    onDidChange: () => ({ dispose() {} }),
  },
  subscriptions: [],
  globalState: memento,
  workspaceState: memento,
  extension: { packageJSON: { version: '0.0.0' }, id: 'bench.chunks' },
  logUri: { fsPath: '/tmp' },
  globalStorageUri: { fsPath: '/tmp', scheme: 'file' },
  extensionUri: { fsPath: '/tmp' },
});
figures.activate = cpu() - at;
for (const group of groups) {
  at = cpu();
  for (const name of group.split('+')) require(`${dist}/chunks/${name}.js`);
  figures[group] = cpu() - at;
}
process.stdout.write(`${JSON.stringify(figures)}\n`);
process.exit(0); // the services' start waits on a timer: not measured
