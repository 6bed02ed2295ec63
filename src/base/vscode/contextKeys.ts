import * as vscode from 'vscode';

/**
 * Sets VS Code context keys (read by `when` clauses in package.json), each only when its value changes: every set is
 * a message to the workbench. A key not set yet counts as false, as it reads in a `when` clause.
 */
export class ContextKeys {
  private readonly values = new Map<string, string | boolean>();

  async set(key: string, value: string | boolean): Promise<void> {
    const previous = this.values.get(key) ?? false;
    this.values.set(key, value);
    if (previous !== value) await vscode.commands.executeCommand('setContext', key, value);
  }
}
