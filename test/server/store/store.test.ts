import fs from 'node:fs';
import { sql } from 'kysely';
import { openStore } from '../../../server/store/store';
import { freshDatabase, testEngine } from '../../support/testDatabase';
import { tempDirs } from '../helpers';
import { insertSession, sessionById } from '../../../server/accounts/sessionQueries';
import { pollStatus } from '../../../server/payments/poll';
import { migrations } from '../../../server/migrations';

/** The store's own machinery, below the routes: compiled queries and, on PostgreSQL, server-side prepared statements. */
test('a compiled query answers each call with its own arguments', async () => {
  const { dir } = tempDirs();
  const database = await freshDatabase(dir);
  const store = await openStore({ migrations, ...database, now: () => 1_000 });
  try {
    await insertSession(store, 'first', 'token-1');
    await insertSession(store, 'second', 'token-2');
    expect((await pollStatus(store, 'first', 'no-order', 'no-bill')).csrf_token).toBe('token-1');
    expect((await pollStatus(store, 'second', 'no-order', 'no-bill')).csrf_token).toBe('token-2');
    // Nobody, no order, no bill: every column of the one read is null (the route tells them apart by which).
    const nobody = await pollStatus(store, 'nobody', 'no-order', 'no-bill');
    expect(Object.keys(nobody)).toEqual(expect.arrayContaining(['csrf_token', 'bill', 'bill_status', 'status', 'order_id', 'acquirer_checked_at']));
    expect(Object.values(nobody).every((value) => value === null)).toBe(true);
    expect(await sessionById(store, 'second')).toEqual({ id: 'second', csrf_token: 'token-2', account_id: null, created_at: 1_000, seen_at: 1_000, user_token: null });
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
    const store = await openStore({ migrations, ...database, now: Date.now, poolSize: 1 });
    try {
      await insertSession(store, 's', 't');
      for (let i = 0; i < 3; i++) {
        // An id of our order ids' shape is read by that column first, any other by the QR's: a statement each.
        await pollStatus(store, 's', '0'.repeat(32), 'b');
        await pollStatus(store, 's', 'QR', 'b');
        await sessionById(store, 's');
      }
      const { rows } = await sql<{ name: string }>`SELECT name FROM pg_prepared_statements ORDER BY name`.execute(store.db);
      expect(rows.map((row) => row.name)).toEqual(['pollStatus', 'pollStatusByQr', 'sessionById']);
    } finally {
      await store.close();
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
