/**
 * Global setup of the PostgreSQL test projects: TEST_DATABASE_URL when set (a cluster of yours; the tests create and
 * drop their own databases on it), otherwise a throw-away cluster from Debian's postgresql binaries, stopped by
 * postgresTeardown.ts. Workers find it through CHECKOUT_TEST_ADMIN_URL. Then the run's seeded template database
 * (test/support/testDatabase.ts), which goes with the cluster or with the run's other databases on yours; and the
 * run's compiled server for the child servers (test/support/compiledServer.ts), when the SQLite setup has not made it.
 */
import crypto from 'node:crypto';
import { startCluster, type Cluster } from '../../scripts/pgCluster';
import { compileServer } from './compiledServer';
import { makeTemplate } from './testDatabase';

declare global {
  var checkoutTestCluster: Cluster | undefined;
}

export default async function postgresSetup(): Promise<void> {
  globalThis.checkoutCompiledServerRemove ??= await compileServer();
  process.env.CHECKOUT_TEST_RUN ??= crypto.randomBytes(4).toString('hex');
  if (!process.env.TEST_DATABASE_URL && !process.env.CHECKOUT_TEST_ADMIN_URL) {
    const cluster = await startCluster({ durability: 'tests' });
    globalThis.checkoutTestCluster = cluster;
    process.env.CHECKOUT_TEST_ADMIN_URL = cluster.adminUrl;
    // A run stopped halfway (Ctrl-C) must not leave the cluster behind.
    process.once('exit', () => cluster.stop());
  }
  if (!process.env.CHECKOUT_TEST_POSTGRES_TEMPLATE) await makeTemplate('postgres');
}
