import * as vscode from 'vscode';
import type { FlowSync, Item } from '../../api/types';
import { flowLabel } from '../../lists/grouping';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import type { Explorer } from '../../lists/explorer';
import { chosenNodes, type ExplorerNode } from '../../lists/vscode/chosenRows';
import type { ListViews } from '../../lists/vscode/listView';
import type { Settings, SettingsFeed } from '../../settings/settingsFeed';
import type { HistoryNode } from '../historyNode';
import { PickRows, pickSegment } from '../../filter/pickRows';
import { pickRow } from '../../filter/vscode/rowPick';
import type { HistoryService } from './historyService';

/** A service as History's commands see it: its id and name, its Explorer (what is processing) and its History. */
export interface HistoryCommandService {
  readonly id: string;
  readonly name?: string;
  readonly explorer: Explorer;
  readonly history: HistoryService;
}

/** The History view as a command run from the palette reads it: whether it is shown, the runs selected (HistoryView). */
export interface HistorySelection {
  readonly view: { readonly visible: boolean };
  readonly selection: readonly unknown[];
}

/** What the watch commands and Clear History use. */
export interface HistoryCommandDeps<S extends HistoryCommandService> {
  readonly services: { readonly all: readonly S[] };
  /** The views: the rows chosen (the selection), and how the Processing view groups them. */
  readonly views: ListViews;
  readonly settings: SettingsFeed<Settings>;
  /** The only service, or the one picked by name; undefined when cancelled. */
  pickService(title: string): Promise<S | undefined>;
}

/** A sync or flow of one service (by its id). */
type Watchable = { kind: 'sync' | 'flow'; id: number; service: string };

/** The syncs and flows among rows of the Processing view (a flow is a group row while it is grouped by flow). */
function watchables(views: ListViews, rows: readonly ExplorerNode[]): Watchable[] {
  const grouping = views.processing.currentArrangement.groupBy;
  return rows.flatMap((row): Watchable[] => {
    const service = views.processing.serviceOf(row);
    if (row.list !== 'processing' || service === undefined) return [];
    if (row.kind === 'leaf') return [{ kind: 'sync', id: row.item.value.id, service }];
    return grouping === 'flow' ? [{ kind: 'flow', id: Number(row.group.key), service }] : [];
  });
}

/** Asks which processing sync or flow (the palette without a selection). */
async function pickWatchable<S extends HistoryCommandService>(
  deps: HistoryCommandDeps<S>,
  title: string,
): Promise<Watchable[]> {
  const connection = await deps.pickService(title);
  if (!connection) return [];
  const service = connection.id;
  const items = (connection.explorer.lists.processing.state.items ?? []) as readonly Item<FlowSync>[];
  type Row = { label: string; description: string; section: string; target: Watchable };
  const flows = t('Flows');
  const syncs = t('Flow syncs');
  // A pick of loaded rows (pickRow): bounded however many syncs are processing.
  const picked = await pickRow(
    new PickRows([
      pickSegment({
        items,
        row: ({ value }): Row => ({
          label: `$(git-merge) ${inert(flowLabel(value))}`,
          description: t('every sync of this flow'),
          section: flows,
          target: { kind: 'flow', id: value.flow_id, service },
        }),
        id: ({ value }) => value.flow_id,
        name: ({ value }) => value.flow?.name,
        distinct: { among: 'flows', key: ({ value }) => value.flow_id },
      }),
      pickSegment({
        items,
        row: ({ value }): Row => ({
          label: `$(sync) #${value.id}`,
          description: inert(`${flowLabel(value)} · ${value.status}`),
          section: syncs,
          target: { kind: 'sync', id: value.id, service },
        }),
        id: ({ value }) => value.id,
        otherId: ({ value }) => value.flow_id,
        name: ({ value }) => value.flow?.name,
        otherName: ({ value }) => value.status,
      }),
    ]),
    { title, nothing: () => void vscode.window.showInformationMessage(t('No flow syncs are processing.')) },
  );
  return picked ? [picked.target] : [];
}

async function setWatch<S extends HistoryCommandService>(
  deps: HistoryCommandDeps<S>,
  on: boolean,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Promise<void> {
  let targets = watchables(deps.views, chosenNodes(deps.views, node, nodes));
  if (!targets.length) targets = await pickWatchable(deps, on ? t('Notify When Finished') : t('Stop Notifying'));
  if (!targets.length) return;
  for (const connection of deps.services.all) {
    for (const kind of ['sync', 'flow'] as const) {
      const ids = targets.filter((w) => w.kind === kind && w.service === connection.id).map((w) => w.id);
      if (ids.length) await connection.history.watch(kind, ids, on);
    }
  }
  if (on && deps.settings.current.notifyWhenFinished === 'off') {
    void vscode.window.showInformationMessage(
      t(
        'Notifications are off (flowsync.notifyWhenFinished): the watch is kept, but nothing is shown until you turn them on.',
      ),
    );
  } else {
    vscode.window.setStatusBarMessage(
      on ? t('You will be told when it is no longer processing.') : t('No longer watched.'),
      3000,
    );
  }
}

/** Notify When Finished: on a sync (until it leaves processing) or a flow (every sync, until removed). */
export const watch = <S extends HistoryCommandService>(
  deps: HistoryCommandDeps<S>,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
) => setWatch(deps, true, node, nodes);

export const unwatch = <S extends HistoryCommandService>(
  deps: HistoryCommandDeps<S>,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
) => setWatch(deps, false, node, nodes);

/** Clear History: every window's history of the current service, after asking. */
export async function clearHistory<S extends HistoryCommandService>(deps: HistoryCommandDeps<S>): Promise<void> {
  const service = await deps.pickService(t('Clear History'));
  if (!service) return;
  const origin = service.history.snapshot.origin;
  if (!origin) {
    void vscode.window.showInformationMessage(t('No Flow Sync service is set, so there is no history to clear.'));
    return;
  }
  const clear = t('Clear History');
  const answer = await vscode.window.showWarningMessage(
    t(
      'Clear the history of {0}? Typical durations and learned stuck thresholds start again.',
      inert(service.name ?? origin),
    ),
    { modal: true },
    clear,
  );
  if (answer === clear) await service.history.clear();
}
