import * as vscode from 'vscode';
import type { IconSpec } from '../icons';

/** An icon of the theme, in its colour when it has one. */
export function themeIcon(spec: IconSpec): vscode.ThemeIcon {
  return new vscode.ThemeIcon(spec.id, spec.color ? new vscode.ThemeColor(spec.color) : undefined);
}
