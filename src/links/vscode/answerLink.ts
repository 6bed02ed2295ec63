import * as vscode from 'vscode';
import { COMMAND, type CommandId } from '../../base/commandIds';
import { ANY_LISTS, type ListId } from '../../lists';
import { t } from '../../base/l10n';
import {
  invalidFilterLinkMessage,
  invalidLinkMessage,
  notListedMessage,
  notReadyAnswer,
  parseLink,
  unknownServiceMessage,
} from '../linkAnswers';
import { parseViewLink } from '../../filter/filterTexts';
import { HISTORY_VIEW } from '../../history/vscode/historyView';
import type { Explorer } from '../../lists/explorer';
import type { ListViews } from '../../lists/vscode/listView';
import type { FilterView } from '../../filter/filterQuery';

/** A service as a link sees it: its id, its Explorer, and its first read of its key. */
export interface LinkService {
  readonly id: string;
  readonly explorer: Explorer;
  whenRead(): Promise<void>;
}

/** What a link is answered with. */
export interface LinkDeps {
  readonly services: {
    readonly all: readonly LinkService[];
    byName(name: string): LinkService | undefined;
    /** Resolves once the services are made (a link that opens VS Code arrives before). */
    whenMade(): Promise<void>;
    /** Resolves once the service has read its key for the first time, or after the keyring's timeout. */
    whenRead(service: LinkService): Promise<'read' | 'timeout'>;
  };
  readonly views: ListViews;
  /** Opens the item as JSON (the JSON documents: src/json/vscode/jsonDocuments.ts). */
  readonly json: { open(target: { list: ListId; kind: 'item'; id: number; service: string }): Promise<void> };
  /** The views' filters (src/find/vscode/findViews.ts), their code loaded on first use. */
  readonly find: { get(): Promise<{ setFromLink(view: FilterView, text: string): { problem?: string } }> };
}

/** How a link's answer is said (linkHandler.ts sayLinkAnswer: a notification). */
export type SayLink = (level: 'info' | 'warning', message: string, action?: string, command?: CommandId) => void;

/**
 * Answers one link (see LinkHandler): reveals the item in its view (loading the list if needed), selects it and opens
 * it as JSON, or says why not. Its own chunk (esbuild.js CHUNKS: links), loaded on the first link.
 */
export async function answerLink(uri: vscode.Uri, deps: LinkDeps, say: SayLink): Promise<void> {
  const viewLink = parseViewLink(uri.path, uri.query);
  if (viewLink) {
    await answerViewLink(viewLink, deps, say);
    return;
  }
  const link = parseLink(uri.path, uri.query);
  const list = link && ANY_LISTS.find((l) => l.rows.leafIdPrefix === link.prefix);
  if (!link || !list) {
    say('warning', invalidLinkMessage());
    return;
  }
  const { id } = link;
  const { views, json, services } = deps;
  // A link names its service by name (several services); without one it is for the first (the only one, mostly).
  const service = link.service === undefined ? services.all[0] : services.byName(link.service);
  if (!service) {
    say('warning', unknownServiceMessage());
    return;
  }
  const explorer = service.explorer;
  // A link that starts VS Code arrives before the service has read its key: it waits for that first read (at most the
  // keyring's timeout), so a service that is set up is never answered "not set up".
  const read = await services.whenRead(service);
  const status = read === 'timeout' ? 'keyringTimeout' : explorer.status;
  if (status !== 'ready') {
    const answer = notReadyAnswer(status);
    if (answer.action === undefined) say('warning', answer.message);
    else {
      say(
        'info',
        answer.message,
        answer.action === 'setBaseUrl' ? t('Set Service URL') : t('Set API Key'),
        COMMAND[answer.action],
      );
    }
    return;
  }
  const listId = list.id as ListId;
  const view = views[listId];
  // Not loaded, or not in the data on screen (it may have appeared since): asked again only when a poll would be.
  const held = view.tree.findLeaf(service.id, id) ? undefined : await explorer.refreshIfDue(listId);
  if (!(await view.revealItem(id, service.id))) {
    const state = explorer.refresher(listId).state;
    const message =
      held === 'notReady'
        ? t('Flow Sync is not set up yet, so the link cannot be opened.')
        : notListedMessage(list.itemName(id), held, state);
    if (held === 'keyRefused') say('info', message, t('Set API Key'), COMMAND.setApiKey);
    else say('info', message);
    return;
  }
  await json.open({ list: listId, kind: 'item', id, service: service.id });
}

/**
 * …/processing?filter=is%3Astuck (or /connections, /history): sets that view's filter (an empty one clears it) for
 * this session (it is not kept across restarts: keptFilters.ts) and shows the view. Nothing else: no setting, service or key changes, and no request is sent beyond what showing the
 * view sends anyway. A filter that does not read is refused without repeating it (a link's text is anybody's).
 */
async function answerViewLink(
  link: { view: 'processing' | 'connections' | 'history'; filter?: string },
  deps: LinkDeps,
  say: SayLink,
): Promise<void> {
  if (link.filter !== undefined) {
    const find = await deps.find.get();
    if (find.setFromLink(link.view, link.filter).problem !== undefined) {
      say('warning', invalidFilterLinkMessage());
      return;
    }
  }
  const viewId = link.view === 'history' ? HISTORY_VIEW : ANY_LISTS.find((l) => l.id === link.view)!.viewId;
  await vscode.commands.executeCommand(`${viewId}.focus`);
}
