import type * as vscode from 'vscode';
import type { Clock } from '../../base/clock';
import { PollCoordinator, type SharedExplorer } from '../pollLease';
import { FileSharedStore } from './fileStore';

/**
 * One window's side of sharing for a service, on files in the extension's global storage. Its own chunk (esbuild.js
 * CHUNKS: sharing), loaded by lazySharing when the Explorer first polls or loads a polled list.
 */
export function createSharing(
  explorer: SharedExplorer,
  globalStorageUri: vscode.Uri,
  windowId: string,
  clock: Clock,
  log: (message: string) => void,
): PollCoordinator {
  return new PollCoordinator(explorer, new FileSharedStore(globalStorageUri), windowId, clock, log);
}
