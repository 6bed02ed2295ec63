import type { FlowSync } from '../api/types';
import { validateFlowSync } from '../api/validate';
import { COMMAND } from '../base/commandIds';
import { syncDescription, syncLabel, syncTooltip } from './itemTexts';
import { processingFace, syncCount } from './listFaces';
import { byId, flowLabel, newestFirst } from './grouping';
import { FLOW_ICON, flowSyncIcon } from './icons';
import { sameJson } from '../base/sameJson';
import { t } from '../base/l10n';
import { defineList } from './list';
import { field, placedBy, sameFields } from './rowFields';

/** The flow syncs processing now, grouped by flow; polled; the status bar and the badge count them. */
export const processingList = defineList<FlowSync>()({
  ...processingFace,
  refreshCommand: COMMAND.refreshProcessing,
  label: () => t('processing flow syncs'),
  itemName: (id) => t('Flow sync #{0}', id),
  endpoint: '/flowsyncs/processing',
  validate: validateFlowSync,
  rows: {
    ...processingFace.rows,
    leafIdPrefix: 'sync',
    leafContext: 'flowsync.sync',
    idOf: (s: FlowSync) => s.id,
    // What syncDescription, syncTooltip, syncLabel and flowSyncIcon read.
    looksSame: sameFields<FlowSync>([
      field((s) => s.id),
      field((s) => s.flow_id),
      field((s) => s.status),
      field((s) => s.created_at),
      field((s) => s.updated_at),
      field((s) => s.webhook),
      field((s) => s.flow?.name),
      { read: (s) => s.errors, same: sameJson },
    ]),
    leafLabel: syncLabel,
    leafDescription: syncDescription,
    leafTooltip: syncTooltip,
    leafIcon: flowSyncIcon,
  },
  arrangements: {
    ...processingFace.arrangements,
    groupings: {
      flow: {
        label: () => t('Flow'),
        keyOf: (s: FlowSync) => s.flow_id,
        labelOf: flowLabel,
        icon: () => FLOW_ICON,
        idPrefix: 'flow',
        context: 'flowsync.flow',
        describe: syncCount,
      },
      status: {
        label: () => t('Status'),
        keyOf: (s: FlowSync) => s.status,
        labelOf: (s: FlowSync) => s.status,
        icon: (s: FlowSync) => flowSyncIcon({ status: s.status, errors: null }),
        idPrefix: 'status',
        context: 'flowsync.status',
        describe: syncCount,
      },
      none: null,
    },
    sortings: {
      started: {
        label: () => t('Start time, newest first'),
        sort: newestFirst<FlowSync>(
          (s) => s.created_at,
          (s) => s.id,
        ),
        ...placedBy<FlowSync>([field((s) => s.created_at), field((s) => s.id)]),
      },
      id: { label: () => t('ID'), sort: byId<FlowSync>((s) => s.id), ...placedBy<FlowSync>([field((s) => s.id)]) },
    },
    command: COMMAND.groupProcessing,
    title: () => t('Group Processing By'),
    noneLabel: () => t('None (a flat list)'),
  },
  json: {
    itemTitle: (id) => t('Flow sync {0}', id),
    groupTitle: (grouping, key) => (grouping === 'flow' ? t('Flow {0} syncs', key) : t('Syncs with status {0}', key)),
    itemsTitle: (count) => t('{0} flow syncs', count),
  },
  pick: {
    title: () => t('Processing flow syncs'),
    icon: 'sync',
    label: (s: FlowSync) => t('Sync #{0}', s.id),
    description: (s: FlowSync) => `${flowLabel(s)} · ${s.status}`,
    otherId: (s: FlowSync) => s.flow_id,
    name: (s: FlowSync) => s.flow?.name,
    otherName: (s: FlowSync) => s.status,
  },
});
