import type { FlowSync } from '../api/types';
import { Emitter, type Event } from '../base/events';
import { escapeMarkdown, timeAgo } from '../base/format';
import { t } from '../base/l10n';
import { entryFlowLabel, type HistoryEntry } from './entry';
import { eta } from './eta';
import type { FlowStats } from './stats';
import { durationText, flowStatsText } from './texts';
import { STATE_KEYS } from '../base/stateKeys';

/**
 * Pinned flows: a pinned flow stays in the Processing view (first) while nothing of it is processing, with its last
 * run from History. Pins are kept per service (its History scope: its URL, with its team filter when it has one) in
 * one globalState value that Settings Sync carries to the person's other machines, so it is small and bounded: at most
 * MAX_PINS flow ids per service, at most MAX_PIN_SCOPES services, each id a positive safe integer. Pure: no vscode.
 */
export const PINS_STATE_KEY = STATE_KEYS.pins;
/** The most flows pinned per service. */
export const MAX_PINS = 50;
/** The most services whose pins are kept (the oldest written gives way). */
export const MAX_PIN_SCOPES = 100;
/** A scope longer than this is no service URL this extension made: such pins are never read or written. */
const MAX_SCOPE_LENGTH = 2_100;

/** What the stored value of every service's pins looks like: scope → flow ids, in the order they were pinned. */
export type StoredPins = Record<string, number[]>;

function isFlowId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** The pins of `scope` in the stored value; anything without the expected shape is ignored; at most MAX_PINS. */
export function readPins(stored: unknown, scope: string | undefined): readonly number[] {
  if (!scope || scope.length > MAX_SCOPE_LENGTH || !isRecord(stored) || !Object.hasOwn(stored, scope)) return [];
  const ids = stored[scope];
  if (!Array.isArray(ids)) return [];
  return [...new Set(ids.slice(0, MAX_PINS * 4).filter(isFlowId))].slice(0, MAX_PINS);
}

/**
 * The stored value with `ids` pinned (`on`) or unpinned for `scope`; every other service's pins kept (those of
 * readable shape), the scope written last, the oldest scopes dropped beyond MAX_PIN_SCOPES. `refused`: the ids not
 * pinned because the service already has MAX_PINS.
 */
