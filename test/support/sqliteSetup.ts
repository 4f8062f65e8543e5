/**
 * Global setup of the server suites on SQLite: the run's seeded template database (test/support/testDatabase.ts) and
 * the run's compiled server for the child servers (test/support/compiledServer.ts), removed by sqliteTeardown.ts.
 */
import { compileServer } from './compiledServer';
import { makeTemplate } from './testDatabase';

declare global {
  var checkoutSqliteTemplateRemove: (() => Promise<void>) | undefined;
  var checkoutCompiledServerRemove: (() => void) | undefined;
}

export default async function sqliteSetup(): Promise<void> {
  globalThis.checkoutCompiledServerRemove ??= await compileServer();
  if (process.env.CHECKOUT_TEST_SQLITE_TEMPLATE) return;
  globalThis.checkoutSqliteTemplateRemove = await makeTemplate('sqlite');
}
