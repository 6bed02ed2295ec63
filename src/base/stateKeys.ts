/**
 * Every key this extension keeps in VS Code's memento, in one table (as SETTING_KEYS is for the settings): a feature
 * names its key from here, so no key is written twice under two spellings and no two features share one by accident.
 * `test/unit/base/stateKeys.test.ts` holds the values distinct and the table the only place they are spelled.
 */
export const STATE_KEYS = {
  /** globalState: pinned flows per service (given to Settings Sync). */
  pins: 'flowsync.pins',
  /** globalState: the syncs watched (Notify When Finished), per service. */
  watches: 'flowsync.watches',
  /** globalState: the teams learned per origin (the team filter's choices). */
  knownTeamsByOrigin: 'flowsync.knownTeamsByOrigin',
  /** globalState: 0.1.0's teams of its one service, read once and moved to knownTeamsByOrigin. */
  knownTeamsOfOneService: 'flowsync.knownTeams',
  /** globalState: the origins whose legacy key slot is decided (src/keys/legacyKeys.ts). */
  legacyKeyOrigins: 'flowsync.legacyKeyOrigins',
  /** globalState: an export's temporary file until it commits or aborts. */
  exportTemporaryFiles: 'flowsync.exportTemporaryFiles',
  /** globalState: each key's latest version (src/base/readYourWrites.ts). */
  stateVersions: 'flowsync.stateVersions',
  /** globalState: this installation's id in the team's store (team History), drawn once. */
  teamHistoryObserver: 'flowsync.teamHistoryObserver',
  /** globalState: when this installation last deleted its old rows of the team's store. */
  teamHistoryRetention: 'flowsync.teamHistoryRetention',
  /** workspaceState: the views' filters a workspace kept. */
  filters: 'flowsync.filters',
  /** workspaceState: the filters set by a link (they last the session). */
  filtersFromLinks: 'flowsync.filtersFromLinks',
} as const;
