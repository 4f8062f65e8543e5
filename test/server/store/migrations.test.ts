import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Migrator, sql, type Kysely } from 'kysely';
import { seedDemo } from '../../../server/sandbox/demoBills';
import { migrations } from '../../../server/migrations';
import { connect } from '../../../server/store/engines';
import { openStore, type RootStore } from '../../../server/store/store';
import { legacyMigrations } from '../../fixtures/legacySchema';
import { freshDatabase, testEngine, type TestDatabase } from '../../support/testDatabase';
import { TEST_PASSWORD_COST, tempDirs } from '../helpers';
import { deleteSession, renameSession, sessionById } from '../../../server/accounts/sessionQueries';
import { recordAcquirerFacts } from '../../../server/acquirer/attempts';
import { billByLink, billByOid, insertBill, typesOfBill } from '../../../server/billing/queries';
import { addLedgerEntry, pointsBalance } from '../../../server/loyalty/ledger';
import { attemptByOrder, insertAttempt } from '../../../server/payments/queries';
import { finishAttempt } from '../../support/finishAttempt';
import { fakeTextsOf, insertFakeText } from '../../../server/sandbox/smsruQueries';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
const folder = () => {
  const { dir } = tempDirs();
  dirs.push(dir);
  return dir;
};

/** A SQLite file as the pre-Kysely store left it: its migrations applied, user_version counting them, some rows. */
function legacyFile(file: string, version: number) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (let v = 0; v < version; v++) db.exec(legacyMigrations[v]!);
  db.pragma(`user_version = ${version}`);
  db.exec(`
    INSERT INTO bills (oid, product, purpose, sum_kopecks, cust_no, points_enabled, useful_points_limit, created_at)
      VALUES ('old-bill', 'auto', 'Старый счет', 123456, 'C-OLD', 1, 500, 1700000000000);
    INSERT INTO payment_types (oid, bill_oid, position, code, name, commission_kopecks) VALUES ('old-bill.ALL', 'old-bill', 0, 'ALL', 'Карта', 1852);
    INSERT INTO payment_attempts (order_id, bill_oid, card_type_oid, amount_kopecks, commission_kopecks, status, created_at, updated_at)
      VALUES ('old-order', 'old-bill', 'old-bill.ALL', 125308, 1852, 'created', 1700000000001, 1700000000001);
    INSERT INTO points_ledger (cust_no, delta, reason, created_at) VALUES ('C-OLD', 700, 'demo credit', 1700000000002);
    INSERT INTO sessions (id, csrf_token, created_at, seen_at) VALUES ('old-session', 'old-token', 1700000000003, 1700000000003);
  `);
  db.close();
}

const columnsOf = async (store: RootStore) =>
  Object.fromEntries((await store.db.introspection.getTables()).map((table) => [table.name, table.columns.map((column) => column.name).sort()]));

type Rows = Kysely<Record<string, Record<string, unknown>>>;

/** A new database as migration `name` left it, holding the rows `write` adds then (through a bare connection). */
async function databaseLeftBy(name: string, write: (before: Rows) => Promise<void>): Promise<TestDatabase> {
  const database = await freshDatabase(folder());
  const { db } = connect(database);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  expect((await migrator.migrateTo(name)).error).toBeUndefined();
  await write(db as unknown as Rows);
  await db.destroy();
  return database;
}

/** The store on `database` with every migration applied (its clock at 1 000) for `check`; closed and dropped after. */
async function withStoreOn(database: TestDatabase, check: (store: RootStore) => Promise<void>): Promise<void> {
  const store = await openStore({ migrations, ...database, now: () => 1_000 });
  try {
    await check(store);
  } finally {
    await store.close();
    await database.drop();
  }
}

// SQLite files only: the PostgreSQL project has nothing of that era to adopt.
const adoptedVersions = testEngine() === 'sqlite' ? [1, 2, 3] : [];
if (adoptedVersions.length > 0) test.each(adoptedVersions)('a SQLite file at user_version %i is adopted: nothing lost, the rest migrated, and it works on', async (version) => {
  const file = path.join(folder(), 'legacy.sqlite');
  legacyFile(file, version);
  const store = await openStore({ migrations, databaseUrl: null, databasePath: file, now: () => 1_800_000_000_000 });
  try {
    const applied = await store.db.selectFrom('kysely_migration' as never).select('name' as never).execute();
    expect(applied.map((row) => (row as { name: string }).name)).toEqual(Object.keys(migrations));

    expect(await billByOid(store, 'old-bill')).toMatchObject({ product: 'auto', sum_kopecks: 123456, status: 'open' });
    expect(await pointsBalance(store, 'C-OLD')).toBe(700);
    expect((await sessionById(store, 'old-session'))!.csrf_token).toBe('old-token');
    // The pending attempt still guards its bill against a second one, and settles as any other. (The refusal is
    // matched by its message: better-sqlite3 makes its errors with the Error class of the first test file loading it.)
    await expect(
      insertAttempt(store, { order_id: 'twin', bill_oid: 'old-bill', card_type_oid: 'old-bill.ALL', amount_kopecks: 125308, commission_kopecks: 1852, points_used: 0, email: null, user_oid: null, manager_id: null }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/UNIQUE/) });
    expect(await finishAttempt(store, 'old-order', 'success')).toMatchObject({ order_id: 'old-order', amount_kopecks: 125308, status: 'success' });
    // What the later migrations added is there and usable.
    await insertFakeText(store, { phone: '79990000001', text: 'Код подтверждения: 1234', status_code: 103 });
    expect(await fakeTextsOf(store, '79990000001', 1)).toEqual([expect.objectContaining({ text: 'Код подтверждения: 1234' })]);

    // The adopted file has the same tables and columns as a new one.
    const fresh = await openStore({ migrations, databaseUrl: null, databasePath: path.join(folder(), 'fresh.sqlite'), now: Date.now });
    expect(await columnsOf(store)).toEqual(await columnsOf(fresh));
    await fresh.close();
  } finally {
    await store.close();
  }
});

