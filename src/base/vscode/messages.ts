import * as vscode from 'vscode';
import type { CommandId } from '../commandIds';

/**
 * Shows a message with one button that runs a command. Does not wait for the answer: a notification left open must
 * not keep a command (or a keybinding's chain) pending.
 */
export function showMessageWithAction(
  level: 'info' | 'warning' | 'error',
  message: string,
  action: string,
  command: CommandId,
): void {
  const show =
    level === 'error'
      ? vscode.window.showErrorMessage
      : level === 'warning'
        ? vscode.window.showWarningMessage
        : vscode.window.showInformationMessage;
  void show(message, action).then((choice) => {
    if (choice === action) void vscode.commands.executeCommand(command);
  });
}
