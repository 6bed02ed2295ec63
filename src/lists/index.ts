import type { Validator } from '../api/validate';
import type { ListRefresher } from './refresh';
import { connectionsList } from './connections';
import type { ListDefinition } from './list';
import { processingList } from './processing';

/** Every list, in the order of their views. */
export const LISTS = [processingList, connectionsList] as const;

export type AnyList = (typeof LISTS)[number];
export type ListId = AnyList['id'];
/** The same lists, typed for code that works on any list (their value types erased to "has an id"). */
export const ANY_LISTS: readonly ListDefinition<{ id: number }>[] = [...LISTS];

/** The value type of a list definition. */
export type ValueOf<D extends AnyList> = D['validate'] extends Validator<infer T extends { id: number }> ? T : never;
/** The refresher of each list, by id. */
export type ListRefreshers = { [D in AnyList as D['id']]: ListRefresher<ValueOf<D>> };

export function listById(id: string): (ListDefinition<{ id: number }> & { id: ListId }) | undefined {
  return ANY_LISTS.find((list) => list.id === id) as (ListDefinition<{ id: number }> & { id: ListId }) | undefined;
}