test('a second start applies nothing and keeps every row', async () => {
  const dir = folder();
  const database = await freshDatabase(dir);
  const first = await openStore({ migrations, ...database, now: Date.now });
  expect(await seedDemo(first, TEST_PASSWORD_COST)).toBe(true);
  await first.close();
  const second = await openStore({ migrations, ...database, now: Date.now });
  expect(await seedDemo(second, TEST_PASSWORD_COST)).toBe(false);
  expect(await typesOfBill(second, 'demo-anon')).toHaveLength(3);
  await second.close();
  await database.drop();
});

test('money and times are 64-bit integers read back as exact JS numbers on either engine', async () => {
  const dir = folder();
  const database = await freshDatabase(dir);
  const store = await openStore({ migrations, ...database, now: () => 8_000_000_000_000 });
  const big = 9_007_199_254_740_000; // above 2^32 kopecks by far, below 2^53
  await insertBill(store, {
    oid: 'big', link_id: 'big', product: 'realty', object_type: 'bill', purpose: 'p', sum_kopecks: big, client_name: '', client_phone: null, client_email: null,
    bill_email: null, cust_no: 'C-BIG', no_reg: 1, points_enabled: 1, useful_points_limit: 0, status: 'open', copied_from: null,
  });
  await addLedgerEntry(store, { cust_no: 'C-BIG', delta: big, reason: 'r', order_id: null });
  await addLedgerEntry(store, { cust_no: 'C-BIG', delta: -1, reason: 'r', order_id: null });
  expect(await billByOid(store, 'big')).toMatchObject({ sum_kopecks: big, created_at: 8_000_000_000_000 });
  expect(await pointsBalance(store, 'C-BIG')).toBe(big - 1);
  if (store.engine === 'postgres') {
    // Beyond 2^53 a bigint cannot be a JS number: reading one fails loudly instead of rounding money.
    await expect(sql`SELECT 9007199254740993::bigint AS n`.execute(store.db)).rejects.toThrow(/does not fit/);
  }
  await store.close();
  await database.drop();
});

test("0004: attempts keep their rows and the one-pending rule, and take 'refunded' but no other new status", async () => {
  await withStoreOn(await freshDatabase(folder()), async (store) => {
    await seedDemo(store, TEST_PASSWORD_COST);
    const attempt = { bill_oid: 'demo-anon', card_type_oid: 'demo-anon.ALL', amount_kopecks: 100, commission_kopecks: 0, points_used: 0, email: null, user_oid: null, manager_id: null };
    await insertAttempt(store, { ...attempt, order_id: 'a1' });
    await expect(insertAttempt(store, { ...attempt, order_id: 'a2' })).rejects.toMatchObject({ message: expect.stringMatching(/unique|UNIQUE/) });
    expect(await finishAttempt(store, 'a1', 'refunded')).toMatchObject({ status: 'refunded' });
    await expect(sql`UPDATE payment_attempts SET status = 'kept' WHERE order_id = 'a1'`.execute(store.db)).rejects.toMatchObject({ message: expect.stringMatching(/check|CHECK/) });
    // The acquirer's ids are unique: two attempts never claim one acquirer order.
    await insertAttempt(store, { ...attempt, order_id: 'a3' });
    await recordAcquirerFacts(store, 'a3', { acquirer_order_id: 'acq-1' });
    await insertAttempt(store, { ...attempt, order_id: 'a4', card_type_oid: 'demo-anon.SBP' });
    await expect(recordAcquirerFacts(store, 'a4', { acquirer_order_id: 'acq-1' })).rejects.toMatchObject({ message: expect.stringMatching(/unique|UNIQUE/) });
  });
});

