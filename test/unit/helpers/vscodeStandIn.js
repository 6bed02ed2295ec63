// A stand-in for the `vscode` module, for activate() in plain Node: every member a callable, constructible stand-in,
// but for the enums activate() compares. Plain CommonJS, so that both test/unit/extension.test.ts (compiled to out/)
// and bench/chunkLoad/child.js (a plain Node process) require this one file.
'use strict';
const Module = require('node:module');

/** Any member of the stand-in is a callable, constructible stand-in again. */
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
    set: (_target, prop, value) => {
      members.set(prop, value);
      return true;
    },
    apply: () => standIn(),
    construct: () => standIn(),
  });
}

/** The `vscode` namespaces and classes the extension uses. */
const NAMESPACES = [
  'window',
  'workspace',
  'commands',
  'env',
  'languages',
  'extensions',
  'lm',
  'Uri',
  'EventEmitter',
  'ThemeIcon',
  'ThemeColor',
  'TreeItem',
  'MarkdownString',
  'Disposable',
  'ProgressLocation',
  'ViewColumn',
];

/** The enums activate() compares: `ExtensionMode` is the mode a test hands activate() in its context. */
const ExtensionMode = { Production: 1, Development: 2, Test: 3 };

/**
 * A new `vscode` stand-in: a plain object (so a bundler's module interop can copy it) whose `l10n.t` is `t` (by
 * default the message as it is).
 */
function fakeVscode({ t = (message) => message } = {}) {
  const api = {
    ExtensionMode,
    StatusBarAlignment: { Left: 1, Right: 2 },
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    QuickPickItemKind: { Separator: -1, Default: 0 },
    l10n: { t },
    version: '1.139.1',
  };
  for (const name of NAMESPACES) api[name] = standIn();
  return api;
}

/**
 * Makes `require('vscode')` answer `api` (any stand-in: this module's or a test's own), in every module, until the
 * function it returns is called. `id`: the name it is cached under, one per stand-in.
 */
function useVscode(api, id = 'vscode-stand-in') {
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return request === 'vscode' ? id : resolve.call(this, request, ...rest);
  };
  require.cache[id] = { id, filename: id, loaded: true, exports: api };
  return () => {
    Module._resolveFilename = resolve;
    delete require.cache[id];
  };
}

module.exports = { ExtensionMode, fakeVscode, useVscode };
