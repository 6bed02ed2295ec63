import * as assert from 'node:assert/strict';
import postgres from 'postgres';
import type { StoreTarget } from '../../../src/teamHistory/connectionString';
import { driverOptions } from '../../../src/teamHistory/postgres/postgresSql';

describe('teamHistory: the driver is given the target as it was read', () => {
  const target = (host: string): StoreTarget => ({
    host,
    port: 5433,
    database: 'flowsync',
    user: 'fs_team',
    password: 'pw',
    sslmode: 'require',
    local: false,
    label: 'fs_team@host',
  });

  it('an IPv6 address reaches the driver whole, with its port (a host text is split at every colon)', () => {
    for (const host of ['::1', '2001:db8::1', '::ffff:203.0.113.5', 'db.example.com', '127.0.0.1']) {
      const sql = postgres(driverOptions(target(host))); // no connection is made before a query
      assert.deepEqual(sql.options.host, [host], host);
      assert.deepEqual(sql.options.port, [5433], host);
    }
  });
});
