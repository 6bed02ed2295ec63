import type { Connection, FlowSync } from './types';

/** More entries than this in one answer: refused whole, before any per-item work. */
export const MAX_ITEMS = 100_000;
/** Deepest nesting of objects and arrays an item may have: deeper ones are dropped (JSON.stringify would throw). */
export const MAX_ITEM_DEPTH = 32;

/** Returns the typed value, or a reason (a short phrase) why the object does not have the documented shape. */
export type Validator<T> = (o: Record<string, unknown>) => T | string;

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

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
