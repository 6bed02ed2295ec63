import type { FlowSync, Item } from '../../api/types';
import { eta, etaPhase, flowStatsText, processingAgeMs } from '../index';
import { groupMarks } from '../../lists/groupStates';
import { slowerText } from '../texts';
import { PINNED_ICON, STUCK_ICON } from '../../lists/icons';
import { PinnedRows } from '../../lists/pinnedRows';
import { t } from '../../base/l10n';
import type { RowDecorations } from '../../lists/vscode/groupedTree';
import type { HistoryCore } from '../historyService';
import { idleFlowRow, idleFlowRows, lastRuns } from '../pins';

/** The pins of the service History is kept for, and what it has processing now. */
export interface PinsView {
  ids(): readonly number[];
  /** The flows with a sync processing now. */
  busy(): ReadonlySet<number>;
}

/**
 * What History adds to the Processing view: on sync rows "stuck" (with a warning icon and colour), when it is usually
 * done or that it runs longer than usual (src/history/eta.ts; the range and runs in the tooltip), and "watched";
 * on a flow row (grouped by flow) its typical durations in the tooltip, "watched", and "slower than usual" in words.
 */
export function processingDecorations(
  history: HistoryCore,
  now: () => number,
  pins: PinsView = { ids: () => [], busy: () => new Set() },
): RowDecorations<FlowSync> {
  const pinnedRows = new PinnedRows<FlowSync>('processing');
  return {
    leaf: (sync) => {
      const at = now();
      const stuck = history.isStuck(sync, at);
      const watched = history.isWatched('sync', sync.id);
      const expected = eta(
        history.snapshot.stats.get(sync.flow_id),
        processingAgeMs(sync, at, history.tracked.get(sync.id)?.firstSeen),
        stuck,
      );
      const errors = hasErrors(sync);
      // What makes the row stand out (tinted: src/lists/rowTints.ts); its words are in the description (errors: the list's own).
      const states = { errors, stuck, longer: expected?.phase === 'longer' };
      if (!stuck && !watched && !expected) return { states };
      return {
        descriptions: [
          ...(stuck ? [t('stuck')] : []),
          ...(expected ? [expected.short] : []),
          ...(watched ? [t('watched')] : []),
        ],
        icon: stuck ? STUCK_ICON : undefined,
        contextSuffix: watched ? '.watched' : undefined,
        tooltip: expected?.detail,
        states,
      };
    },
    // What a filter reads of a sync that History knows: is:stuck, is:watched, is:longer, and its age from first seen.
    live: (sync, at) => history.live(sync, at),
    group: (group, grouping) =>
      grouping === 'flow' ? flowMarks(history, pins, Number(group.key), group.items, now()) : undefined,
    arrangeRoots: (roots, grouping) => {
      const ids = grouping === 'flow' ? pins.ids() : [];
      // Every run as last merged: the rows are arranged on every change, and the merge is never made here.
      const idle = ids.length
        ? idleFlowRows(ids, pins.busy(), history.settledEntries(), history.snapshot.stats, now())
        : [];
      return pinnedRows.arrange(roots, { keys: ids, idle: idle.map((row) => ({ key: row.flowId, label: row.label })) });
    },
  };
}

function hasErrors(sync: FlowSync): boolean {
  return sync.errors !== null && sync.errors !== undefined;
}

/**
 * A flow row's marks (grouped by flow): the strongest state of its syncs (tinted, and in words: "1 with errors"), its
 * typical durations in the tooltip, "watched", "pinned" and "slower than usual" in words; a pinned flow with nothing
 * processing (an idle row): "idle" and its last run, its usual duration.
 */
function flowMarks(history: HistoryCore, pins: PinsView, flowId: number, syncs: readonly Item<FlowSync>[], at: number) {
  const watched = history.isWatched('flow', flowId);
  const pinned = pins.ids().includes(flowId);
  const contextSuffix = `${watched ? '.watched' : ''}${pinned ? '.pinned' : ''}` || undefined;
  const idle = pinned && !pins.busy().has(flowId);
  if (idle) {
    const row = idleFlowRow(
      flowId,
      lastRuns(history.settledEntries(), [flowId]).get(flowId),
      history.snapshot.stats.get(flowId),
      at,
    );
    return {
      tooltip: row.tooltip,
      descriptions: [...row.descriptions, ...(watched ? [t('watched')] : [])],
      contextSuffix,
      icon: PINNED_ICON, // "pinned" in words too (the row's accessible name)
    };
  }
  const stats = history.snapshot.stats.get(flowId);
  // The same states as each sync's row (leaf above), the strongest one only; stuck and longer asked only when needed.
  const stands = groupMarks(syncs, {
    errors: ({ value }) => hasErrors(value),
    stuck: ({ value }) => history.isStuck(value, at),
    longer: ({ value }) =>
      etaPhase(stats, processingAgeMs(value, at, history.tracked.get(value.id)?.firstSeen), false) === 'longer',
  });
  const typical = flowStatsText(stats);
  const threshold = history.stuckThreshold(flowId);
  const slower = history.slowerFlows(at).get(flowId); // computed at most every few minutes
  const lines = [
    ...(slower ? [slowerText(slower)] : []),
    typical
      ? t('Typical duration: {0}.', typical)
      : t('No typical duration yet: it is learned from the syncs seen leaving processing.'),
    ...(threshold !== undefined ? [t('Stuck after {0} min.', Math.round(threshold / 60_000))] : []),
    ...(watched ? [t('You are told when each of its syncs is no longer processing.')] : []),
    ...(pinned ? [t('Pinned: it stays in this view while none of its syncs is processing.')] : []),
  ];
  // "slower than usual" in words: in the description (so in the row's accessible name) and the tooltip, not an icon alone
  const descriptions = [
    ...(stands ? [stands.words] : []),
    ...(slower ? [t('slower than usual')] : []),
    ...(watched ? [t('watched')] : []),
    ...(pinned ? [t('pinned')] : []),
  ];
  return {
    tooltip: lines.join('\n\n'),
    descriptions: descriptions.length ? descriptions : undefined,
    contextSuffix,
    states: stands?.states,
  };
}
