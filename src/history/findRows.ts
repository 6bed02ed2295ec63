import { FilterSubjects, type FilterLive, type FilterSubject } from '../filter/filterMatch';
import { entryFlowLabel, type HistoryEntry } from './entry';

/**
 * What a filter (src/filter) sees of a History row: what the row and its tooltip show ("#1003", the flow's name and id,
 * the service, when it was created), and the last status the service sent for it (the `status:` term; kept in the
 * entry's item). Pure.
 */
export function historyFilterSubject(entry: HistoryEntry, service: string): FilterSubject {
  const status = lastStatus(entry);
  return {
    fields: {
      flow: [entryFlowLabel(entry)],
      service: [service],
      ...(status !== undefined ? { status: [status] } : {}),
    },
    ids: { id: [entry.id], flow: [entry.flowId] },
    more: [entry.createdAt],
  };
}

/** A History row's flags (from the last item seen, when kept) and how long it ran; `watched` is History's. */
export function historyFilterLive(entry: HistoryEntry, watched: boolean): FilterLive {
  const raw = entry.raw;
  return {
    flags: {
      errors: entry.hadErrors,
      webhook: raw?.webhook === true,
      watched,
    },
    seconds: { ran: entry.duration.ms / 1000 },
  };
}

/**
 * **The one matcher of a service's History runs**, for every filter of them: the History view's (find/), the history
 * tool's (tools/) and Export History's (historyFilter.ts), so the same filter text keeps the same runs in each. A run
 * is described by historyFilterSubject (once per run object, when a word or field term reads it) and
 * historyFilterLive (read at each match that asks). `service` names the service for the `service:` term (read when a
 * run is first described); `watched` says whether a run's sync is watched now (`is:watched`).
 */
export function historyRunSubjects(
  service: () => string,
  watched: (id: number) => boolean,
): FilterSubjects<HistoryEntry> {
  return new FilterSubjects<HistoryEntry>(
    (entry) => historyFilterSubject(entry, service()),
    (entry) => historyFilterLive(entry, watched(entry.id)),
  );
}

/** The status the service last sent for the sync, when its item was kept and it is a short text. */
function lastStatus(entry: HistoryEntry): string | undefined {
  const status = entry.raw?.status;
  return typeof status === 'string' && status.length <= 64 ? status : undefined;
}
