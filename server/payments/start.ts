import crypto from 'node:crypto';
import { billStatus, unpayableReason } from '../billing/bills';
import { paymentEvent } from '../merchant/events';
import type { AttemptRow, BillRow, PaymentTypeRow, Store } from '../store/store';

/** A refusal the payer's request can cause; routes answer it as a 4xx. */
export class PaymentRefused extends Error {
  constructor(
    readonly statusCode: 400 | 404 | 409 | 422,
    message: string,
  ) {
    super(message);
  }
}

/** Points the bill's customer can spend on it now: the bill's limit, capped by the balance. */
export async function usefulPoints(store: Store, bill: BillRow): Promise<number> {
  if (!bill.points_enabled || !bill.cust_no) return 0;
  return Math.max(0, Math.min(bill.useful_points_limit, await store.pointsBalance(bill.cust_no)));
}

/** SPEC §3: the smaller of useful points and (sum + commission); one point is one rouble. */
export function maxSpendablePoints(useful: number, sumKopecks: number, commissionKopecks: number): number {
  return Math.max(0, Math.min(useful, Math.floor((sumKopecks + commissionKopecks) / 100)));
}

/** SPEC §3 commission: the chosen type's; with no type chosen the lowest applies (what a points-only payment pays). */
export function paymentCommission(types: readonly PaymentTypeRow[], type: PaymentTypeRow | undefined): number {
  if (type) return type.commission_kopecks;
  return types.length > 0 ? Math.min(...types.map((t) => t.commission_kopecks)) : 0;
}

/** SPEC §3 final price: sum + commission − used points (a point is 100 kopecks). test/server/pricing.test.ts holds the page to the same. */
export const amountDue = (sumKopecks: number, commissionKopecks: number, points: number): number => sumKopecks + commissionKopecks - points * 100;

export interface PaymentRequest {
  bill: BillRow;
  type: PaymentTypeRow | undefined;
  points: number;
  email: string | null;
  userOid: string | null;
  managerId: string | null;
}

export type PaymentStart =
  | { kind: 'closed'; attempt: AttemptRow }
  | { kind: 'attempt'; attempt: AttemptRow; type: PaymentTypeRow; reused: boolean };

/**
 * Starts a payment: closes the bill when points cover it, otherwise finds or creates the pending attempt for
 * this bill, type and amounts (a found one takes this request's e-mail, user and manager). Runs in one transaction
 * (serialized across processes), so concurrent requests see one attempt.
 */
export function startPayment(store: Store, request: PaymentRequest): Promise<PaymentStart> {
  return store.transaction(async (tx): Promise<PaymentStart> => {
    const bill = (await tx.billByOid(request.bill.oid))!;
    if (bill.status === 'paid') throw new PaymentRefused(409, 'Счет уже оплачен');
    // A cancelled or expired bill takes no payment (422: the page's 409 means "already paid").
    const closed = unpayableReason(bill, tx.now());
    if (closed) throw new PaymentRefused(422, closed);

    const types = await tx.typesOfBill(bill.oid);
    const commission = paymentCommission(types, request.type);
    if (request.points > 0) {
      if (!bill.cust_no) throw new PaymentRefused(400, 'Баллы недоступны для этого счета');
      const max = maxSpendablePoints(await usefulPoints(tx, bill), bill.sum_kopecks, commission);
      if (request.points > max) throw new PaymentRefused(400, `Можно использовать не более ${max} баллов`);
    }
    const amount = amountDue(bill.sum_kopecks, commission, request.points);

    if (amount <= 0) return { kind: 'closed', attempt: await closeWithPoints(tx, bill, request, types[0]) };
    if (!request.type) throw new PaymentRefused(400, 'Не выбран способ оплаты');

    const pending = await tx.pendingAttempt(bill.oid, request.type.oid, amount, request.points);
    if (pending) {
      // Whoever asks last is who goes on to pay it: the receipt and the attribution follow the latest request.
      const payer = { email: request.email, user_oid: request.userOid, manager_id: request.managerId };
      // The same payer again (a double click, a retry, twenty tabs) writes nothing: on PostgreSQL concurrent writes to
      // one row conflict and are retried, and a Pay that changes nothing should never be the one that runs out of tries.
      const samePayer = pending.email === payer.email && pending.user_oid === payer.user_oid && pending.manager_id === payer.manager_id;
      const attempt = samePayer ? pending : (await tx.setAttemptPayer(pending.order_id, payer))!;
      return { kind: 'attempt', attempt, type: request.type, reused: true };
    }

    const orderId = newOrderId();
    const attempt = await tx.insertAttempt({
      order_id: orderId,
      bill_oid: bill.oid,
      card_type_oid: request.type.oid,
      amount_kopecks: amount,
      commission_kopecks: request.type.commission_kopecks,
      points_used: request.points,
      email: request.email,
      user_oid: request.userOid,
      manager_id: request.managerId,
    });
    return { kind: 'attempt', attempt, type: request.type, reused: false };
  });
}

