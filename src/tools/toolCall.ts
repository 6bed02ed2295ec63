import type { ListState } from '../lists/refresh';
import { Answer, joined, quote, t } from './dataBlock';
import type { TOOL_NAMES } from './toolNames';

/**
 * A tool call as a whole, whichever tool: when to load first, its progress message, the answer over several services.
 * Pure.
 */

/**
 * Whether a tool call should load the list before answering: nothing is loaded yet, or the data is older than
 * `maxAgeMs` (the refresh interval), or a load is in flight (it is joined). After a failure the list's own retry plan
 * rules: while it backs off (or waits for a new key after "unauthorized") the tool answers from what is held rather
 * than sending the request the backoff holds back.
 */
export function needsLoad(state: Readonly<ListState<unknown>>, now: number, maxAgeMs: number): boolean {
  if (state.loading) return true;
  if (state.failures > 0) return state.nextAttemptAt !== undefined && state.nextAttemptAt <= now;
  return state.loadedAt === undefined || now - state.loadedAt >= maxAgeMs;
}

/** The short progress message while a tool runs (prepareInvocation). */
export function invocationMessage(tool: keyof typeof TOOL_NAMES): string {
  switch (tool) {
    case 'processing':
      return t('Reading the Flow Sync flow syncs processing now');
    case 'connections':
      return t('Reading the Flow Sync connections');
    case 'history':
      return t('Reading the Flow Sync history');
    case 'insights':
      return t('Reading the Flow Sync flow insights');
  }
}

/**
 * The answer over several services: a sentence, then each service's own answer, whose block names its service on its
 * "service" line. `parts` are those answers (made with the service's name in their snapshot).
 */
export function severalServicesResult(parts: readonly string[]): string {
  const head = new Answer()
    .say(
      t(
        'Flow Sync has {0} services. Each one\'s answer follows, with its own data block; the "service" line of a block names the service its rows are from.',
        parts.length,
      ),
    )
    .text();
  return [head, ...parts].join('\n\n');
}

/** The answer when the `service` asked for is not set up: says so, and names the services that are (as data). */
export function unknownServiceResult(asked: string, services: readonly string[], hide?: string): string {
  return new Answer()
    .say(
      t(
        'No Flow Sync service of the name asked for (the "asked" line of the data block) is set up. The services that are set up are on the "services" line; ask again with one of them, or without "service" for all of them.',
      ),
    )
    .note(t('asked: {0}', quote(asked, hide, 60)))
    .note(
      t(
        'services: {0}',
        joined(
          services.map((name) => quote(name, hide, 60)),
          ', ',
        ),
      ),
    )
    .text();
}
