// One fresh process of bench/chunkLoad.mjs: requires DIST/extension.js and calls activate() with a stand-in for `vscode`
// (every member a callable stand-in, as in test/unit/extension.test.ts), then requires the chunks given (`a+b`: a, then
// b) and prints the process's CPU time of each step, in ms, as one JSON line.
'use strict';
const Module = require('node:module');
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

function standIn() {
  const members = new Map();
  return new Proxy(function () {}, {
    get: (_target, prop) => {
      if (prop === 'then') return undefined; // not a thenable
      if (prop === Symbol.toPrimitive) return () => '';
      if (prop === Symbol.iterator) return function* () {};
      if (!members.has(prop)) members.set(prop, standIn());
      return members.get(prop);
    },
    set: (_target, prop, value) => (members.set(prop, value), true),
    apply: () => standIn(),
    construct: () => standIn(),
  });
}
const vscode = {
  ExtensionMode: { Production: 1, Development: 2, Test: 3 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  QuickPickItemKind: { Separator: -1, Default: 0 },
  l10n: { t: (message) => message },
  version: '1.139.1',
};
for (const name of ['window', 'workspace', 'commands', 'env', 'languages', 'extensions', 'lm', 'Uri', 'EventEmitter'])
  vscode[name] = standIn();
for (const name of ['ThemeIcon', 'ThemeColor', 'TreeItem', 'MarkdownString', 'Disposable', 'ProgressLocation'])
  vscode[name] = standIn();
vscode.ViewColumn = standIn();
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? 'vscode-stand-in' : resolve.call(this, request, ...rest);
};
require.cache['vscode-stand-in'] = {
  id: 'vscode-stand-in',
  filename: 'vscode-stand-in',
  loaded: true,
  exports: vscode,
};

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