async function closeWithPoints(tx: Store, bill: BillRow, request: PaymentRequest, anyType: PaymentTypeRow | undefined): Promise<AttemptRow> {
  // 422, not 409: a 409 to a payment request means the bill is already paid, and the page says so (issue 17).
  if (!anyType) throw new PaymentRefused(422, 'У счета нет способов оплаты');
  const orderId = newOrderId();
  await tx.insertAttempt({
    order_id: orderId,
    bill_oid: bill.oid,
    card_type_oid: request.type?.oid ?? anyType.oid,
    amount_kopecks: 0,
    commission_kopecks: 0,
    points_used: request.points,
    email: request.email,
    user_oid: request.userOid,
    manager_id: request.managerId,
  });
  // No acquirer is involved: the server itself is the party that confirms this payment.
  return applyAcquirerOutcome(tx, orderId, { kind: 'deposited' });
}

/** Our order id: 32 hex characters, so it is also the acquirer's `orderNumber` (≤ 32 chars, the idempotency key there). */
export const newOrderId = () => crypto.randomUUID().replaceAll('-', '');

/** The `orderNumber` an attempt is registered under at the acquirer (attempts of before issue 13 had dashed ids). */
export const orderNumberOf = (orderId: string) => orderId.replaceAll('-', '');

/** The acquirer's word on an order, as the product reads it (from getOrderStatusExtended.do only). */
export type AcquirerOutcome =
  | { kind: 'deposited' }
  | { kind: 'declined'; reason: 'declined' | 'reversed' | 'expired' | 'amount-mismatch' | 'form-lost' | 'bill-closed' }
  | { kind: 'refunded' };

/**
 * Every change of an attempt's status happens here, in the caller's transaction (one place, so whatever must hear of a
 * change — the change feed today, the merchant's webhooks later — is added once). Exactly once: an attempt no longer
 * pending changes nothing. A deposit marks the bill paid and writes the points off in the same transaction; a deposit
 * on a bill already paid by another attempt (two tabs, card after fast payment), or whose points were spent meanwhile,
 * cannot be kept: the attempt becomes 'refunded' with its refund due at the acquirer (the gateway makes it).
 */
export async function applyAcquirerOutcome(tx: Store, orderId: string, outcome: AcquirerOutcome): Promise<AttemptRow> {
  const attempt = await tx.attemptByOrder(orderId);
  if (!attempt) throw new PaymentRefused(404, 'Заказ не найден');
  if (attempt.status !== 'created') return attempt;
  const finished = await decide(tx, attempt, outcome);
  await paymentEvent(tx, finished); // the merchant's webhooks (issue 14), in this same transaction
  return finished;
}

/** applyAcquirerOutcome's decision for a pending attempt, in its transaction. */
async function decide(tx: Store, attempt: AttemptRow, outcome: AcquirerOutcome): Promise<AttemptRow> {
  const orderId = attempt.order_id;
  if (outcome.kind === 'declined') return (await tx.finishAttempt(orderId, 'declined'))!;
  if (outcome.kind === 'refunded') return (await tx.finishAttempt(orderId, 'refunded'))!;

  const bill = (await tx.billByOid(attempt.bill_oid))!;
  // Money was taken for this attempt: when it cannot be this bill's payment, it goes back (never kept, never a second success).
  // (A points-only attempt took no money: it is simply declined.)
  const giveBack = async () =>
    (attempt.amount_kopecks > 0 ? await tx.finishAttempt(orderId, 'refunded', { refund_state: 'due' }) : await tx.finishAttempt(orderId, 'declined'))!;
  // A bill paid by another attempt, or closed (cancelled, expired) meanwhile, takes no more money.
  if (billStatus(bill, tx.now()) !== 'unpaid') return giveBack();
  if (attempt.points_used > 0) {
    const balance = bill.cust_no ? await tx.pointsBalance(bill.cust_no) : 0;
    // The balance may have been spent since the attempt began: refuse rather than go below zero.
    if (!bill.cust_no || balance < attempt.points_used) return giveBack();
    await tx.addLedgerEntry({ cust_no: bill.cust_no, delta: -attempt.points_used, reason: 'payment', order_id: orderId });
  }
  const finished = (await tx.finishAttempt(orderId, 'success'))!;
  await tx.markBillPaid(bill.oid, orderId);
  return finished;
}
