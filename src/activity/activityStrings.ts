import type { ActivityStrings } from './activityMessages';
import { t } from '../base/l10n';

/** The page's words, localized (see ActivityStrings). */
export function activityStrings(): ActivityStrings {
  return {
    heading: t('Flow Sync Activity'),
    rangeGroup: t('Time range'),
    ranges: { hour: t('Hour'), day: t('Day'), week: t('Week') },
    captions: {
      hour: t('Flow syncs processing per flow, last hour'),
      day: t('Flow syncs processing per flow, last 24 hours'),
      week: t('Flow syncs processing per flow, last 7 days'),
    },
    chartHint: t('Stacked bars, one colour per flow. Show Table lists the same numbers.'),
    showTable: t('Show Table'),
    hideTable: t('Hide Table'),
    time: t('Time'),
    total: t('Total'),
    empty: t('No activity recorded yet in this time range.'),
    yAxis: t('Processing'),
  };
}
