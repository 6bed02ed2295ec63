/** The embedded store of the store tests: PGlite served on loopback (test/rig/pglite.mjs), one per test run. */
import { oncePerRun } from './rigServer';

export interface EmbeddedServer {
  readonly port: number;
  readonly timings: Record<string, number>;
  url(): string;
  connections(): number;
  stop(): Promise<void>;
}

export const embeddedServer = oncePerRun('pglite.mjs', (rig: { startPglite(): Promise<EmbeddedServer> }) =>
  rig.startPglite(),
);
