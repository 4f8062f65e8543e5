/**
 * Reads of rows only tests make (the server never needs them): what a test looks at to see what happened to a bill's
 * attempts, an attempt's exchanges with the acquirer, a customer's ledger and the webhook outbox.
 */
import type { Store } from '../../server/store/store';

/** A bill's attempts, oldest first. */
export const attemptsOfBill = (store: Store, billOid: string) =>
  store.db.selectFrom('payment_attempts').selectAll().where('bill_oid', '=', billOid).orderBy('created_at').orderBy('order_id').execute();

/** An attempt's exchanges with the acquirer, in the order made. */
export const exchangesOfAttempt = (store: Store, orderId: string) => store.db.selectFrom('acquirer_exchanges').selectAll().where('order_id', '=', orderId).orderBy('id').execute();

/** A customer's ledger entries, oldest first. */
export const ledgerOfCustomer = (store: Store, custNo: string) =>
  store.db.selectFrom('points_ledger').select(['delta', 'reason', 'order_id']).where('cust_no', '=', custNo).orderBy('id').execute();

/** How an attempt's refunds stand: each one's kind, status and amount, oldest first. */
export const refundsStateOf = (store: Store, orderId: string) =>
  store.db.selectFrom('refunds').select(['kind', 'status', 'amount_kopecks']).where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute();

/** The newest webhook events first. */
export const webhookEvents = (store: Store, limit: number) =>
  store.db.selectFrom('webhook_events').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();

/** An event's delivery attempts, in the order made. */
export const webhookAttemptsOf = (store: Store, eventId: string) => store.db.selectFrom('webhook_attempts').selectAll().where('event_id', '=', eventId).orderBy('id').execute();
