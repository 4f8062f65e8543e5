/** Removes the run's SQLite template and compiled server (sqliteSetup.ts). */
export default async function sqliteTeardown(): Promise<void> {
  globalThis.checkoutCompiledServerRemove?.();
  globalThis.checkoutCompiledServerRemove = undefined;
  const remove = globalThis.checkoutSqliteTemplateRemove;
  globalThis.checkoutSqliteTemplateRemove = undefined;
  await remove?.();
}
