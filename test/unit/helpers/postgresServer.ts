/**
 * The real PostgreSQL of the store tests: one server per test run (test/rig/postgres.mjs), started by the first suite
 * that asks for it and stopped after the last test (or, should the run end otherwise, when the process exits).
 */
import * as path from 'node:path';

export type Role = 'admin' | 'owner' | 'reader';

export interface PostgresServer {
  readonly port: number;
  readonly timings: Record<string, number>;
  readonly certificate: string;
  url(role?: Role, database?: string, options?: { host?: string; sslmode?: string }): string;
  password(role: Role): string;
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  stop(): Promise<void>;
}

interface Rig {
  startPostgres(): Promise<PostgresServer>;
}

let server: Promise<PostgresServer> | undefined;

/** The rig, an ES module of the repository (not compiled): from out/test/unit/helpers, four folders up. */
const RIG = path.join(__dirname, '..', '..', '..', '..', 'test', 'rig', 'postgres.mjs');

export function postgresServer(): Promise<PostgresServer> {
  server ??= (import(RIG) as Promise<Rig>).then((rig) => rig.startPostgres());
  return server;
}

after(async () => {
  if (server) await (await server).stop();
});
