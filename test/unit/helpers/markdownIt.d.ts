/** What the tests read of markdown-it (the renderer of VS Code's Markdown preview; it ships no types of its own). */
declare module 'markdown-it' {
  interface Token {
    readonly type: string;
    readonly content: string;
    readonly children: Token[] | null;
    attrGet(name: string): string | null;
  }
  interface MarkdownIt {
    parse(source: string, env: object): Token[];
  }
  const MarkdownIt: new (options?: { html?: boolean; linkify?: boolean }) => MarkdownIt;
  export default MarkdownIt;
}
