import fs from 'node:fs';
import { sql } from 'kysely';
import { insertSession } from '../../../server/accounts/sessionQueries';
import { recordExchange } from '../../../server/acquirer/exchanges';
import { migrations } from '../../../server/migrations';
import { openStore, type RootStore } from '../../../server/store/store';
import { seededDatabase, START, testEngine, type TestDatabase } from '../../support/testDatabase';
import { tempDirs } from '../helpers';

/**
 * The seeded database a test gets is the template as seeded, whatever the tests before it did: on PostgreSQL the copy
 * a test is done with is put back and handed to the next one, so this is what keeps one test's rows out of another's.
 */

/** Every table's rows (sorted) and, on PostgreSQL, every sequence's value: what the next test would find. */
async function contents(store: RootStore): Promise<Record<string, unknown>> {
  const found: Record<string, unknown> = {};
  const tables =
    store.engine === 'postgres'
      ? await sql<{ name: string }>`select relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by relname`.execute(store.db)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_stat%' order by name`.execute(store.db);
  for (const { name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(store.db);
    found[name] = rows.rows.map((row) => JSON.stringify(row)).sort();
  }
  if (store.engine === 'postgres') {
    const sequences = await sql<{ name: string; value: string | null }>`select sequencename as name, last_value::text as value from pg_sequences order by sequencename`.execute(store.db);
    found['(sequences)'] = sequences.rows;
  }
  return found;
}

const used: string[] = [];

async function withSeeded<T>(work: (store: RootStore) => Promise<T>): Promise<T> {
  const { dir } = tempDirs();
  const database: TestDatabase = await seededDatabase(dir);
  used.push(database.databaseUrl ?? database.databasePath);
  const store = await openStore({ migrations, ...database, now: () => START + 60_000 });
  try {
    return await work(store);
  } finally {
    await store.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('a seeded database holds the seed whatever the test before it wrote, and the next ids are the seed\'s next ids', async () => {
  const seeded = await withSeeded((store) => contents(store));
  // A test that adds rows (one of them numbered by a sequence), changes a seeded row and deletes another.
  await withSeeded(async (store) => {
    await insertSession(store, 'left-behind', 'token');
    await recordExchange(store, { attempt: null, requestId: null, method: 'register.do', outcome: 'ok', request: {}, answer: {}, error: null, httpStatus: 200, ms: 1 });
    await store.db.updateTable('bills').set({ purpose: 'changed by a test' }).where('oid', '=', 'demo-anon').execute();
    await store.db.deleteFrom('payment_types').where('bill_oid', '=', 'demo-anon').execute();
  });
  // The database after it: the same rows, the same sequences.
  const next = await withSeeded((store) => contents(store));
  expect(next).toEqual(seeded);
  // On PostgreSQL that is one database, put back after each test rather than copied anew; on SQLite a file copied anew.
  expect(new Set(used).size).toBe(testEngine() === 'postgres' ? 1 : used.length);
});
