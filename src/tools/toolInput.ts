import { bounded } from '../base/inert';
import { MAX_FILTER_LENGTH } from '../filter/filterQuery';

/** A tool's input, as a language model sends it: untrusted, read by each tool's reader through these. Pure. */

/** Rows a result lists unless the caller asks for another number (`limit`); never more than MAX_ROWS. */
export const DEFAULT_ROWS = 25;
export const MAX_ROWS = 100;

/** Longest filter text accepted from the caller. */
const MAX_FILTER = 100;

/** The `service` input of every tool: a service's name (several services), bounded; none: every service. */
export function serviceInput(raw: unknown): string | undefined {
  return inputText(inputRecord(raw).service);
}

/**
 * A `filter` input: a string, cut a little past the filter's own bound (so the answer can say it is too long, not read
 * a page of it); empty means none.
 */
export function filterInput(o: Record<string, unknown>): { filter?: string } {
  if (typeof o.filter !== 'string') return {};
  const cut = bounded(o.filter, MAX_FILTER_LENGTH + 1);
  return cut.trim() ? { filter: cut } : {};
}

export function inputRecord(raw: unknown): Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
}

/** A filter: a string (or a number, which models sometimes send for ids), trimmed and bounded; empty means none. */
export function inputText(value: unknown): string | undefined {
  const s =
    typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
  const trimmed = s?.trim().slice(0, MAX_FILTER);
  return trimmed ? trimmed : undefined;
}

export function inputLimit(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  if (!Number.isFinite(n)) return DEFAULT_ROWS;
  return Math.min(MAX_ROWS, Math.max(1, Math.floor(n)));
}
