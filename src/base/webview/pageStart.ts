/// <reference lib="dom" />
/**
 * What every webview page of the extension (the activity chart's, Flow Insights', the Run Timeline's) does first, in
 * the page (a browser): VS Code's API for it, the Content Security Policy violations it sees (each render reports them;
 * the tests expect none), whether its style sheet was applied (the sheet sets `--flowsync-<page>-css: 1`: a policy that
 * blocked it fired its violation before the script listened), and `el`, an element made with its properties and
 * children (text as text: never markup).
 */

/** VS Code's API in a webview page: `M`, the messages the page posts. */
export interface PageApi<M> {
  postMessage(message: M): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): PageApi<unknown>;

/** The page's API and the violations it has seen (filled as they come); `page` names its sheet (e.g. 'timeline'). */
export function startPage<M>(page: string): { vscode: PageApi<M>; violations: string[] } {
  const vscode = acquireVsCodeApi() as PageApi<M>;
  const violations: string[] = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    violations.push(`${e.effectiveDirective} ${e.blockedURI || '(inline)'}`),
  );
  if (getComputedStyle(document.documentElement).getPropertyValue(`--flowsync-${page}-css`).trim() !== '1') {
    violations.push(`style-src ${page}.css (not applied)`);
  }
  return { vscode, violations };
}

/** An element with its properties and children (strings become text nodes). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}
