import { SyntaxKind, createScanner } from 'jsonc-parser';

/** Larger settings files are not read: the check only feeds a log line, and must never freeze the window. */
export const MAX_SETTINGS_FILE_CHARS = 1024 * 1024;

/**
 * Which of `keys` (of `section`) a settings file (JSONC) sets at the top level of its settings, as a dotted key
 * (`"flowsync.baseUrl"`) or inside a `"flowsync": { … }` object. The settings are the file's top-level object, or
 * the object of its top-level property `under` (`"settings"` of a .code-workspace file). One pass of jsonc-parser's
 * scanner, with an explicit stack: linear in the file's length, whatever its nesting, and never fooled by strings or
 * comments. Undefined for a file over MAX_SETTINGS_FILE_CHARS.
 */
export function settingsFileSets(
  text: string,
  section: string,
  keys: readonly string[],
  under?: string,
): string[] | undefined {
  if (text.length > MAX_SETTINGS_FILE_CHARS) return undefined;
  const found = new Set<string>();
  const scanner = createScanner(text, true);
  /** One entry per open object or array: the property it is the value of, for objects; undefined for arrays. */
  const open: Array<{ object: boolean; property?: string }> = [];
  /** How deep the settings' object is: 1, or 2 when it is the value of `under`. */
  const depth = under === undefined ? 1 : 2;
  const inSettings = () =>
    open.length >= depth && open[0].object && (under === undefined || (open[1].object && open[1].property === under));
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
        if (open.length === depth && inSettings() && property.startsWith(`${section}.`)) {
          found.add(property.slice(section.length + 1));
        }
        if (open.length === depth + 1 && open[depth].object && open[depth].property === section && inSettings()) {
          found.add(property);
        }
        break;
      default:
        break;
    }
  }
  return keys.filter((key) => found.has(key));
}
