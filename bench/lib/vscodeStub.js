// A minimal `vscode` module for running out/src/lists/vscode/groupedTree.js in plain Node (bench/tree.mjs): just the classes
// GroupedTree touches, with VS Code's shapes. Installed by hooking Module._resolveFilename for the request 'vscode'.
'use strict';
const Module = require('node:module');
const path = require('node:path');

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener) => {
      this.listeners.add(listener);
      return { dispose: () => this.listeners.delete(listener) };
    };
  }
  fire(data) {
    for (const l of [...this.listeners]) l(data);
  }
  dispose() {
    this.listeners.clear();
  }
}

const TreeItemCollapsibleState = { None: 0, Collapsed: 1, Expanded: 2 };

class TreeItem {
  constructor(label, collapsibleState = TreeItemCollapsibleState.None) {
    this.label = label;
    this.collapsibleState = collapsibleState;
  }
}

class ThemeColor {
  constructor(id) {
    this.id = id;
  }
}

class ThemeIcon {
  constructor(id, color) {
    this.id = id;
    this.color = color;
  }
}

class MarkdownString {
  constructor(value = '', supportThemeIcons = false) {
    this.value = value;
    this.supportThemeIcons = supportThemeIcons;
  }
}

const stub = {
  EventEmitter,
  TreeItem,
  TreeItemCollapsibleState,
  ThemeColor,
  ThemeIcon,
  MarkdownString,
  l10n: { t: (m) => m },
};

const STUB_ID = path.join(__dirname, 'vscodeStub.js');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? STUB_ID : resolve.call(this, request, ...rest);
};
module.exports = stub;
