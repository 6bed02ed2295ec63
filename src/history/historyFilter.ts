import { FilterSubjects, type FilterSubject } from '../filter/filterMatch';
import { parseFilter } from '../filter/filterQuery';
import { entryFlowLabel, type HistoryEntry } from './entry';

/**
 * A History filter typed as text (the filter language of src/filter: `flow:Invoices has:errors ran>10m`) as a test on
 * one service's runs: what Export History's argument `filter` means. Pure. A malformed filter gives its problem
 * sentence and no test (nothing is exported then).
 */
export function historyEntryFilter(
  text: string,
  service: string,
): { readonly test: (entry: HistoryEntry) => boolean } | { readonly problem: string } {
  const parsed = parseFilter(text, 'history');
  if (parsed.problem !== undefined) return { problem: parsed.problem };
  const subjects = new FilterSubjects<HistoryEntry>(
    (e) => describeEntry(e, service),
    (e) => ({
      flags: { errors: e.hadErrors, webhook: e.raw?.webhook === true },
      seconds: { ran: e.duration.ms / 1000 },
    }),
  );
  const filter = parsed.filter;
  return { test: (entry) => subjects.matches(filter, entry) };
}

/** What a History row shows, as the filter reads it: its flow, status, service and ids. */
function describeEntry(e: HistoryEntry, service: string): FilterSubject {
  const status = typeof e.raw?.status === 'string' ? [e.raw.status] : [];
  return {
    fields: { flow: [entryFlowLabel(e)], status, service: [service] },
    ids: { id: [e.id], flow: [e.flowId] },
  };
}
