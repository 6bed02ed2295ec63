import * as vscode from 'vscode';
import { DisposableStore } from '../events';
import { makeNonce } from '../nonce';
import { webviewHtml } from '../webviewPage';
import { PageHandshake, type OnePanel, type PageMessages } from '../webviewPanel';

/** What a webview panel of this extension is: its type, title, page (dist/webview/<page>.js and .css) and find widget. */
export interface WebviewHostOptions {
  readonly viewType: string;
  /** The panel's title (already translated). */
  readonly title: string;
  /** The page's name: its script and style are dist/webview/<page>.js and <page>.css. */
  readonly page: string;
  readonly enableFindWidget: boolean;
  /** How long data changes are gathered before the page is sent new data. */
  readonly changeDelayMs: number;
}

/** What the next host of a view type takes: a restored panel, and what its page keeps for the host (see `opening`). */
export interface Opening {
  readonly panel?: vscode.WebviewPanel;
  readonly keep?: Readonly<Record<string, string>>;
}

/**
 * The one host of the extension's webview panels (the activity chart, Flow Insights, the Run Timeline): the one open panel of each kind
 * (shown again, not duplicated: `show`), the panel in the active column, with scripts from dist/webview only, its page
 * (webviewPage.ts: the strict Content Security Policy, a nonce per load), the page's ready handshake (webviewPanel.ts:
 * messages before the page, this load of it, said 'ready' are lost, so nothing is posted until then), and the changes
 * of data gathered before a post. The page is dropped while the panel is hidden (no retainContextWhenHidden) and says
 * 'ready' again when shown. Each panel keeps what is its own: its messages and its data.
 */
export class WebviewHost<M extends { readonly type: string }> implements vscode.Disposable {
  /** Per view type: what the next host of that type takes (see `opening`). */
  private static readonly next = new Map<string, Opening>();

  /**
   * Runs `show` (the panel's own show: its command's, or a restore's) so that the host it makes of `viewType` takes
   * `opening`: a panel VS Code restored after a reload (WebviewPanelSerializer) instead of a new one, and `keep`, what
   * the page keeps for the next restore beside its own state (e.g. which service it shows: the page gets it as
   * `{ type: 'keep', keep }` once ready, and stores it under `host` in its state). A restored panel no host took (one of
   * its kind is open already) is closed.
   */
  static opening<T>(viewType: string, opening: Opening, show: () => T): T {
    WebviewHost.next.set(viewType, opening);
    try {
      return show();
    } finally {
      const left = WebviewHost.next.get(viewType);
      WebviewHost.next.delete(viewType);
      if (left?.panel && left === opening) left.panel.dispose();
    }
  }

  /**
   * The open panel of a kind, revealed (then `again`), or the one `make` makes (it makes its host), open until its
   * panel closes.
   */
  static show<P extends { readonly panel: vscode.WebviewPanel }>(
    kind: OnePanel<P>,
    make: () => P,
    again?: (open: P) => void,
  ): P {
    return kind.show(
      () => {
        const made = make();
        made.panel.onDidDispose(() => kind.closed(made));
        return made;
      },
      (open) => {
        open.panel.reveal();
        again?.(open);
      },
    );
  }

  readonly panel: vscode.WebviewPanel;
  private readonly disposables = new DisposableStore();
  private readonly handshake: PageHandshake<M>;
  private readonly changeDelayMs: number;
  private changeTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  /** `messages`: the page's messages as the panel reads them; the host is disposed when the panel is closed. */
  constructor(extensionUri: vscode.Uri, options: WebviewHostOptions, messages: PageMessages<M>) {
    const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    const opening = WebviewHost.next.get(options.viewType);
    WebviewHost.next.delete(options.viewType);
    const keep = opening?.keep;
    this.handshake = new PageHandshake({
      ...messages,
      ready: () => {
        if (keep) void this.panel.webview.postMessage({ type: 'keep', keep });
        messages.ready();
      },
    });
    const scripts = { enableScripts: true, localResourceRoots: [root] };
    if (opening?.panel) {
      // restored after a reload: its place and options are VS Code's; its page is made anew
      this.panel = opening.panel;
      this.panel.webview.options = scripts;
      this.panel.title = options.title;
    } else {
      this.panel = vscode.window.createWebviewPanel(
        options.viewType,
        options.title,
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
        { ...scripts, retainContextWhenHidden: false, enableFindWidget: options.enableFindWidget },
      );
    }
    this.changeDelayMs = options.changeDelayMs;
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'flowsync.svg');
    this.disposables.add(
      this.panel.webview.onDidReceiveMessage((data) => this.handshake.receive(data)),
      this.panel.onDidChangeViewState(() => {
        // hidden: the page is gone; it says 'ready' when it loads again
        if (!this.panel.visible) this.handshake.dropped();
      }),
      { dispose: () => clearTimeout(this.changeTimer) },
    );
    this.panel.onDidDispose(() => this.dispose());
    const webview = this.panel.webview;
    const file = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(root, name)).toString();
    webview.html = webviewHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: file(`${options.page}.js`),
      styleUri: file(`${options.page}.css`),
      lang: vscode.env.language,
      title: options.title,
    });
  }

  /** True while the page (this load of it) takes messages. */
  get ready(): boolean {
    return this.handshake.ready && !this.disposed;
  }

  /** Sends a message to the page, when it is ready. */
  post(message: unknown): void {
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  /** Data changed: `send` runs once after the changes of changeDelayMs, if the panel is visible then. */
  changed(send: () => void): void {
    if (this.changeTimer !== undefined) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      if (this.panel.visible) send();
    }, this.changeDelayMs);
  }

  /** Disposes with the panel. */
  add(...disposables: vscode.Disposable[]): void {
    this.disposables.add(...disposables);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposables.dispose();
    this.panel.dispose();
  }
}
