/**
 * Deep equality of two values parsed from JSON (objects, arrays, strings, numbers, booleans, null): what an answer's
 * comparison needs, without stringifying them. Items are bounded in depth by validation (MAX_ITEM_DEPTH), so the
 * recursion is too.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let count = 0;
  for (const key in ao) {
    if (!Object.hasOwn(bo, key) || !sameJson(ao[key], bo[key])) return false;
    count++;
  }
  for (const key in bo) if (Object.hasOwn(bo, key)) count--;
  return count === 0;
}