export function withPins(
  stored: unknown,
  scope: string,
  ids: readonly number[],
  on: boolean,
): { value: StoredPins; refused: number[] } {
  const value: StoredPins = {};
  if (isRecord(stored)) {
    for (const key of Object.keys(stored)) {
      const kept = readPins(stored, key);
      if (key !== scope && kept.length) value[key] = [...kept];
    }
  }
  const pins = [...readPins(stored, scope)];
  const refused: number[] = [];
  for (const id of ids.filter(isFlowId)) {
    const at = pins.indexOf(id);
    if (!on && at >= 0) pins.splice(at, 1);
    else if (on && at < 0 && pins.length < MAX_PINS) pins.push(id);
    else if (on && at < 0) refused.push(id);
  }
  if (pins.length && scope.length <= MAX_SCOPE_LENGTH) value[scope] = pins;
  const scopes = Object.keys(value);
  for (const key of scopes.slice(0, Math.max(0, scopes.length - MAX_PIN_SCOPES))) delete value[key];
  return { value, refused };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where the pins of every service are kept, as one value (VS Code's globalState, synced by Settings Sync). */
export interface PinStore {
  read(): unknown;
  write(value: StoredPins): PromiseLike<void>;
}

/** The pins of one service (its scope can change with the settings); reads the store anew, so another window's or machine's pins count. */
export class FlowPins {
  private readonly changes = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changes.event;
  private last: { stored: unknown; scope: string | undefined; ids: readonly number[] } | undefined;

  constructor(
    private readonly store: PinStore,
    private readonly scope: () => string | undefined,
  ) {}

  /** The pinned flow ids of the current service, in the order pinned. */
  ids(): readonly number[] {
    const stored = this.store.read();
    const scope = this.scope();
    let last = this.last;
    if (last === undefined || last.stored !== stored || last.scope !== scope) {
      last = { stored, scope, ids: readPins(stored, scope) };
      this.last = last;
    }
    return last.ids;
  }

  has(flowId: number): boolean {
    return this.ids().includes(flowId);
  }

  /** Pins or unpins flows of the current service; the ids refused (MAX_PINS reached); nothing without a service. */
  async set(ids: readonly number[], on: boolean): Promise<{ refused: number[] }> {
    const scope = this.scope();
    if (!scope) return { refused: [] };
    const { value, refused } = withPins(this.store.read(), scope, ids, on);
    await this.store.write(value);
    this.changes.fire();
    return { refused };
  }

  dispose(): void {
    this.changes.dispose();
  }
}

// ------------------------------------------------------------ what a pinned flow shows

/** The newest run of each of `flowIds` among History's entries (newest first); stops once each is found. */
export function lastRuns(entries: readonly HistoryEntry[], flowIds: readonly number[]): Map<number, HistoryEntry> {
  const wanted = new Set(flowIds);
  const found = new Map<number, HistoryEntry>();
  for (const entry of entries) {
    if (found.size === wanted.size) break;
    if (wanted.has(entry.flowId) && !found.has(entry.flowId)) found.set(entry.flowId, entry);
  }
  return found;
}

/** A pinned flow with nothing processing: its row ("Nightly export", "idle · last run 2 h ago, ran about 7 min"). */
export interface IdleFlowRow {
  readonly flowId: number;
  readonly label: string;
  /** The description's parts: "idle", then the last run or "no run seen yet". */
  readonly descriptions: readonly string[];
  /** Plain text (made Markdown by the hover): pinned, the last run, its usual duration. */
  readonly tooltip: string;
}

export function idleFlowRow(
  flowId: number,
  lastRun: HistoryEntry | undefined,
  stats: FlowStats | undefined,
  now: number,
): IdleFlowRow {
  const last = lastRun
    ? t('last run {0}, ran {1}', agoMs(lastRun.leftAt, now), durationText(lastRun.duration))
    : t('no run seen yet');
  const usual = eta(stats, 0, false)?.detail ?? usualText(stats);
  return {
    flowId,
    label: lastRun ? entryFlowLabel(lastRun) : t('Flow {0}', flowId),
    descriptions: [t('idle'), last],
    tooltip: [
      t('Pinned: it stays in this view while none of its syncs is processing.'),
      lastRun
        ? t(
            'Last run: #{0}, no longer processing {1}, ran {2}.',
            lastRun.id,
            agoMs(lastRun.leftAt, now),
            durationText(lastRun.duration),
          )
        : t('No run of it seen yet: History lists its syncs once they leave processing.'),
      usual,
    ].join('\n\n'),
  };
}

function usualText(stats: FlowStats | undefined): string {
  const typical = flowStatsText(stats);
  return typical
    ? t('Typical duration: {0}.', typical)
    : t('No typical duration yet: it is learned from the syncs seen leaving processing.');
}

function agoMs(ms: number, now: number): string {
  return timeAgo(new Date(Number.isFinite(ms) ? ms : now).toISOString(), now);
}

/** The rows of the pinned flows with nothing processing, in the order pinned. */
export function idleFlowRows(
  pinned: readonly number[],
  busy: ReadonlySet<number>,
  entries: readonly HistoryEntry[],
  stats: ReadonlyMap<number, FlowStats>,
  now: number,
): IdleFlowRow[] {
  const idle = pinned.filter((id) => !busy.has(id));
  const runs = lastRuns(entries, idle);
  return idle.map((id) => idleFlowRow(id, runs.get(id), stats.get(id), now));
}

/** A pinned flow's state, for the status bar's hover: "idle", "processing 2", "processing 2, 1 with errors". */
export interface PinnedState {
  readonly name: string;
  readonly state: string;
}

export function pinnedStates(
  pinned: readonly number[],
  processing: readonly { readonly value: FlowSync }[],
  entries: readonly HistoryEntry[],
): PinnedState[] {
  const busy = new Map<number, { name: string; count: number; errors: number }>();
  if (!pinned.length) return [];
  for (const { value: s } of processing) {
    if (!pinned.includes(s.flow_id)) continue;
    const flow = busy.get(s.flow_id) ?? { name: s.flow?.name?.trim() || t('Flow {0}', s.flow_id), count: 0, errors: 0 };
    flow.count++;
    if (s.errors !== null && s.errors !== undefined) flow.errors++;
    busy.set(s.flow_id, flow);
  }
  const runs = lastRuns(
    entries,
    pinned.filter((id) => !busy.has(id)),
  );
  return pinned.map((id) => {
    const flow = busy.get(id);
    if (!flow) return { name: runs.has(id) ? entryFlowLabel(runs.get(id)!) : t('Flow {0}', id), state: t('idle') };
    const processingText = t('processing {0}', flow.count);
    return {
      name: flow.name,
      state: flow.errors ? t('{0}, {1} with errors', processingText, flow.errors) : processingText,
    };
  });
}

/** The status bar hover's lines of the pinned flows: "- Nightly export: idle" each (at most 10, then how many more). */
export function pinnedLines(states: readonly PinnedState[]): string[] {
  const lines = states.slice(0, 10).map((p) => `- ${escapeMarkdown(p.name)}: ${p.state}`); // the state: our words
  if (states.length > 10) lines.push(t('- and {0} more', states.length - 10));
  return lines;
}
