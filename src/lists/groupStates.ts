import { groupStateWords } from './icons';
import type { RowStates } from './rowTints';

/** Whether a row is in each state that makes it stand out (a sync: errors, stuck, longer than usual). */
export interface StateProbes<T> {
  errors(row: T): boolean;
  stuck(row: T): boolean;
  longer(row: T): boolean;
}

/** The states, strongest first: a group row wears the first one any of its rows is in. */
const STRONGEST_FIRST = ['errors', 'stuck', 'longer'] as const;

/**
 * How a group row (a flow, grouped by flow) stands out: the strongest state of its rows (errors > stuck > longer than
 * usual), so it is tinted as its strongest row is (src/lists/rowTints.ts), and the words that say it with how many of
 * its rows are in it ("2 with errors"): for its description and accessible name, since colour is never the only
 * signal. A weaker state is asked of no row once a stronger one is found. Undefined when no row is in any.
 */
export function groupMarks<T>(
  rows: readonly T[],
  probes: StateProbes<T>,
): { states: RowStates; words: string } | undefined {
  for (const state of STRONGEST_FIRST) {
    let count = 0;
    for (const row of rows) if (probes[state](row)) count++;
    if (count > 0) return { states: { [state]: true }, words: groupStateWords(state, count) };
  }
  return undefined;
}
