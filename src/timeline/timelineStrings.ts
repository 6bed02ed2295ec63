import { t } from '../base/l10n';

/** Every word the Run Timeline's page shows, localized by the extension (the page holds no text of its own). */
export interface TimelineStrings {
  heading: string;
  service: string;
  /** Zoom and pan buttons, and their group. */
  controls: string;
  zoomIn: string;
  zoomOut: string;
  earlier: string;
  later: string;
  now: string;
  /** How the chart is used by keyboard (its description). */
  hint: string;
  showTable: string;
  hideTable: string;
  /** The table's caption ({0}: how many runs) and headers. */
  caption: string;
  run: string;
  flow: string;
  when: string;
  ran: string;
  state: string;
  /** Shown instead of the chart when no run is in the window, or when History holds none. */
  empty: string;
  /** "{0} more runs in this window (zoom in)"; "{0} more flows not shown". */
  moreRows: string;
  moreFlows: string;
  filtered: string;
  openInHistory: string;
  openJson: string;
  openInBrowser: string;
  pinned: string;
  /** The accessible name's parts (see runName in timelineLayout.ts). */
  name: NameStrings;
}

/** The parts of a bar's accessible name: "#1003 Invoices → Sheets, 09:14 to about 09:26, ran about 12 min, had errors". */
export interface NameStrings {
  /** {0} run id, {1} flow (then, after commas, when, how long and its states). */
  run: string;
  /** {0} start, {1} end: "09:14 to about 09:26". */
  finished: string;
  /** {0} start: "09:14 to now". */
  processing: string;
  /** {0} the time first seen: "before 09:14" (created_at was not a time that can be true). */
  firstSeen: string;
  ran: string;
  runningFor: string;
  errors: string;
  stuck: string;
  /** Units: {0} a number. */
  seconds: string;
  minutes: string;
  hours: string;
  days: string;
  /** "{0} {1}": "2 h 5 min". */
  pair: string;
}

export function timelineStrings(): TimelineStrings {
  return {
    heading: t('Run Timeline'),
    service: t('Service'),
    controls: t('Zoom and pan'),
    zoomIn: t('Zoom In'),
    zoomOut: t('Zoom Out'),
    earlier: t('Earlier'),
    later: t('Later'),
    now: t('Now'),
    hint: t(
      'Arrow keys move from run to run, + and - zoom, Shift with an arrow pans, Enter shows the run in History. Show Table lists the same runs.',
    ),
    showTable: t('Show Table'),
    hideTable: t('Hide Table'),
    caption: t('Runs in the window shown: {0}'),
    run: t('Run'),
    flow: t('Flow'),
    when: t('When'),
    ran: t('Ran'),
    state: t('State'),
    empty: t('No run in this time window.'),
    moreRows: t('{0} more runs in this window: zoom in to list them.'),
    moreFlows: t('{0} more flows are not shown.'),
    filtered: t('Filtered as History: {0}'),
    openInHistory: t('Show in History'),
    openJson: t('Open as JSON'),
    openInBrowser: t('Open in Browser'),
    pinned: t('pinned'),
    name: {
      run: t('#{0} {1}'),
      finished: t('{0} to about {1}'),
      processing: t('{0} to now'),
      firstSeen: t('before {0}'),
      ran: t('ran about {0}'),
      runningFor: t('processing for {0}'),
      errors: t('had errors'),
      stuck: t('stuck'),
      seconds: t('{0} s'),
      minutes: t('{0} min'),
      hours: t('{0} h'),
      days: t('{0} d'),
      pair: t('{0} {1}'),
    },
  };
}
