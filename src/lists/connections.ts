import type { Connection } from '../api/types';
import { validateConnection } from '../api/validate';
import { COMMAND } from '../base/commandIds';
import { connectionTooltip } from './itemTexts';
import { connectionCount, connectionsFace } from './listFaces';
import { byText, newestFirst, teamLabel, textField } from './grouping';
import { TEAM_ICON, connectionIcon } from './icons';
import { t } from '../base/l10n';
import { field, placedBy, sameFields } from './rowFields';
import { defineList } from './list';

/** The configured connections, grouped by team; loaded when the view is shown; teaches the team filter its teams. */
export const connectionsList = defineList<Connection>()({
  ...connectionsFace,
  refreshCommand: COMMAND.refreshConnections,
  label: () => t('connections'),
  itemName: (id) => t('Connection #{0}', id),
  endpoint: '/connections/index',
  validate: validateConnection,
  rows: {
    ...connectionsFace.rows,
    leafIdPrefix: 'connection',
    leafContext: 'flowsync.connection',
    idOf: (c: Connection) => c.id,
    // What the label, the type description, connectionTooltip and connectionIcon read (the tooltip counts meta keys).
    looksSame: sameFields<Connection>([
      field((c) => c.id),
      field((c) => c.name),
      field((c) => c.type),
      field((c) => c.team_id),
      field((c) => c.team?.name),
      field((c) => c.user_id),
      field((c) => c.created_at),
      field((c) => c.updated_at),
      field((c) => Object.keys(c.meta).length),
    ]),
    leafLabel: (c: Connection) => c.name,
    leafDescription: (c: Connection) => c.type,
    leafTooltip: connectionTooltip,
    leafIcon: connectionIcon,
  },
  arrangements: {
    ...connectionsFace.arrangements,
    groupings: {
      team: {
        label: () => t('Team'),
        keyOf: (c: Connection) => c.team_id,
        labelOf: teamLabel,
        icon: () => TEAM_ICON,
        idPrefix: 'team',
        context: 'flowsync.team',
        describe: connectionCount,
      },
      type: {
        label: () => t('Type'),
        keyOf: (c: Connection) => c.type.toLowerCase(),
        labelOf: (c: Connection) => c.type,
        icon: connectionIcon,
        idPrefix: 'type',
        context: 'flowsync.type',
        describe: connectionCount,
      },
      none: null,
    },
    sortings: {
      name: {
        label: () => t('Name'),
        sort: byText<Connection>(
          (c) => c.name,
          (c) => c.id,
        ),
        ...placedBy<Connection>([textField((c) => c.name), field((c) => c.id)]),
      },
      updated: {
        label: () => t('Last updated, newest first'),
        sort: newestFirst<Connection>(
          (c) => c.updated_at,
          (c) => c.id,
        ),
        ...placedBy<Connection>([field((c) => c.updated_at), field((c) => c.id)]),
      },
    },
    command: COMMAND.groupConnections,
    title: () => t('Group Connections By'),
    noneLabel: () => t('None (a flat list)'),
  },
  json: {
    itemTitle: (id) => t('Connection {0}', id),
    groupTitle: (grouping, key) =>
      grouping === 'team' ? t('Team {0} connections', key) : t('Connections of type {0}', key),
    itemsTitle: (count) => t('{0} connections', count),
  },
  pick: {
    title: () => t('Connections'),
    icon: 'plug',
    label: (c: Connection) => c.name,
    description: (c: Connection) => `${c.type} · ${teamLabel(c)} · #${c.id}`,
    otherId: (c: Connection) => c.team_id,
    name: (c: Connection) => c.name,
    otherName: (c: Connection) => `${teamLabel(c)} · ${c.type}`,
  },
  onLoaded: ({ teams }, connections, complete) => teams.learn(connections, complete),
});
