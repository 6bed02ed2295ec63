import type { Connection, FlowSync } from '../api/types';
import { connectionCount, connectionTooltip, syncCount, syncDescription, syncLabel, syncTooltip } from '../core/format';
import { groupByFlow, groupByTeam } from '../core/grouping';
import { FLOW_ICON, TEAM_ICON, connectionIcon, flowSyncIcon } from '../core/icons';
import type { TreeAdapter } from './groupedTree';

/** Processing view: flows → flow syncs. */
export const processingAdapter: TreeAdapter<FlowSync> = {
  leafIdPrefix: 'sync',
  groupIdPrefix: 'flow',
  leafContext: 'flowsync.sync',
  groupContext: 'flowsync.flow',
  group: groupByFlow,
  idOf: (s) => s.id,
  groupDescription: (g) => syncCount(g.items.length),
  groupIcon: FLOW_ICON,
  leafLabel: syncLabel,
  leafDescription: syncDescription,
  descriptionAges: true,
  leafTooltip: syncTooltip,
  leafIcon: flowSyncIcon,
};

/** Connections view: teams → connections. */
export const connectionsAdapter: TreeAdapter<Connection> = {
  leafIdPrefix: 'connection',
  groupIdPrefix: 'team',
  leafContext: 'flowsync.connection',
  groupContext: 'flowsync.team',
  group: groupByTeam,
  idOf: (c) => c.id,
  groupDescription: (g) => connectionCount(g.items.length),
  groupIcon: TEAM_ICON,
  leafLabel: (c) => c.name,
  leafDescription: (c) => c.type,
  descriptionAges: false,
  leafTooltip: connectionTooltip,
  leafIcon: connectionIcon,
};
