import * as vscode from 'vscode';
import type { Item } from '../../api/types';
import { inert } from '../../base/inert';
import { serviceName } from '../../base/serviceSet';
import { ANY_LISTS, listById, type ListId } from '../../lists';
import { t } from '../../base/l10n';
import type { JsonService, JsonTarget } from './jsonDocuments';
import type { JsonDocuments } from './jsonDocuments';
import { chosenNodes, type ExplorerNode } from '../../lists/vscode/chosenRows';
import type { ListViews } from '../../lists/vscode/listView';
import type { HistoryEntry } from '../../history/index';
import { isHistoryNode, type HistoryNode } from '../../history/historyNode';
import { PickRows, pickSegment } from '../../filter/pickRows';
import { pickRow } from '../../filter/vscode/rowPick';

/** What Open as JSON, Copy ID and Copy Link use. */
export interface JsonCommandDeps {
  /** The views: the rows chosen (the selection), the service and grouping of a row. */
  readonly views: ListViews;
  readonly json: Pick<JsonDocuments, 'open'>;
  readonly services: {
    readonly all: readonly Pick<JsonService, 'id' | 'name' | 'explorer'>[];
    readonly several: boolean;
    byId(id: string): { readonly name?: string } | undefined;
  };
  /** This extension's id (publisher.name): the authority of its links. */
  readonly extensionId: string;
}

/** What a tree node stands for: an item, or a group (its items) under the view's current grouping. */
function targetOf(views: ListViews, node: ExplorerNode): JsonTarget {
  const list = node.list as ListId;
  const service = views[list].serviceOf(node);
  if (node.kind === 'leaf') return { list, kind: 'item', id: node.item.value.id, service };
  return { list, kind: 'group', grouping: views[list].currentArrangement.groupBy, key: node.group.key, service };
}

