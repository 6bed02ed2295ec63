import type { FlowSync } from '../api/types';
import { FilterSubjects } from '../filter/filterMatch';
import { durationText, entryFlowLabel, type HistoryEntry } from '../history/index';
import { historyRunSubjects } from '../history/findRows';
import type { ExplorerStatus } from '../lists/explorer';
import { processingRows } from '../lists/findRows';
import type { WebTemplates } from '../webPages/webUrl';
import { cells, computed, quote, t, type Data } from './dataBlock';
import { ago, beginAnswer, pageCell, readFilter } from './answerParts';
import { syncRow } from './processingResult';
import { filterInput, inputLimit, inputRecord } from './toolInput';

/** The flowsync_history tool's answer: the syncs no longer processing, and those stuck now. Pure. */

type HistoryKind = 'finished' | 'stuck' | 'all';

export interface HistoryInput {
  kind: HistoryKind;
  filter?: string;
  limit: number;
}

export function historyInput(raw: unknown): HistoryInput {
  const o = inputRecord(raw);
  const kind = o.kind === 'finished' || o.kind === 'stuck' ? o.kind : 'all';
  return { kind, ...filterInput(o), limit: inputLimit(o.limit) };
}

/** What the history tool answers from: the History of the current service and the syncs stuck now. */
export interface HistoryToolData {
  status: ExplorerStatus;
  detail?: string;
  hide?: string;
  now: number;
  historyDays: number;
  /** Syncs that left processing, newest first. */
  entries: readonly HistoryEntry[];
  /** Processing syncs over their stuck threshold now. */
  stuck: readonly FlowSync[];
  /** The service's name, with several services (see ToolSnapshot.service). */
  service?: string;
  /** Whether a sync is watched (the filter's is:watched). */
  watched?: (id: number) => boolean;
  /** The service's web page templates (see ToolSnapshot.pages). */
  pages?: WebTemplates;
}

/**
 * The history tool: recently finished (no longer processing) and stuck flow syncs. Honest like the view: the service
 * does not say whether a sync succeeded. Only the rows listed are formatted, so the work of an answer is bounded by
 * `limit` (at most MAX_ROWS), not by the size of History (up to tens of thousands of entries).
 */
export function historyResult(input: HistoryInput, h: HistoryToolData): string {
  const a = beginAnswer(
    h,
    t(
      'Flow Sync: history of the last {0} days as this VS Code saw it. "No longer processing" does not say whether a sync succeeded: the service does not tell.',
      h.historyDays,
    ),
  );
  if (typeof a === 'string') return a;
  let stuck = input.kind === 'finished' ? [] : h.stuck;
  let entries = input.kind === 'stuck' ? [] : h.entries;
  if (input.filter !== undefined) {
    const filter = readFilter(a, input.filter, 'history', h.hide);
    if (!filter) return a.text();
    const watched = (id: number) => h.watched?.(id) === true;
    const before = stuck.length + entries.length;
    // A stuck sync is a processing sync: it is matched as the Processing view sees it, its age as how long it ran.
    const stuckSubjects = new FilterSubjects<FlowSync>(
      (sync) => processingRows.subject(sync, h.service ?? ''),
      (sync) => {
        const own = processingRows.live(sync, h.now);
        return { flags: { ...own.flags, watched: watched(sync.id) }, seconds: { ran: own.seconds?.age } };
      },
    );
    const entrySubjects = historyRunSubjects(() => h.service ?? '', watched);
    stuck = stuckSubjects.filter(filter, stuck);
    entries = entrySubjects.filter(filter, entries);
    a.say(
      t('Filters (the "filters" line of the data block): {0} of {1} match.', stuck.length + entries.length, before),
    );
  }
  if (input.kind !== 'finished') {
    a.say(t('{0} flow syncs are stuck now (processing for longer than their threshold).', stuck.length));
  }
  if (input.kind !== 'stuck') a.say(t('{0} flow syncs are no longer processing.', entries.length));
  const total = stuck.length + entries.length;
  if (total === 0) return a.say(t('Nothing to list.')).text();
  const shownStuck = stuck.slice(0, input.limit);
  const shownEntries = entries.slice(0, input.limit - shownStuck.length);
  for (const sync of shownStuck) a.row(cells([t('stuck'), syncRow(sync, h.now, h.hide, h.pages)]));
  for (const e of shownEntries) a.row(entryRow(e, h.now, h.hide, h.pages));
  return a.more(total - shownStuck.length - shownEntries.length).text();
}

function entryRow(e: HistoryEntry, now: number, hide: string | undefined, pages?: WebTemplates): Data {
  return cells([
    t('no longer processing {0}', ago(e.leftAt, now)),
    t('flow sync #{0}', e.id),
    t('flow {0} (#{1})', quote(entryFlowLabel(e), hide), e.flowId),
    t('ran {0}', computed(durationText(e.duration))),
    ...pageCell(pages, 'sync', { id: e.id, flow_id: e.flowId }, hide),
  ]);
}
