/** The closing receipts' queries: the orders a handover closes, the rows and their moves. */
import type { Insertable } from 'kysely';
import { noLiveLease } from '../platform/lease';
import type { Store } from '../store/store';
import type { AttemptRow, ClosingReceiptRow, ClosingReceiptState, ClosingReceiptsTable } from './tables';

/**
 * The bill's payments that took money at the acquirer and paid it, oldest first: successful (whatever their refunds
 * gave back since), charged more than nothing (points alone take no money), with an order at the acquirer.
 */
export const attemptsThatTookMoney = (store: Store, billOid: string): Promise<AttemptRow[]> =>
  store.db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('bill_oid', '=', billOid)
    .where('status', '=', 'success')
    .where('amount_kopecks', '>', 0)
    .where('acquirer_order_id', 'is not', null)
    .orderBy('created_at')
    .orderBy('order_id')
    .execute();

/**
 * What a payment's refunds gave back of the bill, for its closing receipt: in all, and of each position (by positionId),
 * kopecks. The merchant's refunds count when they succeeded by `asOf`: one that succeeds after the handover returns
 * goods handed over, and takes nothing off the closing receipt. The automatic ones (what passed the bill, or a bill
 * paid twice) count pending or succeeded, whenever: that money was never for the bill's goods, and is on its way back.
 */
export async function givenBackBy(store: Store, orderId: string, asOf: number): Promise<{ total: number; byPosition: Map<number, number> }> {
  const refunds = await store.db
    .selectFrom('refunds')
    .select(['id', 'amount_kopecks'])
    .where('order_id', '=', orderId)
    .where((eb) =>
      eb.or([
        eb.and([eb('kind', '=', 'merchant'), eb('status', '=', 'succeeded'), eb('finished_at', '<=', asOf)]),
        eb.and([eb('kind', '=', 'automatic'), eb('status', 'in', ['pending', 'succeeded'])]),
      ]),
    )
    .execute();
  const byPosition = new Map<number, number>();
  if (refunds.length > 0) {
    const items = await store.db.selectFrom('refund_items').select(['position_id', 'amount_kopecks']).where('refund_id', 'in', refunds.map((refund) => refund.id)).execute();
    for (const item of items) byPosition.set(item.position_id, (byPosition.get(item.position_id) ?? 0) + Number(item.amount_kopecks));
  }
  return { total: refunds.reduce((sum, refund) => sum + Number(refund.amount_kopecks), 0), byPosition };
}

export async function insertClosingReceipt(store: Store, row: Omit<Insertable<ClosingReceiptsTable>, 'created_at' | 'updated_at'>): Promise<void> {
  const t = store.now();
  await store.db.insertInto('closing_receipts').values({ ...row, created_at: t, updated_at: t }).execute();
}

/** Moves a row from the state it was read in (a compare-and-set); the row as it now is, or undefined when it moved meanwhile. */
export const updateClosingReceipt = (store: Store, orderId: string, from: ClosingReceiptState, set: Partial<ClosingReceiptRow>): Promise<ClosingReceiptRow | undefined> =>
  store.db
    .updateTable('closing_receipts')
    .set({ ...set, updated_at: store.now() })
    .where('order_id', '=', orderId)
    .where('state', '=', from)
    .returningAll()
    .executeTakeFirst();

export const closingReceiptByOrder = (store: Store, orderId: string): Promise<ClosingReceiptRow | undefined> =>
  store.db.selectFrom('closing_receipts').selectAll().where('order_id', '=', orderId).executeTakeFirst();

/** A bill's closing receipts, in the order of its payments. */
export const closingReceiptsOfBill = (store: Store, billOid: string): Promise<ClosingReceiptRow[]> =>
  store.db
    .selectFrom('closing_receipts')
    .innerJoin('payment_attempts', 'payment_attempts.order_id', 'closing_receipts.order_id')
    .selectAll('closing_receipts')
    .where('closing_receipts.bill_oid', '=', billOid)
    .orderBy('payment_attempts.created_at')
    .orderBy('closing_receipts.order_id')
    .execute();

/** The receipts the fiscal worker has to do now: not settled, due, held by no live lease (oldest due first). */
export const closingReceiptsDue = (store: Store, limit: number): Promise<ClosingReceiptRow[]> =>
  store.db
    .selectFrom('closing_receipts')
    .selectAll()
    .where('state', 'in', ['unsent', 'sent', 'pending'])
    .where('due_at', '<=', store.now())
    .where(noLiveLease('lease_until', store.now()))
    .orderBy('due_at')
    .limit(limit)
    .execute();

/** Lets go of the row's lease. */
export async function releaseClosingReceipt(store: Store, orderId: string): Promise<void> {
  await store.db.updateTable('closing_receipts').set({ lease_until: null }).where('order_id', '=', orderId).execute();
}
