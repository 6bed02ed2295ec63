// A workbench window that nobody drives through its page: headless Chromium on the DevTools protocol's pipe, without
// Playwright, for the suites that drive the extension host and need of the window only that it is open, its log and
// its exit code (the integration suite and Restricted Mode: test/rig/run-integration.mjs).
//
// Why not Playwright there: it attaches every domain it may need to every page, the Network domain among them, and so
// receives a copy of every WebSocket frame between the workbench and code-server (each settings change alone sends the
// whole configuration, about 225 KB, 175 times a run), and every console call of the workbench's trace-level log, in
// Node. Measured, the integration suite alone: Playwright's Node process 11.7 s of CPU and Chromium's browser process
// 15.5 s of a 91 s total (docs/performance.md, "The integration suite without Playwright"). Here the browser sends
// only what the page hands a binding: the smoke-test driver's log lines and exit code, console errors and warnings,
// uncaught errors.
//
// The protocol over the pipe: JSON messages ended by a NUL byte, written to the browser's fd 3, read from its fd 4
// (`--remote-debugging-pipe`). Commands to a page go through a flat session (Target.attachToTarget, flatten).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { format } from 'node:util';
import { BROWSER_ARGS, workbenchLog } from './codeServer.mjs';
import { RIG_DIR, xdgEnv } from './prepare.mjs';
import { onInterrupt, stopGroup, trackGroup } from './processes.mjs';

/**
 * The switches of a headless Chromium that runs a workbench unwatched: the rig's own (BROWSER_ARGS, as every window
 * has them), and those Playwright adds for the same ends.
 */
const SWITCHES = [
  '--headless',
  '--remote-debugging-pipe',
  ...BROWSER_ARGS,
  '--no-default-browser-check',
  '--disable-extensions',
  '--disable-default-apps',
  '--disable-breakpad',
  '--disable-field-trial-config',
  '--disable-hang-monitor',
  '--disable-popup-blocking',
  '--disable-prompt-on-repost',
  '--disable-ipc-flooding-protection',
  // The workbench keeps its timers and its work behind the blank page in front of it (see openPipeWindow).
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--password-store=basic',
  '--use-mock-keychain',
  '--metrics-recording-only',
  '--mute-audio',
  '--hide-scrollbars',
  '--force-color-profile=srgb',
  '--force-device-scale-factor=1',
];

/** How long a command to the browser may go unanswered (a hung page): then it fails, and the run goes on to its end. */
const COMMAND_TIMEOUT_MS = 30_000;

/** The binding the page calls with one JSON string; what the page script below defines around it. */
const BINDING = '__flowsyncRig';

/**
 * Run in the page before any of its own scripts: the smoke-test driver's two functions, and console errors, warnings
 * and uncaught errors, each handed to the binding as one JSON string. An Error keeps its message and stack (the log's
 * readers, and the sentinel check, read both). `quiet`: the console says nothing itself (with the Runtime domain on,
 * each of its calls would be a message over the pipe; the smoke-test driver hands every line of the workbench's log to
 * codeAutomationLog already, and nobody watches this console), unless a person watches (RIG_HEADED).
 */
function pageScript({ quiet }) {
  return `(() => {
  const binding = globalThis[${JSON.stringify(BINDING)}];
  delete globalThis[${JSON.stringify(BINDING)}];
  const plain = (value) => {
    try {
      return JSON.parse(JSON.stringify(value, (_key, v) =>
        v instanceof Error ? { __error: true, name: v.name, message: v.message, stack: v.stack } : v));
    } catch {
      return String(value);
    }
  };
  // Each value on its own: one that cannot be written as JSON (a cycle) leaves the others as they are.
  const each = (args) => (Array.isArray(args) ? args.map(plain) : plain(args));
  const send = (kind, data) => {
    try { binding(JSON.stringify([kind, data])); } catch { /* the page is going away */ }
  };
  const quiet = ${quiet};
  // The smoke-test driver's functions in the workbench's own frame only: a frame inside it (a webview) has none.
  if (window === window.top) {
    globalThis.codeAutomationLog = (type, args) => send('log', [String(type), each(args)]);
    globalThis.codeAutomationExit = (code) => send('exit', plain(code));
  }
  for (const [method, type] of [['error', 'error'], ['warn', 'warning']]) {
    const original = console[method];
    console[method] = function (...args) {
      send('console', [type, each(args)]);
      if (!quiet) return original.apply(this, args);
    };
  }
  if (quiet) for (const method of ['log', 'info', 'debug', 'trace', 'dir', 'table']) console[method] = () => {};
  addEventListener('error', (event) => send('pageerror', plain(event.error ?? event.message)));
  addEventListener('unhandledrejection', (event) => send('pageerror', plain(event.reason)));
})();`;
}

