import * as vscode from 'vscode';
import type { FlowSync, Item } from '../../api/types';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { flowLabel } from '../../lists/grouping';
import { chosenNodes, type ExplorerNode } from '../../lists/vscode/chosenRows';
import { entryFlowLabel } from '../entry';
import { MAX_PINS } from '../pins';
import type { HistoryCommandDeps, HistoryCommandService } from './historyCommands';
import { isHistoryNode, type HistoryNode } from './historyNodes';

/** A flow of one service (by its id). */
interface FlowOf {
  id: number;
  service: string;
}

/**
 * The flows of the rows a command acts on: a flow row of Processing (grouped by flow, an idle pinned flow too), a
 * sync's flow, a History run's flow.
 */
function chosenFlows<S extends HistoryCommandService>(
  deps: HistoryCommandDeps<S>,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): FlowOf[] {
  const rows = nodes?.length ? nodes : node ? [node] : [];
  const runs = rows.filter(isHistoryNode).flatMap((row) => (row.kind === 'historyEntry' ? [row] : []));
  if (runs.length) return runs.map((row) => ({ id: row.entry.flowId, service: row.service }));
  const views = deps.views;
  const grouping = views.processing.currentArrangement.groupBy;
  return chosenNodes(views, node, nodes).flatMap((row): FlowOf[] => {
    const service = views.processing.serviceOf(row);
    if (row.list !== 'processing' || service === undefined) return [];
    if (row.kind === 'leaf') return [{ id: (row.item.value as FlowSync).flow_id, service }];
    return grouping === 'flow' ? [{ id: Number(row.group.key), service }] : [];
  });
}

/** Asks which flow (the palette without a selection): those processing and those in History; to unpin, the pinned ones. */
async function pickFlow<S extends HistoryCommandService>(
  deps: HistoryCommandDeps<S>,
  on: boolean,
  title: string,
): Promise<FlowOf[]> {
  const connection = await deps.pickService(title);
  if (!connection) return [];
  const flows = new Map<number, string>();
  const items = (connection.explorer.lists.processing.state.items ?? []) as readonly Item<FlowSync>[];
  for (const { value } of items) if (!flows.has(value.flow_id)) flows.set(value.flow_id, flowLabel(value));
  for (const entry of connection.history.snapshot.entries) {
    if (!flows.has(entry.flowId)) flows.set(entry.flowId, entryFlowLabel(entry));
  }
  const pinned = new Set(connection.history.pins.ids());
  for (const id of pinned) if (!flows.has(id)) flows.set(id, t('Flow {0}', id));
  const offered = [...flows].filter(([id]) => pinned.has(id) !== on);
  if (!offered.length) {
    void vscode.window.showInformationMessage(
      on ? t('No flow is known yet: none is processing and History has none.') : t('No flow is pinned.'),
    );
    return [];
  }
  const picks = offered.map(([id, name]) => ({ label: `$(git-merge) ${inert(name)}`, description: `#${id}`, id }));
  const picked = await vscode.window.showQuickPick(picks, { title, matchOnDescription: true });
  return picked ? [{ id: picked.id, service: connection.id }] : [];
}

async function setPins<S extends HistoryCommandService>(
  deps: HistoryCommandDeps<S>,
  on: boolean,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Promise<void> {
  let targets = chosenFlows(deps, node, nodes);
  if (!targets.length) targets = await pickFlow(deps, on, on ? t('Pin Flow') : t('Unpin Flow'));
  if (!targets.length) return;
  let refused = 0;
  for (const connection of deps.services.all) {
    const ids = targets.filter((flow) => flow.service === connection.id).map((flow) => flow.id);
    if (ids.length) refused += (await connection.history.pins.set(ids, on)).refused.length;
  }
  if (refused) {
    void vscode.window.showWarningMessage(t('At most {0} flows can be pinned per service: unpin one first.', MAX_PINS));
  } else if (on && deps.views.processing.currentArrangement.groupBy !== 'flow') {
    void vscode.window.showInformationMessage(
      t('Pinned. Pinned flows are shown first while Processing is grouped by flow (Group Processing By...).'),
    );
  } else {
    vscode.window.setStatusBarMessage(
      on ? t('Pinned: it stays in Processing while none of its syncs is processing.') : t('Unpinned.'),
      3000,
    );
  }
}

/** A command: Pin Flow (`on`) or Unpin Flow, on the rows given, else the selection, else a flow picked. */
function pinCommand(on: boolean) {
  return <S extends HistoryCommandService>(
    deps: HistoryCommandDeps<S>,
    node?: ExplorerNode | HistoryNode,
    nodes?: readonly (ExplorerNode | HistoryNode)[],
  ) => setPins(deps, on, node, nodes);
}

/** Pin Flow: the flow stays in Processing, first, while none of its syncs is processing (src/history/pins.ts). */
export const pinFlow = pinCommand(true);
export const unpinFlow = pinCommand(false);
