import { escapeMarkdown } from '../base/format';

/*
 * Copy as Markdown's text (issue #52, item 7), pure: a row of the views as one line of Markdown to paste into a ticket
 * or a chat, `[#1003 Invoices → Sheets](https://…/syncs/1003) · pending · started 12 min ago`: its title linked to its
 * service's web page where Open in Browser has a template for its kind (src/webPages/webUrl.ts), plain text
 * otherwise, then what its row says. Service text is data, never markup: every text (the link's too) is made inert
 * (one line, bounded, the key masked) and each ASCII punctuation character in it escaped (escapeMarkdown), so a name
 * such as `[x](javascript:alert(1))`, `<img src=x>`, backticks or stars reads as written, in CommonMark, GFM and VS
 * Code's Markdown preview (test/unit/links/markdownLine.test.ts renders it with markdown-it, as the preview does).
 */

/** One row, as Copy as Markdown says it. */
export interface MarkdownRow {
  /** Its id, first in its title: `#1003` (a sync, a History run); none for a flow, connection or team row. */
  readonly id?: number;
  /** Its name (service text): a sync's flow, a connection's or team's name. */
  readonly name: string;
  /** What its row says after it (service text and ours): `pending`, `started 12 min ago`. */
  readonly parts: readonly string[];
  /** Its web page (Open in Browser's template for its kind, filled in), where its service has one. */
  readonly url?: string;
}

/** The most parts of a row said (a row says a few). */
const MAX_PARTS = 8;
/** The longest address linked (a template is at most 2,000 characters, each value a few digits). */
const MAX_ADDRESS_CHARS = 4_000;
/**
 * What may stay as it is in a link's destination: the URL characters that mean nothing to Markdown there. Anything
 * else (parentheses, brackets, angle brackets, spaces, quotes, backslashes, backticks) is percent-encoded.
 */
const UNSAFE_IN_DESTINATION = /[^A-Za-z0-9\-._~:/?#@!$&'*+,;=%]/g;
/** An `&` that would start a character reference (decoded in a destination): percent-encoded too. */
const ENTITY_START = /&(?=[A-Za-z][A-Za-z0-9]{0,31};|#[0-9]{1,7};|#[xX][0-9A-Fa-f]{1,6};)/g;

/** A row as one line: its title (linked where it has a page), then its words, joined by ` · `. */
export function markdownLine(row: MarkdownRow): string {
  const id = row.id !== undefined && Number.isSafeInteger(row.id) && row.id >= 0 ? `#${row.id}` : '';
  const title = [id, escapeMarkdown(row.name)].filter((text) => text.length > 0).join(' ');
  const address = title && row.url !== undefined ? markdownAddress(row.url) : undefined;
  const words = row.parts.filter((_, i) => i < MAX_PARTS).map((part) => escapeMarkdown(part));
  return [address ? `[${title}](${address})` : title, ...words].filter((text) => text.length > 0).join(' · ');
}

/**
 * Several rows: one line each, as a list (consecutive lines would render as one paragraph); one row: its line. A row
 * that says nothing (no id, and nothing left of its texts once inert) gives no line.
 */
export function markdownLines(rows: readonly MarkdownRow[]): string {
  const lines = rows.map(markdownLine).filter((line) => line.length > 0);
  return lines.length === 1 ? lines[0] : lines.map((line) => `- ${line}`).join('\n');
}

/**
 * A page's address as a link's destination: an `http:` or `https:` URL (anything else is no link), as the URL parser
 * writes it, with every character that could end or change the destination percent-encoded. Undefined when it is not
 * such a URL or longer than MAX_ADDRESS_CHARS.
 */
export function markdownAddress(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  const address = parsed.href.replace(ENTITY_START, '%26').replace(UNSAFE_IN_DESTINATION, percentEncoded);
  return address.length <= MAX_ADDRESS_CHARS ? address : undefined;
}

function percentEncoded(character: string): string {
  return [...new TextEncoder().encode(character)]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}
