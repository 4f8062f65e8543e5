/**
 * The bill data the checkout page opens with (`GET /ajax/object-info/{id}`): the bill, its ways to pay and the points
 * the customer may spend, and what a reload resumes (an attempt still waiting for its bank, a code still to enter, a
 * declined attempt to try again).
 */
import { maskPhone } from '../../src/services/rules/phone';
import type { Bill, ClosedAs } from '../../src/services/rules/billData';
import type { EmbeddedAnswer } from '../../src/services/initialData';
import { declineReasonOf } from '../../src/services/rules/declineReasons';
import { sentCodeOf } from '../accounts/codes';
import type { SessionRow } from '../accounts/tables';
import { pageTypeOid } from '../billing/payLinks';
import { typesOfBill } from '../billing/queries';
import { closedAsOfBill, unpayableReason } from '../billing/status';
import type { BillRow, PaymentTypeRow } from '../billing/tables';
import { pointsBalance } from '../loyalty/ledger';
import { toRoubles } from '../platform/money';
import { orderIdSchema } from '../platform/schemas';
import type { Store } from '../store/store';
import { usefulPoints } from './pricing';
import { attemptNamed, lastReleasedHoldOfBill, openAttemptOfBill, partsPaidOfBill, pointsSpentOnBill } from './queries';
import type { FiscalDefaults } from '../billing/fiscalCodes';
import { maskEmail, receiptOf, type Receipt } from './receipt';

/** One payment type as the page reads it, named by the bill's link id. `Comission`: the fee in percent of the sum. */
function paymentTypeOut(type: PaymentTypeRow, bill: BillRow) {
  const percent = Math.round((type.commission_kopecks / bill.sum_kopecks) * 10000) / 100;
  return {
    OID: pageTypeOid(bill, type.code),
    Code: type.code,
    Name: type.name,
    ...(type.commission_kopecks > 0 ? { Comission: percent } : {}),
    CommissionSumm: toRoubles(type.commission_kopecks),
    Maximum: type.maximum_kopecks === null ? null : toRoubles(type.maximum_kopecks),
    IsShowAggregatorOffer: type.show_aggregator_offer === 1,
    IsShowExecuterOffer: type.show_executer_offer === 1,
  };
}

/**
 * The initial bill data, as `GET /ajax/object-info/{link id}` answers it: what the page shows and nothing
 * more, for anyone holding the link. The customer's name (the no-registration step shows it) and phone masked as the
 * code screen shows it. An e-mail only to prefill the receipt field: `info.Email`, the bill's receipt address or else
 * the customer's; `user.Email`, which the page never shows, stays null. The bill is named by its link id, never by
 * the merchant's objectOID.
 */
export async function objectInfo(store: Store, bill: BillRow) {
  const [available, types, useful, parts] = await Promise.all([
    bill.cust_no ? pointsBalance(store, bill.cust_no) : 0,
    typesOfBill(store, bill.oid),
    usefulPoints(store, bill),
    partsOf(store, bill),
  ]);
  return {
    user: { Name: bill.client_name, Phone: bill.client_phone ? maskPhone(bill.client_phone) : null, Email: null },
    info: { PaymentPurpose: bill.purpose, CustNo: bill.cust_no, Summ: toRoubles(bill.sum_kopecks), Email: bill.bill_email ?? bill.client_email },
    cardTypes: types.map((type) => paymentTypeOut(type, bill)),
    paymentURL: '/api/getPaymentUrl/',
    isBill: bill.object_type === 'bill',
    objectOID: bill.link_id,
    objectType: bill.object_type,
    noReg: bill.no_reg === 1,
    pointsEnabled: bill.points_enabled === 1,
    usefulPoints: useful,
    availablePoints: bill.points_enabled ? available : 0,
    /** Where "Вернуться в магазин" leads after paying; null when the merchant gave none. */
    returnUrl: bill.return_url,
    parts,
  };
}

/** How far a bill with parts is paid, as the page shows it (null: a bill paid by one payment of the whole). */
async function partsOf(store: Store, bill: BillRow) {
  if (bill.part_minimum_kopecks === null) return null;
  const [parts, pointsSpent] = await Promise.all([partsPaidOfBill(store, bill), pointsSpentOnBill(store, bill.oid)]);
  // Parts paid by two tabs at once may pass the bill: what passes it goes back, the bill keeps its amount.
  const paid = Math.min(parts, bill.sum_kopecks);
  return {
    minimum: toRoubles(bill.part_minimum_kopecks),
    paid: toRoubles(paid),
    remaining: toRoubles(Math.max(0, bill.sum_kopecks - paid)),
    pointsSpent,
  };
}

/**
 * The bill's open attempt, for a reload to resume: its order, way to pay and status, and for fast payment the QR the
 * acquirer gave (stored on the attempt by the gateway). One read; an attempt the acquirer has not registered yet, or a
 * fast payment without its QR, has nothing to resume.
 */
export async function openAttemptOf(store: Store, bill: BillRow) {
  const open = await openAttemptOfBill(store, bill.oid);
  if (!open) return null;
  const sbp = open.sbp_qrc_id && open.sbp_payload && open.sbp_image ? { payload: open.sbp_payload, qrcId: open.sbp_qrc_id, image: open.sbp_image } : null;
  if (open.type_code === 'SBP' && !sbp) return null;
  return {
    orderId: open.order_id,
    cardTypeOID: pageTypeOid(bill, open.type_code),
    code: open.type_code,
    status: open.status,
    // What the step shows again: the amount follows from the type and the points the attempt was made with.
    pointsUsed: open.points_used,
    // A bill in parts: the part it pays, so going back to it pays the same part and finds the same order.
    ...(bill.part_minimum_kopecks !== null && open.part_kopecks !== null ? { part: toRoubles(open.part_kopecks) } : {}),
    ...(open.type_code === 'SBP' && sbp ? { sbp } : {}),
  };
}

