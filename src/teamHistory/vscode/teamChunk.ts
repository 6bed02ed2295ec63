import { onFirstUse, type OnFirstUse } from '../../base/onFirstUse';
import type * as TeamStoreCode from './teamHistoryConnection';

/**
 * The code of a connected store: the `teamHistory` chunk (esbuild.js CHUNKS: src/teamHistory with the `postgres`
 * driver), loaded only when a connection string is kept or given. The web build has none (teamChunk.browser.ts,
 * swapped in by esbuild.js): VS Code for the Web has no TCP, and `postgres` (net, tls) is never bundled there.
 */
export function teamChunk(onError: (error: unknown) => void): OnFirstUse<typeof TeamStoreCode> | undefined {
  return onFirstUse(() => import('./teamHistoryConnection'), { onError });
}