/** The History rows (syncs that left processing) among the rows given. */
function historyEntries(
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Array<{ entry: HistoryEntry; service: string }> {
  const rows = nodes?.length ? nodes : node ? [node] : [];
  return rows.flatMap((row) => {
    if (!isHistoryNode(row) || row.kind === 'historyService') return [];
    const entries = row.kind === 'historyEntry' ? [row.entry] : row.group.entries;
    return entries.map((entry) => ({ entry, service: row.service }));
  });
}

/** The items of rows: an item row stands for its item, a group row for its items. */
function itemIds(rows: readonly ExplorerNode[]): number[] {
  const ids = rows.flatMap((row) =>
    row.kind === 'leaf' ? [row.item.value.id] : row.group.items.map((i) => i.value.id),
  );
  return [...new Set(ids)];
}

/** Open as JSON: the rows given (menu), else the selection, else a quick pick; several rows open as one array. */
export async function openJson(
  deps: JsonCommandDeps,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Promise<void> {
  const left = historyEntries(node, nodes)[0];
  if (left) {
    await deps.json.open({
      list: 'processing',
      kind: 'history',
      id: left.entry.id,
      leftAt: left.entry.leftAt,
      service: left.service,
    });
    return;
  }
  const rows = chosenNodes(deps.views, node, nodes);
  let target: JsonTarget | undefined;
  if (rows.length === 1) target = targetOf(deps.views, rows[0]);
  else if (rows.length > 1) {
    // Several rows open as one document of the first row's list and service.
    const list = rows[0].list as ListId;
    const service = deps.views[list].serviceOf(rows[0]);
    target = {
      list,
      kind: 'items',
      ids: itemIds(rows.filter((r) => r.list === list && deps.views[list].serviceOf(r) === service)),
      service,
    };
  } else target = await pickItem(deps);
  if (target) await deps.json.open(target);
}

/** Asks which loaded item to open (every list of every service): a pick of loaded rows (pickRow), bounded however much is loaded. */
async function pickItem(deps: JsonCommandDeps): Promise<JsonTarget | undefined> {
  type Row = { label: string; description: string; section: string; target: JsonTarget };
  const segments = deps.services.all.flatMap((service) => {
    const name = serviceName(deps.services, service);
    const named = name === undefined ? '' : `${name} · `;
    return ANY_LISTS.map((list) =>
      pickSegment({
        items: (service.explorer.refresher(list.id as ListId).state.items ?? []) as readonly Item<{ id: number }>[],
        // Quick picks render $(icon) syntax: every service text in them is inert.
        row: ({ value }): Row => ({
          label: `$(${list.pick.icon}) ${inert(list.pick.label(value))}`,
          description: inert(list.pick.description(value)),
          section: `${named}${list.pick.title()}`,
          target: { list: list.id as ListId, kind: 'item', id: value.id, service: service.id },
        }),
        id: ({ value }) => value.id,
        otherId: ({ value }) => list.pick.otherId(value),
        name: ({ value }) => list.pick.name(value),
        otherName: ({ value }) => list.pick.otherName(value),
      }),
    );
  });
  const picked = await pickRow(new PickRows(segments), {
    title: t('Open as JSON'),
    placeholder: t('Choose a flow sync or connection'),
    nothing: () =>
      void vscode.window.showInformationMessage(t('Nothing is loaded yet. Open the Flow Sync views or refresh first.')),
  });
  return picked?.target;
}

/** Copy ID: the id of every chosen row (a group row: its key), one per line. */
export async function copyId(
  deps: JsonCommandDeps,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Promise<void> {
  const rows = chosenNodes(deps.views, node, nodes);
  const entries = historyEntries(node, nodes);
  if (!rows.length && !entries.length) {
    void vscode.window.showInformationMessage(t('Select a flow sync or connection first.'));
    return;
  }
  const ids = [
    ...rows.map((row) => (row.kind === 'leaf' ? String(row.item.value.id) : String(row.group.key))),
    ...entries.map((e) => String(e.entry.id)),
  ];
  await vscode.env.clipboard.writeText(ids.join('\n'));
  vscode.window.setStatusBarMessage(
    ids.length === 1 ? t('Copied ID {0}', inert(ids[0])) : t('Copied {0} IDs', ids.length),
    3000,
  );
}

/** The link that reveals an item (vscode://<extension id>/<row prefix>?id=N, and &service=<name> with several services): never a URL or key. */
function linkOf(
  deps: Pick<JsonCommandDeps, 'services' | 'extensionId'>,
  list: ListId,
  id: number,
  service?: string,
): string {
  const name = service === undefined || deps.services.all.length < 2 ? undefined : deps.services.byId(service)?.name;
  const named = name === undefined ? '' : `&service=${encodeURIComponent(name)}`;
  return `${vscode.env.uriScheme}://${deps.extensionId}/${listById(list)!.rows.leafIdPrefix}?id=${id}${named}`;
}

/** Copy Link: a link to every chosen item row, one per line. */
export async function copyLink(
  deps: JsonCommandDeps,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Promise<void> {
  const rows = chosenNodes(deps.views, node, nodes).filter((row) => row.kind === 'leaf');
  if (!rows.length) {
    void vscode.window.showInformationMessage(t('Select a flow sync or connection first.'));
    return;
  }
  const links = rows.map((row) =>
    linkOf(
      deps,
      row.list as ListId,
      (row as Extract<ExplorerNode, { kind: 'leaf' }>).item.value.id,
      deps.views[row.list as ListId].serviceOf(row),
    ),
  );
  await vscode.env.clipboard.writeText(links.join('\n'));
  vscode.window.setStatusBarMessage(
    links.length === 1
      ? t(
          'Copied a link to {0}',
          listById(rows[0].list)!.itemName((rows[0] as Extract<ExplorerNode, { kind: 'leaf' }>).item.value.id),
        )
      : t('Copied {0} links', links.length),
    3000,
  );
}
