import * as vscode from 'vscode';
import type { CommandContext } from './commands/context';
import { COMMAND } from './commandIds';
import { inert } from './core/inert';
import { ANY_LISTS, type ListId } from './lists';
import { t } from './l10n';
import { showMessageWithAction } from './views/messages';

/**
 * Answers links such as vscode://flowsync-tools.flowsync-explorer/sync?id=1003 and …/connection?id=5: reveals the item
 * in its view (loading the list if needed), selects it and opens it as JSON. A link carries only a row prefix and an
 * id: it never carries, reads or changes the service URL, the key or any setting; anything else in it is ignored.
 */
export class LinkHandler implements vscode.UriHandler {
  constructor(private readonly ctx: CommandContext) {}

  async handleUri(uri: vscode.Uri): Promise<void> {
    const prefix = uri.path.replace(/^\/+|\/+$/g, '').toLowerCase();
    const list = ANY_LISTS.find((l) => l.rows.leafIdPrefix === prefix);
    const idText = new URLSearchParams(uri.query).get('id') ?? '';
    if (!list || !/^\d{1,16}$/.test(idText)) {
      void vscode.window.showWarningMessage(t('Flow Sync cannot open this link ({0}): it should look like …/sync?id=1003 or …/connection?id=5.', inert(`${uri.path}?${uri.query}`, 80)));
      return;
    }
    const id = Number(idText);
    const { explorer, views, json } = this.ctx;
    if (explorer.status !== 'ready') {
      const needsUrl = explorer.status === 'noUrl' || explorer.status === 'invalidUrl';
      showMessageWithAction('info', t('Flow Sync is not set up yet, so the link cannot be opened.'), needsUrl ? t('Set Service URL') : t('Set API Key'), needsUrl ? COMMAND.setBaseUrl : COMMAND.setApiKey);
      return;
    }
    const listId = list.id as ListId;
    const view = views[listId];
    if (explorer.refresher(listId).state.loadedAt === undefined) await explorer.refresh(listId);
    // Not in the data on screen: it may have appeared since the last load.
    if (!view.tree.model.findLeaf(id)) await explorer.refresh(listId);
    if (!(await view.revealItem(id))) {
      void vscode.window.showInformationMessage(t('{0} is not in the list right now.', list.itemName(id)));
      return;
    }
    await json.open({ list: listId, kind: 'item', id });
  }
}
