import type { FlowSync } from '../../api/types';
import { eta, flowStatsText, processingAgeMs } from '../index';
import { slowerText } from '../texts';
import { STUCK_ICON } from '../../lists/icons';
import { t } from '../../base/l10n';
import type { RowDecorations } from '../../lists/vscode/groupedTree';
import type { HistoryCore } from '../historyService';

/**
 * What History adds to the Processing view: on sync rows "stuck" (with a warning icon and colour), when it is usually
 * done or that it runs longer than usual (src/history/eta.ts; the range and runs in the tooltip), and "watched";
 * on a flow row (grouped by flow) its typical durations in the tooltip, "watched", and "slower than usual" in words.
 */
export function processingDecorations(history: HistoryCore, now: () => number): RowDecorations<FlowSync> {
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
      const errors = sync.errors !== null && sync.errors !== undefined;
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
    group: (group, grouping) => {
      if (grouping !== 'flow') return undefined;
      const flowId = Number(group.key);
      const typical = flowStatsText(history.snapshot.stats.get(flowId));
      const threshold = history.stuckThreshold(flowId);
      const watched = history.isWatched('flow', flowId);
      const slower = history.slowerFlows(now()).get(flowId); // computed at most every few minutes
      const lines = [
        ...(slower ? [slowerText(slower)] : []),
        typical
          ? t('Typical duration: {0}.', typical)
          : t('No typical duration yet: it is learned from the syncs seen leaving processing.'),
        ...(threshold !== undefined ? [t('Stuck after {0} min.', Math.round(threshold / 60_000))] : []),
        ...(watched ? [t('You are told when each of its syncs is no longer processing.')] : []),
      ];
      // "slower than usual" in words: in the description (so in the row's accessible name) and the tooltip, not an icon alone
      const descriptions = [...(slower ? [t('slower than usual')] : []), ...(watched ? [t('watched')] : [])];
      return {
        tooltip: lines.join('\n\n'),
        descriptions: descriptions.length ? descriptions : undefined,
        contextSuffix: watched ? '.watched' : undefined,
      };
    },
  };
}
