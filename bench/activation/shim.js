// Copied next to the extension (as the `main` of a throwaway copy, see bench/activation.mjs): loads the real
// dist/extension.js and times its code loading and its activate(context) call with the real context VS Code passes.
'use strict';
const { performance } = require('node:perf_hooks');
const fs = require('node:fs');
const path = require('node:path');
// `node bench/activation.mjs --cpu-profile DIR` leaves bench-cpuprofile.json ({ "dir": DIR }) beside this file: then
// the code load and activate() are sampled by V8's profiler (inspector, this thread) into DIR/start-<time>.cpuprofile.
const cpuProfile = readCpuProfileRequest();
// Garbage collection pauses of this thread (the extension host's one heap: whatever code allocated, other extensions
// starting beside this one included): their part of the code load and activate() is told apart (`gcMs`).
const gcPauses = [];
const gcObserver = new (require('node:perf_hooks').PerformanceObserver)((list) => gcPauses.push(...list.getEntries()));
gcObserver.observe({ entryTypes: ['gc'] });
const loadStartedAt = Date.now(); // wall clock, to compare with the suite's
const loadCpu0 = threadCpu();
const started = performance.now();
const real = require('./dist/extension.js');
const loadMs = performance.now() - started;
const loadCpuMs = loadCpu0 === undefined ? undefined : threadCpu() - loadCpu0;

// `node bench/activation.mjs --profile` leaves bench-profile.json beside this file: then every function of the VS Code
// API namespaces is wrapped to time its synchronous part, so the figures say where activate() spends its time (the
// wrapping itself costs a little, so a profiled start is not a fair activate() figure).
const profile = require('node:fs').existsSync(require('node:path').join(__dirname, 'bench-profile.json'))
  ? wrapApi()
  : undefined;

module.exports.activate = function activate(context) {
  const cpu0 = threadCpu();
  const t0 = performance.now();
  const api = real.activate(context);
  const activateMs = performance.now() - t0;
  const cpuMs = cpu0 === undefined ? undefined : threadCpu() - cpu0;
  if (profile) profile.active = false;
  cpuProfile?.stop();
  const windows = [
    [started, started + loadMs],
    [t0, t0 + activateMs],
  ];
  globalThis.__flowsyncBenchActivation = {
    /** ms of GC pauses within the code load and activate() (read once the observer has had its turn: the suite's). */
    get gcMs() {
      gcObserver.disconnect();
      let ms = 0;
      for (const { startTime, duration } of gcPauses) {
        for (const [from, to] of windows)
          ms += Math.max(0, Math.min(to, startTime + duration) - Math.max(from, startTime));
      }
      return ms;
    },
    loadStartedAt,
    loadMs,
    loadCpuMs,
    activateMs,
    cpuMs,
    returnedPromise: typeof (api && api.then) === 'function',
    profile: profile?.calls,
  };
  // in ExtensionMode.Test activate() answers a promise of the test API (its code is loaded then)
  globalThis.__flowsyncBenchServicesMade = Promise.resolve(api).then(servicesMade);
  return api;
};

/**
 * When the services exist (the test API's registry fires its first change once start() has loaded their chunk and
 * made them, after activate() returned): the time and thread CPU from the start of the code load to then, so the
 * bench also shows what a start costs until the services are there, not only until activate() returns. Resolves
 * to undefined when there is no test API to watch (or nothing happens within 10 s).
 */
function servicesMade(api) {
  const services = api && api.services;
  if (!services || typeof services.onDidChange !== 'function') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), 10_000);
    const done = () => {
      clearTimeout(timer);
      resolve({
        madeMs: performance.now() - started,
        madeCpuMs: loadCpu0 === undefined ? undefined : threadCpu() - loadCpu0,
      });
    };
    if (services.all.length) return done(); // made inside activate() (before the registry loaded them on its own)
    const subscription = services.onDidChange(() => {
      subscription.dispose();
      done();
    });
  });
}

/** Starts V8's sampling profiler when asked to (see above); returns { stop() }, which writes the profile. */
function readCpuProfileRequest() {
  const request = path.join(__dirname, 'bench-cpuprofile.json');
  if (!fs.existsSync(request)) return undefined;
  const { dir } = JSON.parse(fs.readFileSync(request, 'utf8'));
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 50 });
  session.post('Profiler.start');
  return {
    stop() {
      session.post('Profiler.stop', (error, result) => {
        if (!error) fs.writeFileSync(path.join(dir, `start-${Date.now()}.cpuprofile`), JSON.stringify(result.profile));
        session.disconnect();
      });
    },
  };
}

/**
 * CPU time of this thread in ms (Node 23.9+: the rig's extension host runs Node 24), or undefined. Unlike the wall
 * time, it leaves out the time the thread waited while the browser and the server had the machine's two cores.
 */
function threadCpu() {
  if (typeof process.threadCpuUsage !== 'function') return undefined;
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

function wrapApi() {
  const vscode = require('vscode');
  const state = { active: true, calls: {} };
  for (const ns of ['window', 'commands', 'workspace', 'lm', 'l10n', 'env', 'languages', 'extensions']) {
    const target = vscode[ns];
    if (!target) continue;
    for (const key of Object.keys(target)) {
      const fn = target[key];
      if (typeof fn !== 'function' || /^[A-Z]/.test(key)) continue;
      try {
        target[key] = function (...args) {
          if (!state.active) return fn.apply(this, args);
          const t = performance.now();
          try {
            return fn.apply(this, args);
          } finally {
            const name = `${ns}.${key}`;
            const entry = (state.calls[name] ??= { count: 0, ms: 0 });
            entry.count++;
            entry.ms += performance.now() - t;
          }
        };
      } catch {
        // a read-only member: left untimed
      }
    }
  }
  return state;
}

module.exports.deactivate = function deactivate() {
  return real.deactivate && real.deactivate();
};
