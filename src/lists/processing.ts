import type { FlowSync } from '../api/types';
import { validateFlowSync } from '../api/validate';
import { syncCount, syncDescription, syncLabel, syncTooltip } from '../core/format';
import { flowLabel, groupByFlow } from '../core/grouping';
import { FLOW_ICON, flowSyncIcon } from '../core/icons';
import { sameJson } from '../core/sameJson';
import { COMMAND } from '../commandIds';
import { t } from '../l10n';
import { defineList } from './list';

/** The flow syncs processing now, grouped by flow; polled; the status bar and the badge count them. */
export const processingList = defineList<FlowSync>()({
  id: 'processing',
  viewId: 'flowsync.processing',
  refreshCommand: COMMAND.refreshProcessing,
  label: () => t('processing flow syncs'),
  endpoint: '/flowsyncs/processing',
  validate: validateFlowSync,
  polled: true,
  tree: {
    leafIdPrefix: 'sync',
    groupIdPrefix: 'flow',
    leafContext: 'flowsync.sync',
    groupContext: 'flowsync.flow',
    group: groupByFlow,
    placement: (s: FlowSync) => `${s.flow_id}\u0000${flowLabel(s)}\u0000${s.created_at}\u0000${s.id}`,
    // What syncDescription, syncTooltip, syncLabel and flowSyncIcon read.
    looksSame: (a: FlowSync, b: FlowSync) =>
      a.id === b.id &&
      a.flow_id === b.flow_id &&
      a.status === b.status &&
      a.created_at === b.created_at &&
      a.updated_at === b.updated_at &&
      a.webhook === b.webhook &&
      a.flow?.name === b.flow?.name &&
      sameJson(a.errors, b.errors),
    idOf: (s: FlowSync) => s.id,
    groupDescription: (g) => syncCount(g.items.length),
    groupIcon: FLOW_ICON,
    leafLabel: syncLabel,
    leafDescription: syncDescription,
    descriptionAges: true,
    leafTooltip: syncTooltip,
    leafIcon: flowSyncIcon,
  },
  groupKeyOf: (s: FlowSync) => s.flow_id,
  emptyText: () => t('No flow syncs are processing.'),
  badge: (count) => (count > 0 ? { value: count, tooltip: count === 1 ? t('1 flow sync processing') : t('{0} flow syncs processing', count) } : undefined),
  json: { itemTitle: (id) => t('Flow sync {0}', id), groupTitle: (key) => t('Flow {0} syncs', key) },
  pick: {
    title: () => t('Processing flow syncs'),
    icon: 'sync',
    label: (s: FlowSync) => t('Sync #{0}', s.id),
    description: (s: FlowSync) => `${flowLabel(s)} · ${s.status}`,
  },
});
