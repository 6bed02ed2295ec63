// Copied next to the extension (as the `main` of a throwaway copy, see bench/activation.mjs): loads the real
// dist/extension.js and times its code loading and its activate(context) call with the real context VS Code passes.
'use strict';
const { performance } = require('node:perf_hooks');
const loadStartedAt = Date.now(); // wall clock, to compare with the suite's
const started = performance.now();
const real = require('./dist/extension.js');
const loadMs = performance.now() - started;

module.exports.activate = function activate(context) {
  const t0 = performance.now();
  const api = real.activate(context);
  const activateMs = performance.now() - t0;
  globalThis.__flowsyncBenchActivation = { loadStartedAt, loadMs, activateMs, returnedPromise: typeof (api && api.then) === 'function' };
  return api;
};

module.exports.deactivate = function deactivate() {
  return real.deactivate && real.deactivate();
};
