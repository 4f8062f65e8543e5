/**
 * Global setup of the journeys: one Chromium for the whole run, which every test file connects to (a browser's start
 * costs seconds; a connection, a fraction), each test in contexts of its own. A file run without it (the PostgreSQL
 * smoke file alone) starts a browser of its own. And a migrated SQLite file that each journey server's database is a
 * copy of (test/support/testDatabase.ts, migratedDatabase).
 */
import { chromium, type BrowserServer } from 'playwright-core';
import { makeMigratedSqliteTemplate } from '../support/testDatabase';
import { chromiumOptions, SHARED_CHROMIUM_VARIABLE } from './chromium';

declare global {
  var checkoutSharedChromium: BrowserServer | undefined;
  var checkoutMigratedSqliteRemove: (() => void) | undefined;
}

export default async function journeysSetup(): Promise<void> {
  globalThis.checkoutMigratedSqliteRemove ??= await makeMigratedSqliteTemplate();
  if (process.env[SHARED_CHROMIUM_VARIABLE]) return;
  const server = await chromium.launchServer(chromiumOptions());
  globalThis.checkoutSharedChromium = server;
  process.env[SHARED_CHROMIUM_VARIABLE] = server.wsEndpoint();
}
