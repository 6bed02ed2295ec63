import * as vscode from 'vscode';

/**
 * The one way a hover (tooltip) is made: Markdown that is never trusted (no command links run), renders no HTML, and
 * renders theme icons only when asked for the extension's own `$(icon)`. Service text reaches it only escaped by
 * escapeMarkdown (src/base/format.ts), which leaves no link, autolink, icon or markup to render. A repository test
 * checks that no other file constructs a MarkdownString.
 */
export function markdownHover(markdown: string, themeIcons = false): vscode.MarkdownString {
  const hover = new vscode.MarkdownString(markdown, themeIcons);
  hover.isTrusted = false;
  hover.supportHtml = false;
  return hover;
}
