import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Flow Sync', { log: true });
  context.subscriptions.push(log, vscode.commands.registerCommand('flowsync.showLog', () => log.show(true)));
  log.info('Flow Sync Explorer activated');
}

export function deactivate(): void {}
