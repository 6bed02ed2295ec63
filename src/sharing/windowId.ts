/** How many base-36 digits of chance follow the time in a window id. */
const RANDOM_DIGITS = 10;

/**
 * This window's own id, which the windows that share polls tell each other apart by (the lease's holder, the writer of
 * a snapshot, History's file of each window): the time it started (base 36), a dash, then 10 base-36 digits of chance.
 * vscode.env.sessionId would not do: it is the same in every window while telemetry is off.
 */
export function newWindowId(now: number, random: () => number = Math.random): string {
  const chance = Math.floor(Math.min(Math.max(random(), 0), 1 - Number.EPSILON) * 36 ** RANDOM_DIGITS);
  return `${Math.max(0, Math.floor(now)).toString(36)}-${chance.toString(36).padStart(RANDOM_DIGITS, '0')}`;
}
