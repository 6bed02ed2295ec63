import * as vscode from 'vscode';
import { DisposableStore } from '../../base/events';
import type { Item } from '../../api/types';
import type { Explorer } from '../../lists/explorer';
import type { GroupKey } from '../../lists/grouping';
import { LISTS, listById, type ListId } from '../../lists';
import { t } from '../../base/l10n';
import { documentName } from '../documentName';
import { JSON_SCHEME } from '../jsonScheme';
import { eachService, serviceName, type ServiceSet } from '../../base/serviceSet';

/** Most items one "Open as JSON" of a selection shows (and carries in its document URI). */
const MAX_JSON_ITEMS = 1000;

/** What a JSON document shows: one item of a list, a group of it, or several selected items (as arrays). */
export type JsonTarget = JsonShown & {
  /** The service (by id); none: the first (the only one, unless there are several). */
  service?: string;
};

type JsonShown =
  | { list: ListId; kind: 'item'; id: number }
  | { list: ListId; kind: 'group'; grouping: string; key: GroupKey }
  | { list: ListId; kind: 'items'; ids: number[] }
  /** A sync that left processing: the last item seen (from History). */
  | { list: ListId; kind: 'history'; id: number; leftAt: number };

/** Where the last item of a sync that left processing comes from (History). */
interface HistoryItems {
  lastItem(id: number, leftAt: number): Readonly<Record<string, unknown>> | undefined;
}

/** A service whose items documents show: its lists and its History. */
export interface JsonService {
  readonly id: string;
  readonly name?: string;
  readonly explorer: Explorer;
  readonly history: HistoryItems;
}

/**
 * Read-only JSON documents of items exactly as the API returned them. Open documents follow refreshes; an item that
 * is no longer listed keeps its last content.
 */
export class JsonDocuments implements vscode.Disposable {
  private readonly lastContent = new Map<string, string>();
  private readonly disposables = new DisposableStore();

  /** With several services a document's title names its service. */
  constructor(
    private readonly services: ServiceSet<JsonService>,
    /** The content provider's change event (registered at start, before this code is loaded): an open document changed. */
    private readonly changed: Pick<vscode.EventEmitter<vscode.Uri>, 'fire'>,
  ) {
    this.disposables.add(
      // Each service's lists: an open document of one follows its refreshes.
      eachService(services, (service) => {
        const subscriptions = LISTS.map((list) =>
          service.explorer.refresher(list.id).onDidChange((c) => c.itemsChanged && this.fireOpen(list.id, service.id)),
        );
        return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.lastContent.delete(doc.uri.toString())),
    );
  }

  /** The document of a target; with several services its title starts with the service's name. */
  uri(target: JsonTarget): vscode.Uri {
    const service = target.service === undefined ? undefined : this.services.byId(target.service);
    return JsonDocuments.uri(target, service && serviceName(this.services, service));
  }

  static uri(target: JsonTarget, serviceName?: string): vscode.Uri {
    const list = listById(target.list)!;
    const query = new URLSearchParams({ list: target.list, kind: target.kind });
    if (target.service !== undefined) query.set('service', target.service);
    let title: string;
    if (target.kind === 'item') {
      title = list.json.itemTitle(target.id);
      query.set('id', String(target.id));
    } else if (target.kind === 'history') {
      title = t('Flow sync {0}, no longer processing', target.id);
      query.set('id', String(target.id));
      query.set('leftAt', String(target.leftAt));
    } else if (target.kind === 'group') {
      title = list.json.groupTitle(target.grouping, target.key);
      query.set('by', target.grouping);
      query.set('key', String(target.key));
    } else {
      const ids = target.ids.slice(0, MAX_JSON_ITEMS);
      title = list.json.itemsTitle(ids.length);
      query.set('ids', ids.join(','));
    }
    return vscode.Uri.from({ scheme: JSON_SCHEME, path: documentName(title, serviceName), query: query.toString() });
  }

  async open(target: JsonTarget): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(this.uri(target));
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const key = uri.toString();
    const target = parseTarget(uri);
    const value = target && this.lookup(target);
    if (value === undefined) return this.lastContent.get(key) ?? '{}\n';
    const content = `${JSON.stringify(value, null, 2)}\n`;
    this.lastContent.set(key, content);
    return content;
  }

  dispose(): void {
    this.disposables.dispose();
  }

  private serviceOf(target: JsonTarget): JsonService | undefined {
    return target.service === undefined ? this.services.all[0] : this.services.byId(target.service);
  }

  private lookup(target: JsonTarget): unknown {
    const list = listById(target.list);
    const service = this.serviceOf(target);
    if (!list || !service) return undefined;
    const items = (service.explorer.refresher(target.list).state.items ?? []) as readonly Item<{ id: number }>[];
    if (target.kind === 'item') return items.find((i) => i.value.id === target.id)?.raw;
    if (target.kind === 'history') return service.history.lastItem(target.id, target.leftAt);
    let members: Item<{ id: number }>[];
    if (target.kind === 'group') {
      const grouping = Object.hasOwn(list.arrangements.groupings, target.grouping)
        ? list.arrangements.groupings[target.grouping]
        : null;
      if (!grouping) return undefined;
      members = items.filter((i) => String(grouping.keyOf(i.value)) === String(target.key));
    } else {
      const wanted = new Set(target.ids);
      members = items.filter((i) => wanted.has(i.value.id));
    }
    return members.length ? members.map((i) => i.raw) : undefined;
  }

  private fireOpen(list: ListId, service: string): void {
    const first = this.services.all[0]?.id;
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme !== JSON_SCHEME) continue;
      const target = parseTarget(doc.uri);
      if (target?.list === list && (target.service ?? first) === service) this.changed.fire(doc.uri);
    }
  }
}

function parseTarget(uri: vscode.Uri): JsonTarget | undefined {
  const shown = parseShown(uri);
  const service = new URLSearchParams(uri.query).get('service');
  // A service id is the extension's own (an URL, a name): bounded, and only ever looked up, never shown.
  return shown && (service !== null && service.length <= 2048 ? { ...shown, service } : shown);
}

function parseShown(uri: vscode.Uri): JsonShown | undefined {
  const params = new URLSearchParams(uri.query);
  const list = listById(params.get('list') ?? '');
  if (!list) return undefined;
  const id = (text: string | null) => (text !== null && /^\d{1,16}$/.test(text) ? Number(text) : undefined);
  switch (params.get('kind')) {
    case 'item': {
      const itemId = id(params.get('id'));
      return itemId === undefined ? undefined : { list: list.id, kind: 'item', id: itemId };
    }
    case 'history': {
      const itemId = id(params.get('id'));
      const leftAt = id(params.get('leftAt'));
      return itemId === undefined || leftAt === undefined
        ? undefined
        : { list: list.id, kind: 'history', id: itemId, leftAt };
    }
    case 'group': {
      const grouping = params.get('by');
      const key = params.get('key');
      return grouping && key !== null ? { list: list.id, kind: 'group', grouping, key } : undefined;
    }
    case 'items': {
      const ids = (params.get('ids') ?? '')
        .split(',')
        .map(id)
        .filter((n): n is number => n !== undefined)
        .slice(0, MAX_JSON_ITEMS);
      return ids.length ? { list: list.id, kind: 'items', ids } : undefined;
    }
    default:
      return undefined;
  }
}
