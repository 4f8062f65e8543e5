/**
 * Starting a payment: the attempt that a Pay makes or finds, in one transaction, or the bill closed at once when
 * points cover it. The acquirer's order for the attempt comes after (pay.ts, through the gateway).
 */
import crypto from 'node:crypto';
import { billByOid, typesOfBill } from '../billing/queries';
import { closedAsOfBill, unpayableReason } from '../billing/status';
import type { BillRow, PaymentTypeRow } from '../billing/tables';
import type { Store } from '../store/store';
import { PaymentRefused } from './errors';
import { applyAcquirerOutcome } from './outcome';
import { amountDue, maxSpendablePoints, paymentCommission, usefulPoints } from './pricing';
import { capText, partProblemText } from '../../src/services/partsWords';
import { defaultPartOf, partProblem } from '../../src/services/rules/parts';
import { insertAttempt, partsPaidOfBill, pendingAttempt, pointsSpentOnBill, setAttemptPayer } from './queries';
import type { AttemptRow } from './tables';

export interface PaymentRequest {
  bill: BillRow;
  type: PaymentTypeRow | undefined;
  points: number;
  /** What of the bill this payment pays, as the payer chose; null: the default (what remains, or the way's cap). */
  partKopecks?: number | null;
  email: string | null;
  userOid: string | null;
  managerId: string | null;
  /** The session asking: a retry of the attempt gives its e-mail whole to this session only. */
  sessionId: string | null;
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
    const checked = await checkPayment(tx, request);
    if (checked.closes) return { kind: 'closed', attempt: await closeWithPoints(tx, checked.bill, request, checked.anyType, checked.part) };
    const { bill, type, amount, part } = checked;

    const pending = await pendingAttempt(tx, bill.oid, type.oid, amount, request.points, part);
    if (pending) {
      // Whoever asks last is who goes on to pay it: the receipt and the attribution follow the latest request.
      const payer = { email: request.email, user_oid: request.userOid, manager_id: request.managerId, session_id: request.sessionId };
      // The same payer again (a double click, a retry, twenty tabs) writes nothing: on PostgreSQL concurrent writes to
      // one row conflict and are retried, and a Pay that changes nothing should never be the one that runs out of tries.
      const samePayer =
        pending.email === payer.email && pending.user_oid === payer.user_oid && pending.manager_id === payer.manager_id && pending.session_id === payer.session_id;
      const attempt = samePayer ? pending : (await setAttemptPayer(tx, pending.order_id, payer))!;
      return { kind: 'attempt', attempt, type, reused: true };
    }

    const orderId = newOrderId();
    const attempt = await insertAttempt(tx, {
      order_id: orderId,
      bill_oid: bill.oid,
      card_type_oid: type.oid,
      amount_kopecks: amount,
      commission_kopecks: type.commission_kopecks,
      points_used: request.points,
      part_kopecks: part,
      email: request.email,
      user_oid: request.userOid,
      manager_id: request.managerId,
      session_id: request.sessionId,
    });
    return { kind: 'attempt', attempt, type, reused: false };
  });
}

/** A payment as checked: points that cover it close the bill, else the way pays the amount for the part. */
export type CheckedPayment =
  | { closes: true; bill: BillRow; part: number; anyType: PaymentTypeRow | undefined }
  | { closes: false; bill: BillRow; part: number; type: PaymentTypeRow; amount: number };

/**
 * Checks a payment as it stands now, writing nothing: refuses, in the payer's words, what cannot be paid (a closed
 * bill, a part it cannot take, too many points, no way to pay), so a Pay can be refused before it touches anything.
 */
export async function checkPayment(store: Store, request: PaymentRequest): Promise<CheckedPayment> {
  const bill = (await billByOid(store, request.bill.oid))!;
  if (bill.status === 'paid') throw new PaymentRefused(409, 'Счет уже оплачен');
  // A cancelled or expired bill takes no payment (422: the page's 409 means "already paid").
  const closed = unpayableReason(bill, store.now());
  if (closed) throw new PaymentRefused(422, closed, closedAsOfBill(bill, store.now()));

  const types = await typesOfBill(store, bill.oid);
  const commission = paymentCommission(types, request.type);
  const part = await partToPay(store, bill, request);
  if (request.points > 0) {
    if (!bill.cust_no) throw new PaymentRefused(400, 'Баллы недоступны для этого счета');
    const max = maxSpendablePoints(await usefulPoints(store, bill), part, commission);
    if (request.points > max) throw new PaymentRefused(400, `Можно использовать не более ${max} баллов`);
    // Points go to one part of a bill only: the first the payer pays with them.
    if (bill.part_minimum_kopecks !== null && (await pointsSpentOnBill(store, bill.oid))) throw new PaymentRefused(400, 'Баллы уже списаны в оплату другой части счета');
  }
  const amount = amountDue(part, commission, request.points);
  if (amount <= 0) return { closes: true, bill, part, anyType: types[0] };
  if (!request.type) throw new PaymentRefused(400, 'Не выбран способ оплаты');
  return { closes: false, bill, part, type: request.type, amount };
}

/**
 * What of the bill this payment pays: the whole of a bill without parts (which a way capped below it cannot pay), or
 * of a bill with parts the payer's part (by default what remains, or the way's cap when lower), at least the minimum
 * unless less remains, never more than remains nor than the way's cap. Refuses, in the payer's words, what cannot be.
 */
async function partToPay(tx: Store, bill: BillRow, request: PaymentRequest): Promise<number> {
  const parts = { amountKopecks: bill.sum_kopecks, paidKopecks: await partsPaidOfBill(tx, bill), minimumKopecks: bill.part_minimum_kopecks };
  const cap = request.type?.maximum_kopecks ?? null;
  const code = request.type?.code ?? 'ALL';
  if (bill.part_minimum_kopecks === null) {
    if (request.partKopecks != null && request.partKopecks !== bill.sum_kopecks) throw new PaymentRefused(400, 'Этот счет оплачивается одним платежом');
    if (cap !== null && cap < bill.sum_kopecks) throw new PaymentRefused(400, capText(code, cap));
    return bill.sum_kopecks;
  }
  const part = request.partKopecks ?? defaultPartOf(parts, cap);
  const problem = partProblem(parts, part, cap);
  if (problem) throw new PaymentRefused(400, partProblemText(problem, code));
  return part;
}

async function closeWithPoints(tx: Store, bill: BillRow, request: PaymentRequest, anyType: PaymentTypeRow | undefined, part: number): Promise<AttemptRow> {
  // 422, not 409: a 409 to a payment request means the bill is already paid, and the page says so.
  if (!anyType) throw new PaymentRefused(422, 'У счета нет способов оплаты');
  const orderId = newOrderId();
  await insertAttempt(tx, {
    order_id: orderId,
    bill_oid: bill.oid,
    card_type_oid: request.type?.oid ?? anyType.oid,
    amount_kopecks: 0,
    commission_kopecks: 0,
    points_used: request.points,
    part_kopecks: part,
    email: request.email,
    user_oid: request.userOid,
    manager_id: request.managerId,
    session_id: request.sessionId,
  });
  // No acquirer is involved: the server itself is the party that confirms this payment.
  return applyAcquirerOutcome(tx, orderId, { type: 'points.covered' });
}

/** Our order id: 32 hex characters, so it is also the acquirer's `orderNumber` (≤ 32 chars, the idempotency key there). */
export const newOrderId = () => crypto.randomUUID().replaceAll('-', '');

/** The `orderNumber` an attempt is registered under at the acquirer (attempts made before the gateway had dashed ids). */
export const orderNumberOf = (orderId: string) => orderId.replaceAll('-', '');
