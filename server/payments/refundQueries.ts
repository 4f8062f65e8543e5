/** The refunds queries: a payment's refunds, what they add up to, the positions they return. */
import { refundLifecycle } from '../lifecycle/lifecycles';
import { begin } from '../lifecycle/writer';
import type { Store } from '../store/store';
import type { RefundItemRow, RefundRow, RefundsTable } from './tables';

/** A new refund row as the rules made it (its chart's first state: pending, not yet sent). */
export type NewRefund = Pick<RefundsTable, 'id' | 'order_id' | 'amount_kopecks' | 'reason' | 'kind' | 'idempotency_key'>;

export const insertRefund = (store: Store, refund: NewRefund): Promise<RefundRow> => begin(store, refundLifecycle, { ...refund, created_at: store.now() });

export async function insertRefundItems(store: Store, items: readonly RefundItemRow[]): Promise<void> {
  if (items.length > 0) await store.db.insertInto('refund_items').values([...items]).execute();
}

export const refundById = (store: Store, id: string): Promise<RefundRow | undefined> => store.db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();

/** A payment's refunds, oldest first. */
export const refundsOfOrder = (store: Store, orderId: string): Promise<RefundRow[]> =>
  store.db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute();

const sumOf = (store: Store, orderId: string, statuses: RefundRow['status'][]) =>
  store.db
    .selectFrom('refunds')
    .select((eb) => eb.cast<number>(eb.fn.coalesce(eb.fn.sum<number>('amount_kopecks'), eb.lit(0)), 'bigint').as('total'))
    .where('order_id', '=', orderId)
    .where('status', 'in', statuses)
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.total));

/** What a payment's refunds have claimed: the succeeded and those still pending (a failed one gave nothing back). */
export const claimedByRefunds = (store: Store, orderId: string): Promise<number> => sumOf(store, orderId, ['pending', 'succeeded']);

/** What a payment has given back: its succeeded refunds. */
export const refundedOf = (store: Store, orderId: string): Promise<number> => sumOf(store, orderId, ['succeeded']);

/** What each of several payments has given back, and when last (for pages of payments and receipts), by order. */
export async function refundedByOrder(store: Store, orderIds: readonly string[]): Promise<Map<string, { kopecks: number; at: number | null }>> {
  const byOrder = new Map<string, { kopecks: number; at: number | null }>();
  if (orderIds.length === 0) return byOrder;
  const rows = await store.db
    .selectFrom('refunds')
    .select((eb) => ['order_id', eb.cast<number>(eb.fn.sum<number>('amount_kopecks'), 'bigint').as('total'), eb.fn.max('finished_at').as('at')])
    .where('order_id', 'in', orderIds)
    .where('status', '=', 'succeeded')
    .groupBy('order_id')
    .execute();
  for (const row of rows) byOrder.set(row.order_id, { kopecks: Number(row.total), at: row.at === null ? null : Number(row.at) });
  return byOrder;
}

/**
 * What each of several payments' automatic refunds claim (pending and succeeded) and have given back, by order: of a
 * successful payment, what its part paid past what remained of its bill.
 */
export async function automaticByOrder(store: Store, orderIds: readonly string[]): Promise<Map<string, { claimed: number; givenBack: number }>> {
  const byOrder = new Map<string, { claimed: number; givenBack: number }>();
  if (orderIds.length === 0) return byOrder;
  const rows = await store.db
    .selectFrom('refunds')
    .select((eb) => ['order_id', 'status', eb.cast<number>(eb.fn.sum<number>('amount_kopecks'), 'bigint').as('total')])
    .where('order_id', 'in', orderIds)
    .where('kind', '=', 'automatic')
    .where('status', 'in', ['pending', 'succeeded'])
    .groupBy(['order_id', 'status'])
    .execute();
  for (const row of rows) {
    const seen = byOrder.get(row.order_id) ?? { claimed: 0, givenBack: 0 };
    seen.claimed += Number(row.total);
    if (row.status === 'succeeded') seen.givenBack += Number(row.total);
    byOrder.set(row.order_id, seen);
  }
  return byOrder;
}

/** The positions a payment's refunds returned (pending and succeeded), by positionId: kopecks. */
export async function returnedByPosition(store: Store, orderId: string): Promise<Map<number, number>> {
  const rows = await store.db
    .selectFrom('refund_items')
    .innerJoin('refunds', 'refunds.id', 'refund_items.refund_id')
    .select((eb) => ['refund_items.position_id', eb.cast<number>(eb.fn.sum<number>('refund_items.amount_kopecks'), 'bigint').as('total')])
    .where('refunds.order_id', '=', orderId)
    .where('refunds.status', 'in', ['pending', 'succeeded'])
    .groupBy('refund_items.position_id')
    .execute();
  return new Map(rows.map((row) => [row.position_id, Number(row.total)]));
}

/** The positions one refund returns, in the receipt's order. */
export const itemsOfRefund = (store: Store, refundId: string): Promise<RefundItemRow[]> =>
  store.db.selectFrom('refund_items').selectAll().where('refund_id', '=', refundId).orderBy('position_id').execute();

/** A payment's refunds still waiting for the acquirer's word, oldest first. */
export const pendingRefundsOfOrder = (store: Store, orderId: string): Promise<RefundRow[]> =>
  store.db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).where('status', '=', 'pending').orderBy('created_at').orderBy('id').execute();

/** The payments with a refund still pending, oldest refund first (the sweeper's work). */
export const ordersWithPendingRefunds = (store: Store, limit: number): Promise<string[]> =>
  store.db
    .selectFrom('refunds')
    .select('order_id')
    .where('status', '=', 'pending')
    .groupBy('order_id')
    .orderBy((eb) => eb.fn.min('created_at'))
    .limit(limit)
    .execute()
    .then((rows) => rows.map((row) => row.order_id));

/** The points a payment's refunds have given back so far. */
export const pointsReturnedFor = (store: Store, orderId: string): Promise<number> =>
  store.db
    .selectFrom('points_ledger')
    .innerJoin('refunds', 'refunds.id', 'points_ledger.refund_id')
    .select((eb) => eb.cast<number>(eb.fn.coalesce(eb.fn.sum<number>('points_ledger.delta'), eb.lit(0)), 'bigint').as('total'))
    .where('refunds.order_id', '=', orderId)
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.total));