/** A value the page sent back as it was: an Error again where the page had one. */
function revive(value) {
  if (Array.isArray(value)) return value.map(revive);
  if (value && typeof value === 'object') {
    if (value.__error === true) {
      const error = new Error(String(value.message ?? ''));
      error.name = String(value.name ?? 'Error');
      if (typeof value.stack === 'string') error.stack = value.stack;
      return error;
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v)]));
  }
  return value;
}

/** The DevTools protocol over a browser's pipe: `send` a command (to a session), `on` an event. */
class PipeConnection {
  #nextId = 1;
  #pending = new Map();
  #listeners = new Map();
  #buffered = '';
  #closed = false;

  constructor(input, output) {
    this.input = input;
    output.setEncoding('utf8');
    output.on('data', (chunk) => this.#read(chunk));
    output.on('close', () => this.#close(new Error('the browser closed its DevTools pipe')));
    output.on('error', (error) => this.#close(error));
    input.on('error', (error) => this.#close(error));
  }

  /** A command; rejected when the browser has not answered within `timeoutMs` (a hung page answers nothing). */
  send(method, params = {}, sessionId, timeoutMs = COMMAND_TIMEOUT_MS) {
    if (this.#closed) return Promise.reject(new Error(`${method}: the browser is gone`));
    const id = this.#nextId++;
    const message = JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${method}: no answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      const done = (settle) => (value) => {
        clearTimeout(timer);
        settle(value);
      };
      this.#pending.set(id, { resolve: done(resolve), reject: done(reject), method });
      this.input.write(message + '\0');
    });
  }

  on(method, listener) {
    this.#listeners.set(method, [...(this.#listeners.get(method) ?? []), listener]);
  }

  #read(chunk) {
    this.#buffered += chunk;
    let end;
    while ((end = this.#buffered.indexOf('\0')) >= 0) {
      const text = this.#buffered.slice(0, end);
      this.#buffered = this.#buffered.slice(end + 1);
      let message;
      try {
        message = JSON.parse(text);
      } catch {
        continue;
      }
      if (message.id !== undefined) {
        const pending = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.error) pending?.reject(new Error(`${pending.method}: ${message.error.message}`));
        else pending?.resolve(message.result);
      } else {
        for (const listener of this.#listeners.get(message.method) ?? []) listener(message.params, message.sessionId);
      }
    }
  }

  #close(error) {
    if (this.#closed) return;
    this.#closed = true;
    for (const { reject } of this.#pending.values()) reject(error);
    this.#pending.clear();
  }
}

/**
 * Opens the workbench at `url` in a headless Chromium of its own, a blank page in front of it (unless RIG_HEADED):
 * nobody looks at this window, and a page behind another is not drawn (measured, the integration suite: 110.7 -> 94.5
 * s of CPU, the GPU process 5.7 -> 0.6 s); the switches above keep its timers running. Every log line goes to a file
 * under .vscode-test/logs/ and to `onLog(line, { fromTests })` (codeServer.mjs, workbenchLog).
 * @returns {Promise<{ logFile: string, exitCode: Promise<number>, screenshot(file: string): Promise<void>, close(): Promise<void> }>}
 */
export async function openPipeWindow({ rig, url, name, onLog, viewport = { width: 1400, height: 900 } }) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), `flowsync-${name}-browser-`));
  // RIG_HEADED=1: a person is watching; the window is shown, the workbench in front.
  const headed = Boolean(process.env.RIG_HEADED);
  const switches = headed ? SWITCHES.filter((s) => s !== '--headless') : SWITCHES;
  const child = spawn(
    rig.browser,
    [...switches, `--user-data-dir=${profile}`, `--window-size=${viewport.width},${viewport.height}`, 'about:blank'],
    {
      detached: true, // a process group of its own: stopped whole, whatever it started
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...xdgEnv(path.join(RIG_DIR, 'runs', 'browser-xdg')) },
    },
  );
  // The browser's profile goes with this process however it ends (a crash of the launcher included).
  const removeProfile = () => fs.rmSync(profile, { recursive: true, force: true });
  process.once('exit', removeProfile);
  const spawned = new Promise((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) => reject(new Error(`${rig.browser} did not start: ${error.message}`)));
  });
  await spawned.catch((error) => {
    process.removeListener('exit', removeProfile);
    removeProfile();
    throw error;
  });
  trackGroup(child.pid, 'chromium');
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const log = workbenchLog(name, onLog);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    unregister();
    await Promise.race([cdp.send('Browser.close').catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
    await stopGroup(child.pid, 1000);
    await log.end();
    process.removeListener('exit', removeProfile);
    removeProfile();
  };
  const unregister = onInterrupt(close);
  const cdp = new PipeConnection(child.stdio[3], child.stdio[4]);
  child.on('exit', (code, signal) => {
    if (!closed)
      log.ended(1, `[browser] exited (${signal ?? code}) ${stderr.trim().split('\n').slice(-5).join(' | ')}`);
  });

  /** The workbench page's session (every command to it, and what its listeners below take as its own). */
  let sessionId;
  /** The workbench's top frame (its target's id). */
  let workbenchFrame;
  try {
    // What the browser itself says of the page (a resource that failed to load, a frame's sandbox), as Playwright's
    // console events carried it.
    cdp.on('Log.entryAdded', ({ entry }) => {
      log.file(`[console.${entry.level}] ${entry.text}`);
    });
    // The frames of other origins (webviews) are targets of their own: their console errors and warnings, as the page's.
    cdp.on('Target.attachedToTarget', ({ sessionId: child }) => {
      void cdp.send('Runtime.enable', {}, child).catch(() => {});
      void cdp.send('Runtime.runIfWaitingForDebugger', {}, child).catch(() => {});
    });
    cdp.on('Runtime.consoleAPICalled', ({ type, args }, from) => {
      if (from === sessionId || (type !== 'error' && type !== 'warning')) return;
      const text = args.map((a) => (a.value !== undefined ? String(a.value) : (a.description ?? a.type))).join(' ');
      log.file(`[console.${type}] ${text}`);
    });
    cdp.on('Runtime.exceptionThrown', ({ exceptionDetails }, from) => {
      if (from === sessionId) return;
      log.file(`[pageerror] ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    });
    // The workbench frame's own context (Runtime.enable names it): the smoke-test driver's log and exit count only from
    // there, not from a frame inside the page that calls the binding itself.
    const topContexts = new Set();
    cdp.on('Runtime.executionContextCreated', ({ context }, from) => {
      if (from === sessionId && context.auxData?.isDefault && context.auxData.frameId === workbenchFrame)
        topContexts.add(context.id);
    });
    cdp.on('Runtime.bindingCalled', ({ name: called, payload, executionContextId }, from) => {
      if (called !== BINDING || from !== sessionId) return;
      let kind;
      let data;
      try {
        [kind, data] = JSON.parse(payload);
      } catch {
        return;
      }
      data = revive(data);
      if ((kind === 'log' || kind === 'exit') && !topContexts.has(executionContextId)) {
        log.file(`[rig] a ${kind} from a frame inside the workbench, not taken: ${String(data).slice(0, 200)}`);
        return;
      }
      if (kind === 'log') log.automationLog(...(Array.isArray(data) ? data : [undefined, data]));
      else if (kind === 'exit') log.automationExit(data);
      else if (kind === 'console') {
        const [type, args] = data;
        log.file(`[console.${type}] ${format(...(Array.isArray(args) ? args : [args]))}`);
      } else if (kind === 'pageerror') log.file(`[pageerror] ${data instanceof Error ? data.message : String(data)}`);
    });
    // A context of its own, as Playwright's: its storage (the secrets code-server keeps in the browser among it) is
    // kept in memory, never in the profile folder.
    const { browserContextId } = await cdp.send('Target.createBrowserContext');
    const workbench = await cdp.send('Target.createTarget', { url: 'about:blank', browserContextId });
    workbenchFrame = workbench.targetId;
    ({ sessionId } = await cdp.send('Target.attachToTarget', { targetId: workbench.targetId, flatten: true }));
    // A binding calls back only while the Runtime domain is on, and a script runs on a new document only while the Page
    // domain is: both on, and the page's console quiet but for what the script hands the binding (pageScript).
    await cdp.send('Runtime.enable', {}, sessionId);
    await cdp.send('Page.enable', {}, sessionId);
    await cdp.send('Runtime.addBinding', { name: BINDING }, sessionId);
    // The window has the focus, as Playwright's pages have it: behind the blank page it would not, and the extension
    // polls a window without the focus less often (the suite's tests of the refresh timing read the focused rate).
    await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true }, sessionId);
    await cdp.send('Log.enable', {}, sessionId);
    await cdp.send(
      'Target.setAutoAttach',
      { autoAttach: true, waitForDebuggerOnStart: false, flatten: true },
      sessionId,
    );
    await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: pageScript({ quiet: !headed }) }, sessionId);
    const navigated = await cdp.send('Page.navigate', { url }, sessionId);
    if (navigated.errorText) throw new Error(`${url} did not load: ${navigated.errorText}`);
    const front = () => cdp.send('Page.bringToFront', {}, sessionId, 15_000);
    if (!headed) {
      const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank', browserContextId });
      const blank = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
      await cdp.send('Page.bringToFront', {}, blank.sessionId);
    }
    return {
      logFile: log.logFile,
      exitCode: log.exitCode,
      /** The workbench brought to the front and its page saved as a PNG in `file` (a suite that timed out). */
      async screenshot(file) {
        await front();
        const { data } = await cdp.send('Page.captureScreenshot', { format: 'png' }, sessionId, 15_000);
        fs.writeFileSync(file, Buffer.from(data, 'base64'));
      },
      close,
    };
  } catch (error) {
    await close();
    throw new Error(
      `${error.message}${stderr ? `\n  the browser said: ${stderr.trim().split('\n').slice(-5).join('\n  ')}` : ''}`,
      { cause: error },
    );
  }
}
