import * as vscode from 'vscode';
import { hurryClock, systemClock, type Clock, type HurryClock } from '../clock';

/**
 * The extension's clock: in ExtensionMode.Test one whose timers a test can run before their time (a retry's wait), the
 * test API's `clock`; else the system's. `now`: its time (what the views and commands read).
 */
export function extensionClock(mode: vscode.ExtensionMode): { clock: Clock; now: () => number; hurried?: HurryClock } {
  if (mode !== vscode.ExtensionMode.Test) return { clock: systemClock, now: () => systemClock.now() };
  const hurried = hurryClock(systemClock);
  return { clock: hurried, now: () => hurried.now(), hurried };
}
