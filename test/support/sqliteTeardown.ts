/** Removes the run's SQLite template (sqliteSetup.ts). */
export default async function sqliteTeardown(): Promise<void> {
  const remove = globalThis.checkoutSqliteTemplateRemove;
  globalThis.checkoutSqliteTemplateRemove = undefined;
  await remove?.();
}
