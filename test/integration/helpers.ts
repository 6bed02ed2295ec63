/**
 * Helpers for integration tests (they run inside the VS Code extension host).
 *
 *   const ext = await activateExtension();
 *   const mock = await startMockApi();            // the embedded mock API, in-process; close it in after()
 *   await withSettings({ 'flowsync.baseUrl': mock.url }, async () => { ... });
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { MockFlowSyncServer, MockServerOptions } from '../../src/mock/server';

export const EXTENSION_ID = 'flowsync-tools.flowsync-explorer';

/** The extension under test, activated. */
export async function activateExtension(): Promise<vscode.Extension<unknown>> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  if (!ext.isActive) await ext.activate();
  assert.equal(ext.isActive, true, `extension ${EXTENSION_ID} did not activate`);
  return ext;
}

/** Starts the embedded Flow Sync mock API in this process (port 0: a free port). */
export async function startMockApi(options: MockServerOptions = {}): Promise<MockFlowSyncServer> {
  return MockFlowSyncServer.start({ port: 0, ...options });
}

/** Sets (global) settings for the duration of `fn`, then restores the previous values. */
export async function withSettings<T>(values: Record<string, unknown>, fn: () => Promise<T>, section?: string): Promise<T> {
  const config = vscode.workspace.getConfiguration(section);
  const previous = Object.keys(values).map((key) => [key, config.inspect(key)?.globalValue] as const);
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
  try {
    return await fn();
  } finally {
    for (const [key, value] of previous) await config.update(key, value, vscode.ConfigurationTarget.Global);
  }
}

/** Polls `check` until it returns a truthy value (or throws after `timeoutMs`). */
export async function waitFor<T>(check: () => T | Promise<T>, { timeoutMs = 10000, intervalMs = 50, message = 'condition' } = {}): Promise<T> {
  const until = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > until) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${message}${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
