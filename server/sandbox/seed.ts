import fs from 'node:fs';
import { optionsFromEnv } from '../environment';
import { migrations } from '../migrations';
import { openStore } from '../store/store';
import { seedDemo } from './demoBills';

/**
 * `npm run seed [-- --reset]`: seed the demo bills into an empty database. --reset starts the SQLite file anew; a
 * PostgreSQL database is never dropped from here (empty it with the database's own tools). Refused with the sandbox
 * off: the demo account would sign in and its points would be real ledger rows.
 */
async function main() {
  const { databaseUrl, databasePath, sandbox } = optionsFromEnv();
  if (!sandbox) {
    console.error(
      'Not seeding: SANDBOX=0 is a production setup, where the demo data would be real: bills anyone can open, a demo ' +
        'account that signs in with a published password, points in the ledger. Seed a sandbox database only (SANDBOX unset or 1).',
    );
    process.exitCode = 1;
    return;
  }
  const where = databaseUrl ? 'the PostgreSQL database' : databasePath;
  if (process.argv.includes('--reset')) {
    if (databaseUrl) throw new Error('--reset works on the SQLite file only; empty the PostgreSQL database yourself, then seed');
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(databasePath + suffix, { force: true });
  }
  const store = await openStore({ databaseUrl, databasePath, now: Date.now, migrations });
  const seeded = await seedDemo(store);
  await store.close();
  console.log(seeded ? `Demo bills seeded into ${where}` : `${where} already has bills; use --reset to start over`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
