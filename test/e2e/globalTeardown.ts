/** Closes the run's shared Chromium and removes the migrated SQLite file (globalSetup.ts). */
import { SHARED_CHROMIUM_VARIABLE } from './chromium';

export default async function journeysTeardown(): Promise<void> {
  globalThis.checkoutMigratedSqliteRemove?.();
  globalThis.checkoutMigratedSqliteRemove = undefined;
  const server = globalThis.checkoutSharedChromium;
  if (!server) return;
  globalThis.checkoutSharedChromium = undefined;
  delete process.env[SHARED_CHROMIUM_VARIABLE];
  await server.close();
}
