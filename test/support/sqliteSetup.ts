/**
 * Global setup of the server suites on SQLite: the run's seeded template database (test/support/testDatabase.ts),
 * removed by sqliteTeardown.ts.
 */
import { makeTemplate } from './testDatabase';

declare global {
  var checkoutSqliteTemplateRemove: (() => Promise<void>) | undefined;
}

export default async function sqliteSetup(): Promise<void> {
  if (process.env.CHECKOUT_TEST_SQLITE_TEMPLATE) return;
  globalThis.checkoutSqliteTemplateRemove = await makeTemplate('sqlite');
}
