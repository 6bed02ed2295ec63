import * as vscode from 'vscode';
import type { CommandId } from '../../base/commandIds';
import { onFirstUse } from '../../base/onFirstUse';
import type { LinkDeps } from './answerLink';
import { showMessageWithAction } from '../../base/vscode/messages';

/** How many of the last answers `said` keeps (for tests, like the notifications' texts). */
const SAID_KEPT = 20;

/**
 * Answers links such as vscode://flowsync-tools.flowsync-explorer/sync?id=1003 and …/connection?id=5: reveals the item
 * in its view (loading the list if needed), selects it and opens it as JSON. A link carries only a row prefix and an
 * id: it never carries, reads or changes the service URL, the key or any setting; anything else in it is ignored.
 * Any web page or program can open a link, and VS Code asks the person only once per extension: so a link sends no
 * more requests than automatic refresh would (Explorer.refreshIfDue) and never repeats its own text.
 */
export class LinkHandler implements vscode.UriHandler {
  /** The messages links were answered with, newest last (the last SAID_KEPT). */
  readonly said: string[] = [];
  /** The answering (answerLink.ts, its own chunk: esbuild.js CHUNKS), loaded on the first link. */
  private readonly answers = onFirstUse(() => import('./answerLink'));

  constructor(private readonly deps: LinkDeps) {}

  async handleUri(uri: vscode.Uri): Promise<void> {
    // A link that opens VS Code arrives before the services are made (ServiceRegistry.whenMade), and waits for them.
    const [{ answerLink }] = await Promise.all([this.answers.get(), this.deps.services.whenMade()]);
    await answerLink(uri, this.deps, (level, message, action, command) => this.say(level, message, action, command));
  }

  private say(level: 'info' | 'warning', message: string, action?: string, command?: CommandId): void {
    this.said.push(message);
    if (this.said.length > SAID_KEPT) this.said.shift();
    if (action && command) showMessageWithAction(level, message, action, command);
    else {
      void (level === 'warning'
        ? vscode.window.showWarningMessage(message)
        : vscode.window.showInformationMessage(message));
    }
  }
}

/**
 * The way out to the service's own web pages (Open in Browser): VS Code's openExternal, which asks the person before
 * it opens a site they have not trusted. It keeps the last addresses it was asked to open (never a key: an address is
 * a template of the user settings filled with a row's ids), which the tests read.
 */
export class BrowserOpener {
  /** The addresses asked for, newest last (the last SAID_KEPT). */
  readonly asked: string[] = [];
  /** Tests only: keep the address, open nothing. */
  holdBack = false;

  async open(url: string): Promise<boolean> {
    this.asked.push(url);
    if (this.asked.length > SAID_KEPT) this.asked.shift();
    if (this.holdBack) return false;
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  }
}
