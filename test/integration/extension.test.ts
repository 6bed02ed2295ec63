import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, activateExtension } from './helpers';

describe('Flow Sync Explorer extension', () => {
  it('is present', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not among ${vscode.extensions.all.map((e) => e.id).join(', ')}`);
  });

  it('activates', async () => {
    const ext = await activateExtension();
    assert.equal(ext.isActive, true);
  });

  it('registers flowsync.showLog', async () => {
    await activateExtension();
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('flowsync.showLog'), 'flowsync.showLog is not registered');
  });

  it('runs flowsync.showLog without error', async () => {
    await activateExtension();
    await vscode.commands.executeCommand('flowsync.showLog');
  });
});
