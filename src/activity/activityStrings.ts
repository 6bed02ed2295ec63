import type { ActivityStrings } from './activityMessages';
import { t } from '../base/l10n';
import { clockTime } from '../base/format';

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

/** Names of the stretches shown at most; the rest are counted. */
const MAX_NAMED = 5;

/**
 * When nobody of the team watched (team History's spans), in words: "Nobody watched: 02:10–06:45, 22:00–23:30."; '' when
 * someone always did. Stretches only windows with a team filter watched are counted apart.
 */
export function unwatchedWords(gaps: readonly { from: number; to: number; teams: readonly string[] }[]): string {
  const nobody = gaps.filter((g) => g.teams.length === 0);
  const partly = gaps.length - nobody.length;
  const named = nobody.filter((_, i) => i < MAX_NAMED).map((g) => `${clockTime(g.from)}–${clockTime(g.to)}`);
  const more = nobody.length - named.length;
  const words = [
    ...(named.length ? [t('Nobody watched: {0}.', named.join(', ') + (more ? t(' and {0} more', more) : ''))] : []),
    ...(partly ? [t('{0} stretches were watched only by windows with a team filter.', partly)] : []),
  ];
  return words.join(' ');
}
