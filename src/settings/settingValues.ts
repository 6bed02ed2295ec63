import { t } from '../base/l10n';

/** `flowsync.notifyWhenFinished`: no notifications, only for watched syncs and flows, or for every sync that leaves. */
export type NotifyMode = 'off' | 'watched' | 'all';
const NOTIFY_MODES: readonly NotifyMode[] = ['off', 'watched', 'all'];
const DEFAULT_NOTIFY_MODE: NotifyMode = 'watched';

/** A setting's value as a mode; anything unknown is the default. */
export function notifyMode(value: unknown): NotifyMode {
  return NOTIFY_MODES.includes(value as NotifyMode) ? (value as NotifyMode) : DEFAULT_NOTIFY_MODE;
}

/**
 * The values of `flowsync.*` settings, made safe. A workspace (a cloned repository's .vscode/settings.json) may set
 * every setting but the service URL and allowHttp, so every value is treated as untrusted input: numbers are clamped
 * to the bounds package.json declares, anything of the wrong type falls back to the default, and the team id must
 * be digits. Pure: settings.ts reads VS Code's configuration and passes the raw values here.
 */
export interface SettingValues {
  teamId: string;
  /** Why a configured team id was not used (it is then ignored: no filter). */
  teamIdProblem?: string;
  autoRefresh: boolean;
  refreshIntervalSeconds: number;
  requestTimeoutSeconds: number;
  notifyWhenFinished: NotifyMode;
  /** `flowsync.notifyOnErrors`: when a processing sync reports errors, for no sync, watched ones, or every one. */
  notifyOnErrors: NotifyMode;
  /** 0: learned from each flow's history; positive: a fixed threshold. */
  stuckAfterMinutes: number;
  historyDays: number;
}

export interface NumberBounds {
  min: number;
  max: number;
  fallback: number;
}

/** The bounds of each numeric setting, the same as `minimum`, `maximum` and `default` in package.json (a test checks). */
export const SETTING_BOUNDS: Record<string, NumberBounds> = {
  // A day; ×4 while unfocused is still far below the 24.8 days a timer can hold.
  refreshIntervalSeconds: { min: 5, max: 86_400, fallback: 30 },
  requestTimeoutSeconds: { min: 1, max: 300, fallback: 15 },
  // A week.
  stuckAfterMinutes: { min: 0, max: 10_080, fallback: 0 },
  historyDays: { min: 1, max: 90, fallback: 7 },
};

/** Longest team id accepted: 18 digits stay a safe integer. */
const TEAM_ID = /^\d{1,18}$/;

export function normalizeSettings(raw: Record<string, unknown>): SettingValues {
  const team = normalizeTeamId(raw.teamId);
  return {
    ...team,
    autoRefresh: raw.autoRefresh !== false,
    refreshIntervalSeconds: bounded(raw.refreshIntervalSeconds, SETTING_BOUNDS.refreshIntervalSeconds),
    requestTimeoutSeconds: bounded(raw.requestTimeoutSeconds, SETTING_BOUNDS.requestTimeoutSeconds),
    notifyWhenFinished: notifyMode(raw.notifyWhenFinished),
    notifyOnErrors: notifyMode(raw.notifyOnErrors),
    stuckAfterMinutes: bounded(raw.stuckAfterMinutes, SETTING_BOUNDS.stuckAfterMinutes),
    historyDays: Math.round(bounded(raw.historyDays, SETTING_BOUNDS.historyDays)),
  };
}

export function bounded(value: unknown, { min, max, fallback }: NumberBounds): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

/** A team id as settings may hold it (digits, or a safe integer); undefined when it is not one. '' for none. */
export function teamIdOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return '';
  const text =
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? String(value)
      : typeof value === 'string'
        ? value.trim()
        : undefined;
  if (text === '') return '';
  return text !== undefined && TEAM_ID.test(text) ? teamKey(text) : undefined;
}

/**
 * A team id as a number is written: digits without leading zeros ("01" and " 001 " are team 1, "000" is 0). Team ids
 * are integers to the service; every comparison (duplicate entries, History scopes) and every request uses this form.
 * Text that is not digits is returned trimmed, as it is.
 */
export function teamKey(teamId: string): string {
  const text = teamId.trim();
  return /^\d+$/.test(text) ? text.replace(/^0+(?=\d)/, '') : text;
}

function normalizeTeamId(value: unknown): Pick<SettingValues, 'teamId' | 'teamIdProblem'> {
  const teamId = teamIdOf(value);
  if (teamId !== undefined) return { teamId };
  return {
    teamId: '',
    teamIdProblem: t('The team filter (flowsync.teamId) must be digits only, such as 42; it is ignored until fixed.'),
  };
}
