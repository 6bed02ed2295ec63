import type { Connection, FlowSync } from '../api/types';
import { t } from '../base/l10n';
import { inert } from '../base/inert';

/**
 * The one place that maps statuses and connection types to icons, and says in words what each icon (and its colour)
 * means: a screen reader reads the words (TreeItem.accessibilityInformation, see accessibleNames.ts), a sighted person
 * sees the icon. Values are codicon ids and theme colour ids only (never a fixed colour, so every theme, high contrast
 * included, draws them in its own colours); the vscode layer turns them into ThemeIcons.
 */
export interface IconSpec {
  id: string;
  color?: string;
  /** What the icon says, in words ("pending", "has errors", "stuck"); none for a purely decorative icon. */
  words?: () => string;
}

const STATUS_ICONS: Record<string, IconSpec> = {
  pending: { id: 'sync~spin', color: 'charts.blue', words: () => t('pending') },
  running: { id: 'loading~spin', color: 'charts.blue', words: () => t('running') },
  retrying: { id: 'debug-restart', color: 'charts.orange', words: () => t('retrying') },
  queued: { id: 'clock', color: 'charts.yellow', words: () => t('queued') },
  waiting: { id: 'clock', color: 'charts.yellow', words: () => t('waiting') },
  failed: { id: 'error', color: 'testing.iconFailed', words: () => t('failed') },
  error: { id: 'error', color: 'testing.iconFailed', words: () => t('failed') },
  completed: { id: 'pass', color: 'testing.iconPassed', words: () => t('completed') },
  succeeded: { id: 'pass', color: 'testing.iconPassed', words: () => t('completed') },
};

const SYNC_WITH_ERRORS: IconSpec = { id: 'warning', color: 'list.warningForeground', words: () => t('has errors') };
/** A processing sync past its flow's stuck threshold (History marks it). */
export const STUCK_ICON: IconSpec = { id: 'warning', color: 'list.warningForeground', words: () => t('stuck') };

export function flowSyncIcon(sync: Pick<FlowSync, 'status' | 'errors'>): IconSpec {
  if (sync.errors !== null && sync.errors !== undefined) return SYNC_WITH_ERRORS;
  return ownEntry(STATUS_ICONS, sync.status.toLowerCase()) ?? unknownStatus(sync.status);
}

/** Any status the API did not document yet: a plain circle, and the status itself (inert) as its words. */
function unknownStatus(status: string): IconSpec {
  return { id: 'circle-outline', words: () => t('status {0}', inert(status, 40)) };
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
// A connection's icon only repeats its type, which the row's description says: decorative, no words.
const GENERIC_CONNECTION: IconSpec = { id: 'plug' };

export function connectionIcon(connection: Pick<Connection, 'type'>): IconSpec {
  return ownEntry(TYPE_ICONS, connection.type.toLowerCase()) ?? GENERIC_CONNECTION;
}

export const FLOW_ICON: IconSpec = { id: 'git-merge', words: () => t('flow') };
export const TEAM_ICON: IconSpec = { id: 'organization', words: () => t('team') };
/** A pinned flow with nothing processing (src/history/pins.ts): its row says "pinned" in words too. */
export const PINNED_ICON: IconSpec = { id: 'pinned', words: () => t('pinned') };
export const SERVICE_ICON: IconSpec = { id: 'server-environment', words: () => t('service') };

/**
 * What a group row (a flow) says of the strongest state of its rows (src/lists/groupStates.ts), with how many of its
 * rows are in it: its description and accessible name say in words what its tint (src/lists/rowTints.ts) shows.
 */
export function groupStateWords(state: 'errors' | 'stuck' | 'longer', count: number): string {
  switch (state) {
    case 'errors':
      return count === 1 ? t('1 with errors') : t('{0} with errors', count);
    case 'stuck':
      return count === 1 ? t('1 stuck') : t('{0} stuck', count);
    case 'longer':
      return count === 1 ? t('1 longer than usual') : t('{0} longer than usual', count);
  }
}

/** A table lookup by a name from the service: own entries only ("constructor" is not an icon). */
function ownEntry(table: Record<string, IconSpec>, name: string): IconSpec | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
