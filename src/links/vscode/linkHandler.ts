import * as vscode from 'vscode';
import { onFirstUse } from '../../base/onFirstUse';
import type { LinkDeps, SayLink } from './answerLink';
import { showMessageWithAction } from '../../base/vscode/messages';

/**
 * Answers links such as vscode://flowsync-tools.flowsync-explorer/sync?id=1003 and …/connection?id=5: reveals the item
 * in its view (loading the list if needed), selects it and opens it as JSON. A link carries only a row prefix and an
 * id: it never carries, reads or changes the service URL, the key or any setting; anything else in it is ignored.
 * Any web page or program can open a link, and VS Code asks the person only once per extension: so a link sends no
 * more requests than automatic refresh would (Explorer.refreshIfDue) and never repeats its own text.
 */
export class LinkHandler implements vscode.UriHandler {
  /** The answering (answerLink.ts, its own chunk: esbuild.js CHUNKS), loaded on the first link. */
  private readonly answers = onFirstUse(() => import('./answerLink'));

  /** `told`: how an answer is told (in ExtensionMode.Test the test API's, which keeps its text; else sayLinkAnswer). */
  constructor(
    private readonly deps: LinkDeps,
    private readonly told?: PromiseLike<{ readonly say: SayLink }>,
  ) {}

  async handleUri(uri: vscode.Uri): Promise<void> {
    // A link that opens VS Code arrives before the services are made (ServiceRegistry.whenMade), and waits for them.
    const [{ answerLink }, , told] = await Promise.all([this.answers.get(), this.deps.services.whenMade(), this.told]);
    await answerLink(uri, this.deps, told?.say ?? sayLinkAnswer);
  }
}

/** Tells a link's answer as a notification: `message`, with a button running `command` when there is one. */
export const sayLinkAnswer: SayLink = (level, message, action, command) => {
  if (action && command) showMessageWithAction(level, message, action, command);
  else {
    void (level === 'warning'
      ? vscode.window.showWarningMessage(message)
      : vscode.window.showInformationMessage(message));
  }
};

/**
 * The way out to the service's own web pages (Open in Browser): VS Code's openExternal, which asks the person before
 * it opens a site they have not trusted; `way`: the test API's instead, in ExtensionMode.Test (it keeps the addresses
 * asked for).
 */
export class BrowserOpener {
  constructor(private readonly way?: PromiseLike<{ open(url: string): Promise<boolean> }>) {}

  async open(url: string): Promise<boolean> {
    const way = await this.way;
    return way ? way.open(url) : vscode.env.openExternal(vscode.Uri.parse(url, true));
  }
}