test('0006: existing bills get link ids, the demo ones their objectOID, the others unguessable ones; attempts their session', async () => {
  // A database as 0005 left it: a merchant's bill, a demo bill and a sandbox copy of it, and a session.
  const database = await databaseLeftBy('0005-merchant-api-webhooks', async (before) => {
    const bill = { product: 'realty', object_type: 'bill', purpose: 'Счет', sum_kopecks: 100_00, client_name: '', status: 'open', created_at: 1 };
    await before.insertInto('bills').values([
      { ...bill, oid: 'erp-order-1001', copied_from: null },
      { ...bill, oid: 'demo-anon', copied_from: null },
      { ...bill, oid: 'demo-anon-0a1b2c3d4e5f', copied_from: 'demo-anon' },
    ]).execute();
    await before.insertInto('payment_types').values({ oid: 'erp-order-1001.ALL', bill_oid: 'erp-order-1001', position: 0, code: 'ALL', name: 'Карта' }).execute();
    await before.insertInto('payment_attempts').values({ order_id: 'old-order', bill_oid: 'erp-order-1001', card_type_oid: 'erp-order-1001.ALL', amount_kopecks: 100_00, status: 'declined', created_at: 2, updated_at: 2 }).execute();
    await before.insertInto('sessions').values({ id: 'session-1', csrf_token: 'token', created_at: 3, seen_at: 3 }).execute();
  });
  await withStoreOn(database, async (store) => {
    expect((await billByOid(store, 'demo-anon'))!.link_id).toBe('demo-anon');
    expect((await billByOid(store, 'demo-anon-0a1b2c3d4e5f'))!.link_id).toBe('demo-anon-0a1b2c3d4e5f');
    const merchants = (await billByOid(store, 'erp-order-1001'))!.link_id;
    expect(merchants).toMatch(/^pl_[A-Za-z0-9_-]{24}$/);
    expect(await billByLink(store, merchants)).toMatchObject({ oid: 'erp-order-1001' });
    expect(await billByLink(store, 'erp-order-1001')).toBeUndefined();
    // Link ids are unique.
    await expect(sql`UPDATE bills SET link_id = 'demo-anon' WHERE oid = 'erp-order-1001'`.execute(store.db)).rejects.toMatchObject({ message: expect.stringMatching(/unique|UNIQUE/) });
    // An attempt of before has no session; a new one names its session, which follows a rename and is let go on delete.
    expect((await attemptByOrder(store, 'old-order'))!.session_id).toBeNull();
    await insertAttempt(store, { order_id: 'new-order', bill_oid: 'erp-order-1001', card_type_oid: 'erp-order-1001.ALL', amount_kopecks: 100_00, commission_kopecks: 0, points_used: 0, email: null, user_oid: null, manager_id: null, session_id: 'session-1' });
    await renameSession(store, 'session-1', 'session-2');
    expect((await attemptByOrder(store, 'new-order'))!.session_id).toBe('session-2');
    await deleteSession(store, 'session-2');
    expect(await attemptByOrder(store, 'new-order')).toMatchObject({ order_id: 'new-order', session_id: null });
  });
});

test('0009: the attempts refunded under the old flag become refund rows (due: pending, done: succeeded), the flag is gone', async () => {
  const database = await databaseLeftBy('0007-fiscal-receipts', async (before) => {
    await before.insertInto('bills').values({ oid: 'b1', product: 'realty', object_type: 'bill', purpose: 'Счет', sum_kopecks: 100_00, client_name: '', status: 'paid', created_at: 1, link_id: 'pl_1' }).execute();
    await before.insertInto('payment_types').values({ oid: 'b1.ALL', bill_oid: 'b1', position: 0, code: 'ALL', name: 'Карта' }).execute();
    const attempt = { bill_oid: 'b1', card_type_oid: 'b1.ALL', amount_kopecks: 100_00, created_at: 2, updated_at: 5 };
    await before.insertInto('payment_attempts').values([
      { ...attempt, order_id: 'due-order', status: 'refunded', refund_state: 'due' },
      { ...attempt, order_id: 'done-order', status: 'refunded', refund_state: 'done', refunded_at: 7 },
      { ...attempt, order_id: 'paid-order', status: 'success' },
    ]).execute();
  });
  await withStoreOn(database, async (store) => {
    const rows = await store.db.selectFrom('refunds').selectAll().orderBy('order_id').execute();
    expect(rows).toEqual([
      expect.objectContaining({ id: 'rf_done-order', order_id: 'done-order', amount_kopecks: 100_00, kind: 'automatic', status: 'succeeded', created_at: 5, finished_at: 7, sent_at: null }),
      expect.objectContaining({ id: 'rf_due-order', order_id: 'due-order', amount_kopecks: 100_00, kind: 'automatic', status: 'pending', created_at: 5, finished_at: null, sent_at: null }),
    ]);
    expect(Object.keys((await attemptByOrder(store, 'due-order'))!)).not.toContain('refund_state');
    // One automatic refund per payment.
    await expect(
      store.db.insertInto('refunds').values({ id: 'rf_x', order_id: 'due-order', amount_kopecks: 1, reason: null, kind: 'automatic', idempotency_key: null, created_at: 9 }).execute(),
    ).rejects.toMatchObject({ message: expect.stringMatching(/unique|UNIQUE/) });
  });
});
