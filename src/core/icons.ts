import type { Connection, FlowSync } from '../api/types';

/**
 * The one place that maps statuses and connection types to icons. Values are codicon ids and theme color ids; the
 * vscode layer turns them into ThemeIcons.
 */
export interface IconSpec {
  id: string;
  color?: string;
}

const STATUS_ICONS: Record<string, IconSpec> = {
  pending: { id: 'sync~spin', color: 'charts.blue' },
  running: { id: 'loading~spin', color: 'charts.blue' },
  queued: { id: 'clock', color: 'charts.yellow' },
  waiting: { id: 'clock', color: 'charts.yellow' },
  failed: { id: 'error', color: 'testing.iconFailed' },
  error: { id: 'error', color: 'testing.iconFailed' },
  completed: { id: 'pass', color: 'testing.iconPassed' },
  succeeded: { id: 'pass', color: 'testing.iconPassed' },
};

/** Any status the API did not document yet. */
const UNKNOWN_STATUS: IconSpec = { id: 'circle-outline' };
const SYNC_WITH_ERRORS: IconSpec = { id: 'warning', color: 'list.warningForeground' };

export function flowSyncIcon(sync: Pick<FlowSync, 'status' | 'errors'>): IconSpec {
  if (sync.errors !== null && sync.errors !== undefined) return SYNC_WITH_ERRORS;
  return ownEntry(STATUS_ICONS, sync.status.toLowerCase()) ?? UNKNOWN_STATUS;
}

const TYPE_ICONS: Record<string, IconSpec> = {
  pdf: { id: 'file-pdf' },
  slack: { id: 'comment-discussion' },
  gmail: { id: 'mail' },
  email: { id: 'mail' },
  http: { id: 'globe' },
  webhook: { id: 'globe' },
  postgres: { id: 'database' },
  mysql: { id: 'database' },
  s3: { id: 'archive' },
  salesforce: { id: 'cloud' },
};
const GENERIC_CONNECTION: IconSpec = { id: 'plug' };

export function connectionIcon(connection: Pick<Connection, 'type'>): IconSpec {
  return ownEntry(TYPE_ICONS, connection.type.toLowerCase()) ?? GENERIC_CONNECTION;
}

export const FLOW_ICON: IconSpec = { id: 'git-merge' };
export const TEAM_ICON: IconSpec = { id: 'organization' };

/** A table lookup by a name from the service: own entries only ("constructor" is not an icon). */
function ownEntry(table: Record<string, IconSpec>, name: string): IconSpec | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
