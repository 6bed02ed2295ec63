import { t } from '../base/l10n';
import { ApiError } from './errors';
import type { Item, ListResult } from './types';
import { MAX_ITEMS, MAX_ITEM_DEPTH, isObject, type Validator } from './validate';

/*
 * A list answer as the client and the shared files read it (an item's own shape is validate.ts's, which the lists'
 * definitions name from the start).
 */

/**
 * Checks a list body: it must be a JSON array (else ApiError invalidResponse); each entry is validated on its own and
 * a bad one is dropped and counted, never failing the whole list. The raw objects are kept, unknown fields included.
 */
export function validateList<T extends { id: number }>(
  body: unknown,
  validate: Validator<T>,
  label: string,
): Omit<ListResult<T>, 'fingerprint'> {
  if (!Array.isArray(body)) {
    const got = body === null ? 'null' : typeof body === 'object' ? t('an object') : t('a {0}', typeof body);
    throw new ApiError(
      'invalidResponse',
      t('The service answered {0} with {1} where a list was expected.', label, got),
    );
  }
  if (body.length > MAX_ITEMS) {
    throw new ApiError(
      'invalidResponse',
      t(
        'The service answered {0} with more than {1} items; it was not loaded.',
        label,
        MAX_ITEMS.toLocaleString('en-US'),
      ),
    );
  }
  const items: Item<T>[] = [];
  // Ids above every id kept so far are new: a list in id order needs no set. The set is made, from the items kept,
  // at the first id that is not above them all.
  let highest = -Infinity;
  let seen: Set<number> | undefined;
  let dropped = 0;
  let firstDropReason: string | undefined;
  for (let i = 0; i < body.length; i++) {
    const raw: unknown = body[i];
    let result = !isObject(raw)
      ? 'not an object'
      : nestedTooDeep(raw)
        ? `nested deeper than ${MAX_ITEM_DEPTH} levels`
        : validate(raw);
    if (typeof result !== 'string' && result.id <= highest) {
      seen ??= new Set(items.map((item) => item.value.id));
      if (seen.has(result.id)) result = `id ${result.id} is listed more than once`;
    }
    if (typeof result === 'string') {
      dropped++;
      firstDropReason ??= `item ${i}: ${result}`;
    } else {
      if (result.id > highest) highest = result.id;
      seen?.add(result.id);
      items.push({ value: result, raw: raw as Record<string, unknown> });
    }
  }
  return { items, dropped, firstDropReason };
}

/**
 * True when objects and arrays inside `value` nest deeper than MAX_ITEM_DEPTH. Recursion stops at that depth, so it
 * cannot overflow the stack; for…in instead of Object.values, so a normal item allocates nothing.
 */
function nestedTooDeep(value: object, depth = 1): boolean {
  if (depth > MAX_ITEM_DEPTH) return true;
  if (Array.isArray(value)) {
    for (const child of value) {
      if (typeof child === 'object' && child !== null && nestedTooDeep(child, depth + 1)) return true;
    }
  } else {
    for (const key in value) {
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null && nestedTooDeep(child, depth + 1)) return true;
    }
  }
  return false;
}
