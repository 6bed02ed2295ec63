/**
 * Every string a user sees goes through `t`. The pure layers cannot import `vscode`, so the extension installs
 * vscode.l10n.t here at activation; in plain Node (unit tests, the mock, benchmarks) `t` fills in {0}-style
 * placeholders only. Messages are the keys of l10n/bundle.l10n.json.
 */
export type Localize = (message: string, ...args: Array<string | number | boolean>) => string;

export const fillPlaceholders: Localize = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (match, index: string) =>
    args[Number(index)] !== undefined ? String(args[Number(index)]) : match,
  );

let localize: Localize = fillPlaceholders;

export function t(message: string, ...args: Array<string | number | boolean>): string {
  return localize(message, ...args);
}

export function useLocalize(fn: Localize): void {
  localize = fn;
}
