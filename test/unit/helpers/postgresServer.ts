/**
 * The real PostgreSQL of the store tests: one server per test run (test/rig/postgres.mjs), started by the first suite
 * that asks for it and stopped after the last test (or, should the run end otherwise, when the process exits).
 */
import { oncePerRun } from './rigServer';

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

export const postgresServer = oncePerRun('postgres.mjs', (rig: { startPostgres(): Promise<PostgresServer> }) =>
  rig.startPostgres(),
);