/**
 * The bill's last hold let go (by the merchant or by the clock), when nothing was tried after it: the way and the
 * amount held, so the bill's plain link says 'Блокировка снята' before it takes a payment again. null otherwise.
 */
export async function releasedHoldOf(store: Store, bill: BillRow) {
  const latest = await lastReleasedHoldOfBill(store, bill.oid);
  if (!latest) return null;
  const type = (await typesOfBill(store, bill.oid)).find((candidate) => candidate.oid === latest.card_type_oid);
  if (!type) return null;
  return { cardTypeOID: pageTypeOid(bill, type.code), amount: toRoubles(latest.held_kopecks ?? latest.amount_kopecks) };
}

const orderIdPattern = new RegExp(orderIdSchema.pattern);

/**
 * 'Попробовать снова' after a declined attempt: the way to pay and the receipt e-mail it had, so the bill opens with
 * both kept. Only for a finished, unpaid attempt of this bill, named by its (unguessable) order id. The order id
 * travels in the result page's link, so the e-mail is masked as the receipt masks it, except for the session that
 * asked for the attempt: it gets the address whole, to prefill the field (`ownAttempt`).
 */
async function retryOf(store: Store, bill: BillRow, orderId: string | undefined, asking: Promise<SessionRow | undefined>) {
  // A mangled link's retry is ignored, never a refusal: the bill opens as usual. The result page's link names the order
  // as the acquirer's return URL did (its orderId) or as the checkout polled it (ours, or the QR's id): any of them.
  const attempt = orderId && orderIdPattern.test(orderId) ? await attemptNamed(store, orderId) : undefined;
  if (!attempt || attempt.bill_oid !== bill.oid || attempt.status !== 'declined') return null;
  const type = (await typesOfBill(store, bill.oid)).find((candidate) => candidate.oid === attempt.card_type_oid);
  if (!type) return null;
  const sessionId = (await asking)?.id;
  const ownAttempt = sessionId !== undefined && attempt.session_id === sessionId;
  const email = attempt.email && !ownAttempt ? maskEmail(attempt.email) : attempt.email;
  // What failed, so the way-to-pay step can say it: the amount and the bank's reason.
  // A hold let go is stored as declined; the payer hears that the hold was released, not that the bank declined.
  const released = attempt.state === 'released';
  return {
    cardTypeOID: pageTypeOid(bill, type.code),
    email,
    ownAttempt,
    amount: toRoubles(attempt.held_kopecks ?? attempt.amount_kopecks),
    reason: released ? null : declineReasonOf(attempt.action_code),
    ...(released ? { released } : {}),
  };
}

/**
 * A bill with nothing left to pay: paid, cancelled or expired. Paid, the page shows 'Счет оплачен' with the receipt
 * of the payment that paid it, so the answer says `paid`; the others show the page's data error.
 */
export type ClosedBill = { error: string; closedAs?: ClosedAs } | { error: string; paid: true; receipt?: Receipt };

/**
 * What the page opens a bill with, or why it cannot pay it. `sessionOf`: the page's session (looked up only for a bill
 * that can be paid, alongside the other reads), whose code still to be entered comes along, so a reload on the code
 * screen returns to it, and whose own declined attempt gets its e-mail whole; `retry`: the order id of a declined
 * attempt to try again.
 */
export async function billData(
  store: Store,
  bill: BillRow,
  sessionOf: () => Promise<SessionRow | undefined>,
  retry: string | undefined,
  fiscal: FiscalDefaults,
) {
  const closed = unpayableReason(bill, store.now());
  if (closed) {
    // Cancelled or expired: the page words it (closedAs), not a data error that leaves the payer guessing.
    if (bill.status !== 'paid') {
      const closedAs = closedAsOfBill(bill, store.now());
      return { closed: { error: closed, ...(closedAs ? { closedAs } : {}) } satisfies ClosedBill };
    }
    const receipt = bill.paid_order_id ? await receiptOf(store, bill.paid_order_id, fiscal) : undefined;
    return { closed: { error: closed, paid: true as const, ...(receipt ? { receipt } : {}) } satisfies ClosedBill };
  }
  const session = sessionOf();
  const [info, openAttempt, retried, releasedHold, sentCode] = await Promise.all([
    objectInfo(store, bill),
    openAttemptOf(store, bill),
    retryOf(store, bill, retry, session),
    releasedHoldOf(store, bill),
    session.then((found) => sentCodeOf(store, found?.id, bill)),
  ]);
  // The page's own type of the initial data (src/services/rules/billData.ts): the wire shape is written once.
  return { data: { ...info, openAttempt, retry: retried, releasedHold, sentCode } satisfies Bill };
}

/**
 * The bill data's answer (`GET /ajax/object-info/{link id}`) for the bill a link names, as a value the route sends and
 * the checkout page carries (src/services/initialData.ts): 200 with the data, 409 when nothing is left to pay (with
 * why, and a paid bill's receipt), 404 for no such bill.
 */
export async function billDataAnswer(
  store: Store,
  bill: BillRow | undefined,
  sessionOf: () => Promise<SessionRow | undefined>,
  retry: string | undefined,
  fiscal: FiscalDefaults,
): Promise<EmbeddedAnswer> {
  if (!bill) return { status: 404, body: { success: false, error: 'Документ не найден' } };
  const opened = await billData(store, bill, sessionOf, retry, fiscal);
  if ('closed' in opened) return { status: 409, body: { success: false, ...opened.closed } };
  return { status: 200, body: opened.data };
}
