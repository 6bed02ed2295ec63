import { serviceNameKey } from './serviceEntries';

/**
 * Edits of the raw value of `flowsync.services`, as the user's settings hold it. Each edit changes one entry and
 * keeps every other one exactly as it was, also entries that are skipped as invalid: bad input loses nothing. Pure.
 */

/** The raw entries, as an array (anything else counts as none). */
function entriesOf(raw: unknown): unknown[] {
  return Array.isArray(raw) ? [...raw] : [];
}

/**
 * Whether a raw entry is the one of this name, as reading the setting tells names apart (serviceNameKey): an edit of
 * "Production" also reaches an entry skipped as its look-alike, which would otherwise become "Production" once the
 * first is removed, at its own URL.
 */
function named(entry: unknown, name: string): boolean {
  const own = (entry as { name?: unknown } | null)?.name;
  const key = serviceNameKey(name.trim());
  return typeof own === 'string' && key !== '' && serviceNameKey(own.trim()) === key;
}

/** The entries with one more at the end. */
export function withService(raw: unknown, entry: { name: string; url: string; teamId?: string }): unknown[] {
  return [...entriesOf(raw), { name: entry.name, url: entry.url, ...(entry.teamId ? { teamId: entry.teamId } : {}) }];
}

/** The entries without the one of this name. */
export function withoutService(raw: unknown, name: string): unknown[] {
  return entriesOf(raw).filter((entry) => !named(entry, name));
}

/** The entries with the team filter of the one of this name set ('' removes it). */
export function withTeam(raw: unknown, name: string, teamId: string): unknown[] {
  return entriesOf(raw).map((entry) => {
    if (!named(entry, name) || typeof entry !== 'object' || entry === null) return entry;
    const { teamId: _old, ...rest } = entry as Record<string, unknown>;
    return teamId ? { ...rest, teamId } : rest;
  });
}
