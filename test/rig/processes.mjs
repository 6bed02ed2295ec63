// Keeps track of the process groups the rig started and stops them: on normal teardown, on test failure, on
// SIGINT/SIGTERM/SIGHUP, and (SIGKILL, synchronously) on process exit as a last resort.
import fs from 'node:fs';

const groups = new Map(); // pid -> label
const cleanups = new Set(); // async functions to run on a signal before the groups are killed
let installed = false;
let interruptedBy;

/** The signal that is stopping this process (SIGINT, ...), or undefined. */
export function interrupted() {
  return interruptedBy;
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal); // the whole group: code-server's extension host, file watcher, pty host, ...
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function install() {
  if (installed) return;
  installed = true;
  process.on('exit', () => {
    for (const pid of groups.keys()) killGroup(pid, 'SIGKILL');
  });
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    process.on(signal, () => {
      if (interruptedBy) return;
      interruptedBy = signal;
      console.error(`\n[rig] ${signal}: stopping ${groups.size} process group(s)`);
      const timer = setTimeout(() => process.exit(code), 5000);
      Promise.allSettled([...cleanups].map((fn) => fn()))
        .then(() => Promise.allSettled([...groups.keys()].map((pid) => stopGroup(pid))))
        .finally(() => {
          clearTimeout(timer);
          process.exit(code);
        });
    });
  }
}

/** Registers a detached child (its own process group) to be killed whatever happens; it gets this process's priority. */
export function trackGroup(pid, label) {
  install();
  groups.set(pid, label);
  shareSchedulingGroupNice(pid);
}

/**
 * A detached child is the first of a session of its own, and Linux schedules each session as one group (autogroup) at
 * the group's own nice, 0 unless set, whatever nice its processes have: `npm test`'s stages set their group's nice
 * (scripts/test-all.mjs: 5 for the UI suites), which without this would not cover the Chromium and code-server they
 * start (measured: each their own group at nice 0, as heavy as the unit tests' two workers together). Nothing on a
 * kernel without autogroups, or when this process's group is at 0.
 */
function shareSchedulingGroupNice(pid) {
  if (process.platform !== 'linux') return;
  try {
    const nice = Number(/\bnice (-?\d+)/.exec(fs.readFileSync('/proc/self/autogroup', 'utf8'))?.[1] ?? 0);
    if (nice !== 0) fs.writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch {
    // no autogroup, or the child is gone already
  }
}

/** Registers an async cleanup (closing the browser, the mock API, ...) to run on SIGINT/SIGTERM; returns an unregister function. */
export function onInterrupt(fn) {
  install();
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/** SIGTERM to the group, SIGKILL after `graceMs` if the leader is still there. */
export async function stopGroup(pid, graceMs = 3000) {
  if (!groups.has(pid) && !alive(pid)) return;
  killGroup(pid, 'SIGTERM');
  const until = Date.now() + graceMs;
  while (alive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  killGroup(pid, 'SIGKILL'); // also whatever the leader left behind in its group
  groups.delete(pid);
}
