/**
 * What every webview panel of the extension (the activity chart, Flow Insights, the Run Timeline) has alike, pure: one open panel of a
 * kind, and the page's ready handshake. The host (src/base/vscode/webviewHost.ts) holds them for each panel; a panel
 * keeps only its messages and its data.
 */

/** A page's messages as its panel reads them: checked (a webview is a web page: what it posts is not trusted). */
export interface PageMessages<M extends { readonly type: string }> {
  /** A message from the page, checked field by field; undefined for anything else. */
  parse(data: unknown): M | undefined;
  /** The page (this load of it) said 'ready': send it everything it shows. */
  ready(): void;
  /** Any other message of the page. */
  receive(message: M): void;
}

/**
 * The page's ready handshake: a message posted before the page (this load of it) has said 'ready' is lost, so nothing
 * is posted until then; a hidden page is dropped (no retainContextWhenHidden) and says 'ready' again when shown.
 */
export class PageHandshake<M extends { readonly type: string }> {
  private loaded = false;

  constructor(private readonly page: PageMessages<M>) {}

  /** True while the page (this load of it) takes messages. */
  get ready(): boolean {
    return this.loaded;
  }

  /** A message of the page: 'ready' makes it ready and has everything sent; another goes to the panel. */
  receive(data: unknown): void {
    const message = this.page.parse(data);
    if (!message) return;
    if (message.type === 'ready') {
      this.loaded = true;
      this.page.ready();
    } else {
      this.page.receive(message);
    }
  }

  /** The page is gone (the panel was hidden): it takes nothing until it says 'ready' again. */
  dropped(): void {
    this.loaded = false;
  }
}

/** The one open panel of a kind: shown again (revealed), never a second one; let go when it closes. */
export class OnePanel<P> {
  private open: P | undefined;

  /** The open panel, if any. */
  get current(): P | undefined {
    return this.open;
  }

  /** The open panel, after `again` (it reveals it); else the one `make` makes, open from now on. */
  show(make: () => P, again: (open: P) => void): P {
    const open = this.open;
    if (open !== undefined) {
      again(open);
      return open;
    }
    const made = make();
    this.open = made;
    return made;
  }

  /** `panel` closed: no panel of the kind is open (unless another is: then nothing changes). */
  closed(panel: P): void {
    if (this.open === panel) this.open = undefined;
  }
}
