import { parseFilter } from '../filter/filterQuery';
import type { HistoryEntry } from './entry';
import { historyRunSubjects } from './findRows';

/**
 * A History filter typed as text (the filter language of src/filter: `flow:Invoices has:errors ran>10m is:watched`) as
 * a test on one service's runs: what Export History's argument `filter` means. It keeps the runs the History view and
 * the history tool keep for the same text: one description of a run, one matcher (findRows.ts, historyRunSubjects).
 * `service` is the name the `service:` term reads; `watched` whether a run's sync is watched (`is:watched`). Pure. A
 * malformed filter gives its problem sentence and no test (nothing is exported then).
 */
export function historyEntryFilter(
  text: string,
  service: string,
  watched: (id: number) => boolean,
): { readonly test: (entry: HistoryEntry) => boolean } | { readonly problem: string } {
  const parsed = parseFilter(text, 'history');
  if (parsed.problem !== undefined) return { problem: parsed.problem };
  const subjects = historyRunSubjects(() => service, watched);
  const filter = parsed.filter;
  return { test: (entry) => subjects.matches(filter, entry) };
}
