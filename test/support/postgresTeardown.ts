import pg from 'pg';
import { testDatabasePrefix } from './testDatabase';

/**
 * Stops the throw-away cluster; on a TEST_DATABASE_URL cluster, drops whatever databases of this run a failed test
 * left. Removes the run's compiled server if the SQLite teardown has not.
 */
export default async function postgresTeardown(): Promise<void> {
  globalThis.checkoutCompiledServerRemove?.();
  globalThis.checkoutCompiledServerRemove = undefined;
  const cluster = globalThis.checkoutTestCluster;
  if (cluster) {
    globalThis.checkoutTestCluster = undefined;
    delete process.env.CHECKOUT_TEST_ADMIN_URL;
    delete process.env.CHECKOUT_TEST_POSTGRES_TEMPLATE;
    cluster.stop();
    return;
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  delete process.env.CHECKOUT_TEST_POSTGRES_TEMPLATE;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${testDatabasePrefix()}%`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
