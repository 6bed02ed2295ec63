import { t } from '../base/l10n';
import { ApiError } from './errors';
import type { Connection, FlowSync, Item, ListResult } from './types';

/** More entries than this in one answer: refused whole, before any per-item work. */
export const MAX_ITEMS = 100_000;
/** Deepest nesting of objects and arrays an item may have: deeper ones are dropped (JSON.stringify would throw). */
export const MAX_ITEM_DEPTH = 32;

/** Returns the typed value, or a reason (a short phrase) why the object does not have the documented shape. */
export type Validator<T> = (o: Record<string, unknown>) => T | string;

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{id, name}` summaries are optional extras: a malformed one is ignored rather than failing the item. */
function summary(v: unknown): { id: number; name: string } | undefined {
  return isObject(v) && isInt(v.id) && isStr(v.name) ? { id: v.id, name: v.name } : undefined;
}

export const validateFlowSync: Validator<FlowSync> = (o) => {
  if (!isInt(o.id)) return 'id is not an integer';
  if (!isInt(o.flow_id)) return 'flow_id is not an integer';
  if (!isStr(o.status)) return 'status is not a string';
  if (!isStr(o.created_at)) return 'created_at is not a string';
  if (!isStr(o.updated_at)) return 'updated_at is not a string';
  if (o.webhook !== undefined && typeof o.webhook !== 'boolean') return 'webhook is not a boolean';
  return {
    id: o.id,
    flow_id: o.flow_id,
    status: o.status,
    created_at: o.created_at,
    updated_at: o.updated_at,
    errors: o.errors ?? null,
    webhook: o.webhook === true,
    flow: summary(o.flow),
  };
};

export const validateConnection: Validator<Connection> = (o) => {
  if (!isInt(o.id)) return 'id is not an integer';
  if (!isStr(o.name)) return 'name is not a string';
  if (!isStr(o.type)) return 'type is not a string';
  if (!isInt(o.team_id)) return 'team_id is not an integer';
  if (!isInt(o.user_id)) return 'user_id is not an integer';
  if (!isStr(o.created_at)) return 'created_at is not a string';
  if (!isStr(o.updated_at)) return 'updated_at is not a string';
  if (o.meta !== undefined && o.meta !== null && !isObject(o.meta)) return 'meta is not an object';
  return {
    id: o.id,
    name: o.name,
    type: o.type,
    team_id: o.team_id,
    team: summary(o.team),
    user_id: o.user_id,
    created_at: o.created_at,
    updated_at: o.updated_at,
    meta: isObject(o.meta) ? o.meta : {},
  };
};

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
