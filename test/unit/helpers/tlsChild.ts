/**
 * A connection to the team's store from a process of its own, so that NODE_EXTRA_CA_CERTS (read by Node at start
 * only) trusts the test server's certificate (teamStore.test.ts):
 *   NODE_EXTRA_CA_CERTS=<server.crt> node tlsChild.js <connection string>
 * Prints "encrypted" when the connection holds and is encrypted, else the StoreError's problem.
 */
import { parseConnectionString } from '../../../src/teamHistory/connectionString';
import { postgresSql } from '../../../src/teamHistory/postgres/postgresSql';
import { StoreError } from '../../../src/teamHistory/storeErrors';

async function main(): Promise<void> {
  const parsed = parseConnectionString(process.argv[2] ?? '');
  if (!('target' in parsed)) throw new Error(parsed.problem);
  const sql = postgresSql(parsed.target, { connectTimeoutSeconds: 5 });
  try {
    const [row] = await sql.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
    process.stdout.write(row?.ssl === true ? 'encrypted' : 'plain');
  } catch (e) {
    process.stdout.write(e instanceof StoreError ? e.problem : 'not a StoreError');
  } finally {
    await sql.close();
  }
}

void main();
