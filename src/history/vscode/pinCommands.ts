import * as vscode from 'vscode';
import type { FlowSync, Item } from '../../api/types';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { flowLabel } from '../../lists/grouping';
import { chosenNodes, type ExplorerNode } from '../../lists/vscode/chosenRows';
import { entryFlowLabel } from '../entry';
import { MAX_PINS } from '../pins';
import type { HistoryCommandDeps, HistoryCommandService, HistorySelection } from './historyCommands';
import { isHistoryNode, type HistoryNode } from '../historyNode';
import { PickRows, pickSegment } from '../../filter/pickRows';
import { pickRow } from '../../filter/vscode/rowPick';

/** A flow of one service (by its id). */
interface FlowOf {
  id: number;
  service: string;
}

/** What Pin Flow and Unpin Flow use: History's commands' deps, and the History view (its selection, from the palette). */
interface PinCommandDeps<S extends HistoryCommandService> extends HistoryCommandDeps<S> {
  readonly historyView?: HistorySelection;
}

/**
 * The flows of the rows a command acts on: a flow row of Processing (grouped by flow, an idle pinned flow too), a
 * sync's flow, a History run's flow. From the palette (no row given): the runs selected in History while it is shown,
 * else the selection of the Processing view.
 */
function chosenFlows<S extends HistoryCommandService>(
  deps: PinCommandDeps<S>,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): FlowOf[] {
  const history = deps.historyView;
  const selected = !node && !nodes?.length && history?.view.visible ? history.selection : [];
  const rows = nodes?.length ? nodes : node ? [node] : selected;
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
  const items = (connection.explorer.lists.processing.state.items ?? []) as readonly Item<FlowSync>[];
  const pinned = new Set(connection.history.pins.ids());
  type Row = { label: string; description: string; id: number };
  const row = (id: number, name: string): Row => ({ label: `$(git-merge) ${inert(name)}`, description: `#${id}`, id });
  // Each flow once (processing first, then History, then the pinned ones neither knows): to pin, those not pinned;
  // to unpin, the pinned ones.
  const among = 'flows';
  const skip = (id: number) => pinned.has(id) === on;
  // A pick of loaded rows (pickRow): bounded however many syncs and runs are held.
  const picked = await pickRow(
    new PickRows([
      pickSegment({
        items,
        row: ({ value }) => row(value.flow_id, flowLabel(value)),
        id: ({ value }) => value.flow_id,
        name: ({ value }) => value.flow?.name,
        distinct: { among, key: ({ value }) => value.flow_id },
        skip: ({ value }) => skip(value.flow_id),
      }),
      pickSegment({
        items: connection.history.snapshot.entries,
        row: (entry) => row(entry.flowId, entryFlowLabel(entry)),
        id: (entry) => entry.flowId,
        name: (entry) => entry.flowName,
        distinct: { among, key: (entry) => entry.flowId },
        skip: (entry) => skip(entry.flowId),
      }),
      pickSegment({
        items: [...pinned],
        row: (id) => row(id, t('Flow {0}', id)),
        id: (id) => id,
        distinct: { among, key: (id) => id },
        skip,
      }),
    ]),
    {
      title,
      nothing: () =>
        void vscode.window.showInformationMessage(
          on ? t('No flow is known yet: none is processing and History has none.') : t('No flow is pinned.'),
        ),
    },
  );
  return picked ? [{ id: picked.id, service: connection.id }] : [];
}

/**
 * Pins (`on`) or unpins the flows of the rows given, else of the selection, else of a flow picked. Only the flows not
 * in that state yet change (a menu offers Pin Flow only where its flow is not pinned; the palette may be run on any
 * selection): when every flow chosen is already so, it says so and changes nothing.
 */
async function setPins<S extends HistoryCommandService>(
  deps: PinCommandDeps<S>,
  on: boolean,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Promise<void> {
  const chosen = chosenFlows(deps, node, nodes);
  const pinned = (flow: FlowOf) =>
    deps.services.all
      .find((s) => s.id === flow.service)
      ?.history.pins.ids()
      .includes(flow.id) === true;
  let targets = chosen.filter((flow) => pinned(flow) !== on);
  if (chosen.length && !targets.length) {
    vscode.window.setStatusBarMessage(on ? t('Already pinned.') : t('Not pinned.'), 3000);
    return;
  }
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
    deps: PinCommandDeps<S>,
    node?: ExplorerNode | HistoryNode,
    nodes?: readonly (ExplorerNode | HistoryNode)[],
  ) => setPins(deps, on, node, nodes);
}

/** Pin Flow: the flow stays in Processing, first, while none of its syncs is processing (src/history/pins.ts). */
export const pinFlow = pinCommand(true);
export const unpinFlow = pinCommand(false);
