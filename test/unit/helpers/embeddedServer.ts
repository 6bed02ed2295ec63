/**
 * The embedded store of the store tests: PGlite served on loopback (test/rig/pglite.mjs), one per test run, started by
 * the first suite that asks for it and stopped after the last test.
 */
import * as path from 'node:path';

export interface EmbeddedServer {
  readonly port: number;
  readonly timings: Record<string, number>;
  url(): string;
  connections(): number;
  stop(): Promise<void>;
}

interface Rig {
  startPglite(): Promise<EmbeddedServer>;
}

let server: Promise<EmbeddedServer> | undefined;

/** The rig, an ES module of the repository (not compiled): from out/test/unit/helpers, four folders up. */
const RIG = path.join(__dirname, '..', '..', '..', '..', 'test', 'rig', 'pglite.mjs');

export function embeddedServer(): Promise<EmbeddedServer> {
  server ??= (import(RIG) as Promise<Rig>).then((rig) => rig.startPglite());
  return server;
}

after(async () => {
  if (server) await (await server).stop();
});
