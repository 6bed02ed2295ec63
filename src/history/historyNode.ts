import { own } from '../base/own';
import type { HistoryEntry } from './entry';
import type { HistoryGroup } from './texts';

/** A service (several services), a day of the History view, and one sync that left processing on it. */
export type HistoryNode =
  | { kind: 'historyService'; service: string }
  | { kind: 'historyDay'; group: HistoryGroup; service: string }
  | { kind: 'historyEntry'; entry: HistoryEntry; service: string };

/** The most runs a day row can hold (what History keeps of every service of a window: 20 × 50,000, and then some). */
const MAX_DAY_RUNS = 1_000_000;
/** The longest service id a row can name (a service's id is its name and URL, each bounded by the settings). */
const MAX_SERVICE_ID = 10_000;

/**
 * Whether a value is a row of the History view as a command reads it: the `kind`, a service id (a string, bounded; the
 * command then checks that the service is shown), and for a run its `id` and `flowId` (safe integers; `leftAt`, when
 * there, a finite time), for a day its key, label and runs (at most MAX_DAY_RUNS, each a run). Only the value's own
 * data is read (nothing inherited: a polluted prototype adds no field); anything that throws while read is no row.
 * The one shape check of a History row (a command's argument, a notification's button, the view's selection).
 */
export function isHistoryNode(value: unknown): value is HistoryNode {
  try {
    const kind = own(value, 'kind');
    const service = own(value, 'service');
    if (typeof service !== 'string' || service.length === 0 || service.length > MAX_SERVICE_ID) return false;
    if (kind === 'historyService') return true;
    if (kind === 'historyEntry') return isRun(own(value, 'entry'));
    if (kind !== 'historyDay') return false;
    const group = own(value, 'group');
    const entries = own(group, 'entries');
    return (
      Number.isFinite(own(group, 'key')) &&
      typeof own(group, 'label') === 'string' &&
      Array.isArray(entries) &&
      entries.length <= MAX_DAY_RUNS &&
      entries.every(isRun)
    );
  } catch {
    return false;
  }
}

/** A run as a command reads it: its id and its flow's id, and when it left (when there). */
function isRun(value: unknown): boolean {
  const leftAt = own(value, 'leftAt');
  return (
    Number.isSafeInteger(own(value, 'id')) &&
    Number.isSafeInteger(own(value, 'flowId')) &&
    (leftAt === undefined || Number.isFinite(leftAt))
  );
}
