import { SyntaxKind, createScanner } from 'jsonc-parser';

/** Larger settings files are not read: the check only feeds a log line, and must never freeze the window. */
export const MAX_SETTINGS_FILE_CHARS = 1024 * 1024;

/**
 * Which of `keys` (of `section`) a settings file (JSONC) sets at the top level, as a dotted key
 * (`"flowsync.baseUrl"`) or inside a `"flowsync": { … }` object. One pass of jsonc-parser's scanner, with an
 * explicit stack: linear in the file's length, whatever its nesting, and never fooled by strings or comments.
 * Undefined for a file over MAX_SETTINGS_FILE_CHARS.
 */
export function settingsFileSets(text: string, section: string, keys: readonly string[]): string[] | undefined {
  if (text.length > MAX_SETTINGS_FILE_CHARS) return undefined;
  const found = new Set<string>();
  const scanner = createScanner(text, true);
  /** One entry per open object or array: the property it is the value of, for objects; undefined for arrays. */
  const open: Array<{ object: boolean; property?: string }> = [];
  let expectKey = false;
  let property: string | undefined;
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    switch (token) {
      case SyntaxKind.OpenBraceToken:
        open.push({ object: true, property });
        expectKey = true;
        property = undefined;
        break;
      case SyntaxKind.OpenBracketToken:
        open.push({ object: false });
        expectKey = false;
        property = undefined;
        break;
      case SyntaxKind.CloseBraceToken:
      case SyntaxKind.CloseBracketToken:
        open.pop();
        expectKey = false;
        property = undefined;
        break;
      case SyntaxKind.CommaToken:
        expectKey = open.at(-1)?.object === true;
        property = undefined;
        break;
      case SyntaxKind.StringLiteral:
        if (!expectKey) break;
        expectKey = false;
        property = scanner.getTokenValue();
        if (open.length === 1 && open[0].object && property.startsWith(`${section}.`)) {
          found.add(property.slice(section.length + 1));
        }
        if (open.length === 2 && open[0].object && open[1].object && open[1].property === section) found.add(property);
        break;
      default:
        break;
    }
  }
  return keys.filter((key) => found.has(key));
}
