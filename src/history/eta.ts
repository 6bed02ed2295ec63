import { t } from '../base/l10n';
import type { FlowStats } from './stats';
import { STUCK_MIN_RUNS } from './stats';
import { rangeText, span } from './texts';

/**
 * "When will it be done?" for one processing sync, from its flow's typical durations (flowStats: median and 95th
 * percentile of the runs seen leaving processing, each measured from a true start). The rule:
 *
 * - nothing until the flow has ETA_MIN_RUNS runs (the same number the learned stuck threshold needs), or while the
 *   sync's age is unknown (its start cannot be true and it was not seen starting) or it is stuck (stuck says more);
 * - age below the median: "usually done after about <median>";
 * - age from the median to the 95th percentile (the usual range): "usually done within <p95>";
 * - age past the 95th percentile but not yet stuck: "running longer than usual".
 *
 * `detail` (for the tooltip) always adds the usual range and how many runs it is learned from:
 * "Usually done after about 6 min (6–12 min, 37 runs)."
 */
export const ETA_MIN_RUNS = STUCK_MIN_RUNS;

type EtaPhase = 'usual' | 'late' | 'longer';

export interface Eta {
  readonly phase: EtaPhase;
  /** For the row's description: "usually done after about 6 min", "usually done within 12 min", "running longer than usual". */
  readonly short: string;
  /** For the tooltip: the same with the range and the number of runs. */
  readonly detail: string;
}

export function eta(stats: FlowStats | undefined, ageMs: number | undefined, stuck: boolean): Eta | undefined {
  const phase = etaPhase(stats, ageMs, stuck);
  if (!phase || !stats) return undefined;
  const usual = t('{0}, {1} runs', rangeText(stats.medianMs, stats.p95Ms), stats.runs);
  const about = t('usually done after about {0}', span(stats.medianMs));
  const detail = t('Usually done after about {0} ({1}).', span(stats.medianMs), usual);
  if (phase === 'usual') return { phase, short: about, detail };
  if (phase === 'late') return { phase, short: t('usually done within {0}', span(stats.p95Ms)), detail };
  return {
    phase: 'longer',
    short: t('running longer than usual'),
    detail: `${t('Running longer than usual.')} ${detail}`,
  };
}

/** eta()'s phase alone, without its words (a flow row asks it of each of its syncs: src/history/vscode/historyUi.ts). */
export function etaPhase(
  stats: FlowStats | undefined,
  ageMs: number | undefined,
  stuck: boolean,
): EtaPhase | undefined {
  if (stuck || ageMs === undefined || !Number.isFinite(ageMs) || ageMs < 0) return undefined;
  if (!stats || stats.runs < ETA_MIN_RUNS || !Number.isFinite(stats.medianMs) || !Number.isFinite(stats.p95Ms)) {
    return undefined;
  }
  return ageMs < stats.medianMs ? 'usual' : ageMs <= stats.p95Ms ? 'late' : 'longer';
}
