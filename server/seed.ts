import fs from 'node:fs';
import { optionsFromEnv } from './config';
import { openDatabase } from './store/db';
import { createStore } from './store/store';
import { seedDemo } from './demoBills';

/** `npm run seed [-- --reset]`: seed the demo bills into an empty database; --reset starts from a new file. */
async function main() {
  const { databasePath } = optionsFromEnv();
  if (process.argv.includes('--reset')) {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(databasePath + suffix, { force: true });
  }
  const db = openDatabase(databasePath);
  const seeded = await seedDemo(createStore(db, Date.now));
  db.close();
  console.log(seeded ? `Demo bills seeded into ${databasePath}` : `${databasePath} already has bills; use --reset to start over`);
}

void main();
