import postgres from 'postgres';
import type { StoreTarget } from '../connectionString';
import { storeErrorOf } from '../storeErrors';
import type { SqlPort, SqlRow, SqlValue } from '../teamStore';

/*
 * SqlPort over `postgres` (porsager/postgres.js: pure JavaScript, no dependency, no install script). The driver gets the
 * target's fields one by one (never the connection string, so no parameter of it and no PG* environment variable picks
 * another host or option), one connection (writes of one installation never contend with each other), prepared
 * statements (a statement's parameter types are asked once per connection: later writes are one round trip), no type
 * lookups, notices dropped (the driver would print them).
 * Every error it throws becomes a StoreError without the password (storeErrors.ts).
 */

export interface PostgresOptions {
  /** Seconds to wait for a connection (10). */
  readonly connectTimeoutSeconds?: number;
  /** Longest a statement may run on the server (15 s): a slow store never holds the outbox longer. */
  readonly statementTimeoutMs?: number;
}

/** TLS as the target's sslmode asks (see connectionString.ts); Node's trusted certificates, NODE_EXTRA_CA_CERTS included. */
function tlsOf(target: StoreTarget): boolean | 'require' | object {
  switch (target.sslmode) {
    case 'disable':
      return false;
    case 'require':
      return 'require';
    case 'verify-ca':
      return { rejectUnauthorized: true, checkServerIdentity: () => undefined };
    case 'verify-full':
      // `host` is what the certificate is checked against (the driver gives a name, never an address, as servername).
      return { rejectUnauthorized: true, host: target.host };
  }
}

/**
 * The driver's options for a target. The host and port go as one-element lists: postgres.js splits a host text at
 * every ':' (a list of host:port pairs), so an IPv6 address given as text became another host (`::1` the empty name,
 * localhost; `2001:db8::1` the name `2001`).
 */
export function driverOptions(target: StoreTarget, options: PostgresOptions = {}): postgres.Options<never> {
  return {
    // The driver's types say one text and one number; it takes lists of them too (several hosts), as its README says.
    host: [target.host] as never,
    port: [target.port] as never,
    database: target.database,
    username: target.user,
    password: target.password,
    ssl: tlsOf(target),
    max: 1,
    idle_timeout: 60,
    max_lifetime: 30 * 60,
    connect_timeout: options.connectTimeoutSeconds ?? 10,
    prepare: true,
    fetch_types: false,
    debug: false,
    onnotice: () => undefined,
    connection: {
      application_name: 'flowsync-explorer',
      statement_timeout: options.statementTimeoutMs ?? 15_000,
    },
  };
}

export function postgresSql(target: StoreTarget, options: PostgresOptions = {}): SqlPort {
  const secrets = [target.password, encodeURIComponent(target.password)];
  const sql = postgres(driverOptions(target, options));
  const run = async (query: postgres.Sql | postgres.TransactionSql, text: string, params: readonly SqlValue[]) => {
    try {
      // prepare: true per statement (`unsafe` leaves it off whatever the connection's option says: every statement
      // with parameters was then a Parse/Describe round trip before its Bind/Execute one, measured 2 per write).
      const rows = await query.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
      return Array.from(rows as Iterable<SqlRow>); // the rows alone, without the driver's result fields
    } catch (e) {
      throw storeErrorOf(e, secrets);
    }
  };
  /**
   * Once again after a lost connection: the driver hands a cut connection's last word (57P01 when the server ended it)
   * to the statement after the one that was cut, and connects anew only then. Every statement of the store may run
   * twice (reads, idempotent upserts and deletes, a transaction that was rolled back).
   */
  const again = async <T>(attempt: () => Promise<T>): Promise<T> => {
    try {
      return await attempt();
    } catch (e) {
      const error = storeErrorOf(e, secrets);
      if (error.problem !== 'connectionLost') throw error;
      try {
        return await attempt();
      } catch (e2) {
        throw storeErrorOf(e2, secrets);
      }
    }
  };
  return {
    query: (text, params = []) => again(() => run(sql, text, params)),
    transaction: (work) =>
      again(
        async () =>
          (await sql.begin((tx) => work({ query: (text, params = []) => run(tx, text, params) }))) as Awaited<
            ReturnType<typeof work>
          >,
      ),
    close: async () => {
      try {
        await sql.end({ timeout: 5 });
      } catch {
        // closing what failed: nothing to say
      }
    },
  };
}
