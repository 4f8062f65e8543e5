import fs from 'node:fs';
import { sql } from 'kysely';
import { openStore } from '../../server/store/store';
import { freshDatabase, testEngine } from '../support/testDatabase';
import { tempDirs } from './helpers';

/** The store's own machinery, below the routes: compiled queries and, on PostgreSQL, server-side prepared statements. */
test('a compiled query answers each call with its own arguments', async () => {
  const { dir } = tempDirs();
  const database = await freshDatabase(dir);
  const store = await openStore({ ...database, now: () => 1_000 });
  try {
    await store.insertSession('first', 'token-1');
    await store.insertSession('second', 'token-2');
    expect((await store.pollStatus('first', 'no-order', 'no-bill')).csrf_token).toBe('token-1');
    expect((await store.pollStatus('second', 'no-order', 'no-bill')).csrf_token).toBe('token-2');
    // Nobody, no order, no bill: every column of the one read is null (the route tells them apart by which).
    const nobody = await store.pollStatus('nobody', 'no-order', 'no-bill');
    expect(Object.keys(nobody)).toEqual(expect.arrayContaining(['csrf_token', 'bill', 'bill_status', 'status', 'order_id', 'acquirer_checked_at']));
    expect(Object.values(nobody).every((value) => value === null)).toBe(true);
    expect(await store.sessionById('second')).toEqual({ id: 'second', csrf_token: 'token-2', account_id: null, created_at: 1_000, seen_at: 1_000, user_token: null });
  } finally {
    await store.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

if (testEngine() === 'postgres') {
  test('the status poll and the session read are prepared once per connection on PostgreSQL', async () => {
    const { dir } = tempDirs();
    const database = await freshDatabase(dir);
    // One connection, so the statements this test looks for are that connection's.
    const store = await openStore({ ...database, now: Date.now, poolSize: 1 });
    try {
      await store.insertSession('s', 't');
      for (let i = 0; i < 3; i++) {
        await store.pollStatus('s', 'o', 'b');
        await store.sessionById('s');
      }
      const { rows } = await sql<{ name: string }>`SELECT name FROM pg_prepared_statements ORDER BY name`.execute(store.db);
      expect(rows.map((row) => row.name)).toEqual(['pollStatus', 'sessionById']);
    } finally {
      await store.close();
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
