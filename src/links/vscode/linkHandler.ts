import * as vscode from 'vscode';
import type { CommandContext } from '../../commands/vscode/commandContext';
import { COMMAND, type CommandId } from '../../base/commandIds';
import { ANY_LISTS, type ListId } from '../../lists';
import { t } from '../../base/l10n';
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

  constructor(private readonly ctx: CommandContext) {}

  async handleUri(uri: vscode.Uri): Promise<void> {
    // The answers are their own chunk (esbuild.js CHUNKS), loaded on the first link.
    const { invalidLinkMessage, notListedMessage, parseLink, unknownServiceMessage } = await import('../linkAnswers');
    const link = parseLink(uri.path, uri.query);
    const list = link && ANY_LISTS.find((l) => l.rows.leafIdPrefix === link.prefix);
    if (!link || !list) {
      this.say('warning', invalidLinkMessage());
      return;
    }
    const { id } = link;
    const { views, json, services } = this.ctx;
    // A link names its service by name (several services); without one it is for the first (the only one, mostly).
    const service = link.service === undefined ? services.all[0] : services.byName(link.service);
    if (!service) {
      this.say('warning', unknownServiceMessage());
      return;
    }
    const explorer = service.explorer;
    if (explorer.status !== 'ready') {
      const needsUrl = explorer.status === 'noUrl' || explorer.status === 'invalidUrl';
      this.say('info', t('Flow Sync is not set up yet, so the link cannot be opened.'), needsUrl ? t('Set Service URL') : t('Set API Key'), needsUrl ? COMMAND.setBaseUrl : COMMAND.setApiKey);
      return;
    }
    const listId = list.id as ListId;
    const view = views[listId];
    // Not loaded, or not in the data on screen (it may have appeared since): asked again only when a poll would be.
    const held = view.tree.findLeaf(service.id, id) ? undefined : await explorer.refreshIfDue(listId);
    if (!(await view.revealItem(id, service.id))) {
      const state = explorer.refresher(listId).state;
      const message = held === 'notReady' ? t('Flow Sync is not set up yet, so the link cannot be opened.') : notListedMessage(list.itemName(id), held, state);
      if (held === 'keyRefused') this.say('info', message, t('Set API Key'), COMMAND.setApiKey);
      else this.say('info', message);
      return;
    }
    await json.open({ list: listId, kind: 'item', id, service: service.id });
  }

  private say(level: 'info' | 'warning', message: string, action?: string, command?: CommandId): void {
    this.said.push(message);
    if (this.said.length > SAID_KEPT) this.said.shift();
    if (action && command) showMessageWithAction(level, message, action, command);
    else void (level === 'warning' ? vscode.window.showWarningMessage(message) : vscode.window.showInformationMessage(message));
  }
}
