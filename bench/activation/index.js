// The bench "suite" run by VS Code's extension host (extensionTestsPath): reports the activation figures the shim
// recorded (bench/activation/shim.js) on one console line, FLOWSYNC_BENCH_ACTIVATION {json}, for bench/activation.mjs.
'use strict';
const { performance } = require('node:perf_hooks');
const vscode = require('vscode');

const LINE_MARK = '\u200b'; // the rig shows lines starting with it as the suite's own (test/rig/codeServer.mjs)
const EXTENSION_ID = 'flowsync-tools.flowsync-explorer';

module.exports.run = async function run() {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this extension host`);
  const wasActive = ext.isActive;
  let outerMs;
  const askedAt = Date.now();
  if (!wasActive) {
    // Not activated yet by onStartupFinished: activate it here and time the whole call from outside as well.
    const t0 = performance.now();
    await ext.activate();
    outerMs = performance.now() - t0;
  }
  const figures = globalThis.__flowsyncBenchActivation;
  if (!figures)
    throw new Error('the bench shim recorded nothing: was the extension loaded through bench/activation/shim.js?');
  const made = await globalThis.__flowsyncBenchServicesMade; // the shim's promise settles within 10 s
  console.log(
    `${LINE_MARK}FLOWSYNC_BENCH_ACTIVATION ${JSON.stringify({ wasActive, askedAt, outerMs, ...figures, ...made, startedByVsCode: wasActive || figures.loadStartedAt < askedAt, vscode: vscode.version })}`,
  );
};
