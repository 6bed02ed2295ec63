import type { Connection } from '../api/types';
import { validateConnection } from '../api/validate';
import { connectionCount, connectionTooltip } from '../core/format';
import { groupByTeam, teamLabel } from '../core/grouping';
import { TEAM_ICON, connectionIcon } from '../core/icons';
import { COMMAND } from '../commandIds';
import { t } from '../l10n';
import { defineList } from './list';

/** The configured connections, grouped by team; loaded when the view is shown; teaches the team filter its teams. */
export const connectionsList = defineList<Connection>()({
  id: 'connections',
  viewId: 'flowsync.connections',
  refreshCommand: COMMAND.refreshConnections,
  label: () => t('connections'),
  endpoint: '/connections/index',
  validate: validateConnection,
  polled: false,
  tree: {
    leafIdPrefix: 'connection',
    groupIdPrefix: 'team',
    leafContext: 'flowsync.connection',
    groupContext: 'flowsync.team',
    group: groupByTeam,
    placement: (c: Connection) => `${c.team_id}\u0000${teamLabel(c)}\u0000${c.name}\u0000${c.id}`,
    // What the label, the type description, connectionTooltip and connectionIcon read (the tooltip counts meta keys).
    looksSame: (a: Connection, b: Connection) =>
      a.id === b.id &&
      a.name === b.name &&
      a.type === b.type &&
      a.team_id === b.team_id &&
      a.team?.name === b.team?.name &&
      a.user_id === b.user_id &&
      a.created_at === b.created_at &&
      a.updated_at === b.updated_at &&
      Object.keys(a.meta).length === Object.keys(b.meta).length,
    idOf: (c: Connection) => c.id,
    groupDescription: (g) => connectionCount(g.items.length),
    groupIcon: TEAM_ICON,
    leafLabel: (c: Connection) => c.name,
    leafDescription: (c: Connection) => c.type,
    descriptionAges: false,
    leafTooltip: connectionTooltip,
    leafIcon: connectionIcon,
  },
  groupKeyOf: (c: Connection) => c.team_id,
  emptyText: () => t('No connections.'),
  json: { itemTitle: (id) => t('Connection {0}', id), groupTitle: (key) => t('Team {0} connections', key) },
  pick: {
    title: () => t('Connections'),
    icon: 'plug',
    label: (c: Connection) => c.name,
    description: (c: Connection) => `${c.type} · ${teamLabel(c)} · #${c.id}`,
  },
  onLoaded: ({ teams }, connections, complete) => teams.learn(connections, complete),
});
