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

describe('Where the extension runs (extensionKind; docs/behaviour.md "Where it runs")', () => {
  it('where it runs: the workspace side (a remote Node host under a web workbench in the rig; the local host on a desktop)', async () => {
    const ext = await activateExtension();
    const facts = {
      remoteName: vscode.env.remoteName ?? null,
      uiKind: vscode.UIKind[vscode.env.uiKind],
      appHost: vscode.env.appHost,
      platform: process.platform,
      node: typeof process.versions?.node,
      extensionKind: vscode.ExtensionKind[ext.extensionKind],
      extensionUri: ext.extensionUri.scheme,
    };
    console.log(`    where it runs: ${JSON.stringify(facts)}`);
    assert.deepEqual((ext.packageJSON as { extensionKind?: unknown }).extensionKind, ['workspace', 'ui']);
    // A Node extension host (process.platform, node: modules), never the browser's web worker, whatever the workbench
    assert.equal(facts.node, 'string');
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      // code-server (and a Codespace in the browser): a web workbench with a remote Node host, which VS Code prefers
      assert.ok(facts.remoteName, 'a web workbench running this extension in Node has a remote');
      assert.equal(ext.extensionKind, vscode.ExtensionKind.Workspace);
      assert.equal(facts.extensionUri, 'file', "the extension is on the remote machine's disk");
    } else {
      // Desktop: on the remote machine when there is one (workspace first), else in the window's own host
      const expected = facts.remoteName ? vscode.ExtensionKind.Workspace : vscode.ExtensionKind.UI;
      assert.equal(ext.extensionKind, expected);
    }
  });
});
