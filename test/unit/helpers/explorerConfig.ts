import type { ExplorerConfig } from '../../../src/lists/explorer';

/**
 * The configuration of an Explorer pointed at a mock service with `apiKey`: polling every 30 s unless `overrides`
 * say otherwise. Shared by the unit tests and the bench (bench/lib/common.mjs outTestHelper).
 */
export function explorerConfig(
  baseUrl: string,
  apiKey: string,
  overrides: Partial<ExplorerConfig> = {},
): ExplorerConfig {
  return {
    baseUrl,
    apiKey,
    teamId: '',
    allowHttp: false,
    timeoutMs: 5000,
    autoRefresh: true,
    refreshIntervalMs: 30_000,
    userAgent: 'flowsync-explorer/test',
    ...overrides,
  };
}
