/** The RBS fake's queries: its own orders (another party that happens to share the database; never the product's tables). */
import { ORDER_STATUS } from '../acquirer/rbs';
import type { Store } from '../store/store';
import type { RbsOrderRow } from './tables';

export function insertRbsOrder(
  store: Store,
  order: Omit<RbsOrderRow, 'created_at' | 'updated_at' | 'refunded_amount' | 'refunded_items' | 'qr_id'>,
): Promise<RbsOrderRow> {
  const t = store.now();
  return store.db.insertInto('sandbox_rbs_orders').values({ ...order, refunded_amount: 0, qr_id: null, created_at: t, updated_at: t }).returningAll().executeTakeFirstOrThrow();
}

/** An order by its id, its orderNumber or its QR's id (the first given). */
export function rbsOrder(store: Store, by: { orderId?: string; orderNumber?: string; qrId?: string }): Promise<RbsOrderRow | undefined> {
  let query = store.db.selectFrom('sandbox_rbs_orders').selectAll();
  if (by.orderId !== undefined) query = query.where('order_id', '=', by.orderId);
  else if (by.orderNumber !== undefined) query = query.where('order_number', '=', by.orderNumber);
  else if (by.qrId !== undefined) query = query.where('qr_id', '=', by.qrId);
  else return Promise.resolve(undefined);
  return query.executeTakeFirst();
}

/** Moves an order from one of `from` to `to`; answers the order as it now is, or undefined if it was not in `from`. */
export const moveRbsOrder = (
  store: Store,
  orderId: string,
  from: number[],
  to: Partial<Pick<RbsOrderRow, 'refunded_amount' | 'masked_pan' | 'amount' | 'expires_at' | 'deposited_amount' | 'deposited_bundle'>> & { order_status: number; action_code: number },
): Promise<RbsOrderRow | undefined> =>
  store.db.updateTable('sandbox_rbs_orders').set({ ...to, updated_at: store.now() }).where('order_id', '=', orderId).where('order_status', 'in', from).returningAll().executeTakeFirst();

export async function setRbsQr(store: Store, orderId: string, qrId: string): Promise<void> {
  await store.db.updateTable('sandbox_rbs_orders').set({ qr_id: qrId, updated_at: store.now() }).where('order_id', '=', orderId).execute();
}

/**
 * Records a refund of a deposited order: its new refunded amount and positions, refunded whole once nothing of what was
 * taken is left.
 * Conditional on what it had refunded when read, so two refunds at once can never both take the same remainder;
 * undefined when the order changed meanwhile.
 */
export const recordRbsRefund = (store: Store, order: RbsOrderRow, refunded: number, refundedItems: string | null): Promise<RbsOrderRow | undefined> =>
  store.db
    .updateTable('sandbox_rbs_orders')
    .set({ order_status: refunded === order.deposited_amount ? ORDER_STATUS.refunded : ORDER_STATUS.deposited, refunded_amount: refunded, refunded_items: refundedItems, updated_at: store.now() })
    .where('order_id', '=', order.order_id)
    .where('order_status', '=', ORDER_STATUS.deposited)
    .where('refunded_amount', '=', order.refunded_amount)
    .returningAll()
    .executeTakeFirst();
