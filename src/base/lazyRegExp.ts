/**
 * A regular expression made when first used, then kept. V8 checks a regular expression literal while it compiles the
 * bundle, used or not, and one with Unicode property escapes (`\p{…}`) costs it about 0.4 ms there (it builds the
 * character sets): in the code loaded at start write those as `lazyRegExp` (scripts/check-budgets.mjs checks the
 * bundle for such literals).
 */
export function lazyRegExp(source: string, flags: string): () => RegExp {
  let made: RegExp | undefined;
  return () => (made ??= new RegExp(source, flags));
}
