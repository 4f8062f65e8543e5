import { serverFiles, statusWrites } from '../../scripts/statusWriters';

/**
 * No module outside server/lifecycle/ writes a payment attempt's, a refund's or a bill's state: the writer there is the
 * one way a status changes. The check reads the server's sources with their types, so a write it should see is planted
 * beside them (in memory only) in every form it takes: a literal, a spread, an `Updateable` handed in, raw SQL; and
 * one write that is not of a state, which it must let be. The real sources must add nothing to the planted ones.
 */
const PLANTED = 'server/payments/plantedStatusWrites.ts';
const planted = `
import type { Updateable } from 'kysely';
import { sql } from 'kysely';
import type { BillsTable } from '../billing/tables';
import type { Store } from '../store/store';

export async function plantedWrites(store: Store, change: Updateable<BillsTable>, row: { order_id: string; state: 'sent' }) {
  await store.db.updateTable('payment_attempts').set({ status: 'success' }).where('order_id', '=', 'x').execute();
  await store.db.updateTable('bills').set(change).execute();
  await store.db.insertInto('refunds').values({ ...row, id: 'r', amount_kopecks: 1, reason: null, kind: 'merchant', idempotency_key: null, created_at: 1 }).execute();
  await sql\`UPDATE bills SET closed_as = 'cancelled'\`.execute(store.db);
  // Not a state: the payer of an attempt.
  await store.db.updateTable('payment_attempts').set({ email: 'payer@example.ru' }).execute();
}
`;

test('no module outside server/lifecycle/ writes a state column; each planted write is found, and only those', () => {
  const found = statusWrites(serverFiles(), { [PLANTED]: planted });
  expect(found.map((write) => [write.file, write.line])).toEqual([
    [PLANTED, 8],
    [PLANTED, 9],
    [PLANTED, 10],
    [PLANTED, 11],
  ]);
}, 120_000);
