/** The merchant API's answers and its webhooks' data, built from rows (the same shapes its schemas document). */
import type { FiscalDefaults } from '../billing/fiscalCodes';
import { positionsOf, QUANTITY_SCALE } from '../billing/items';
import { itemsOfBill, typesOfBill } from '../billing/queries';
import { billStatus } from '../billing/status';
import type { BillRow } from '../billing/tables';
import { paymentStatusOf } from '../lifecycle/attempt';
import type { LedgerRow } from '../loyalty/tables';
import { itemsOfAttempts, partOf, paymentsOfBill, type AttemptWithMethod } from '../payments/queries';
import { automaticByOrder, refundedByOrder } from '../payments/refundQueries';
import { closingReceiptsOfBill } from '../payments/closingReceiptQueries';
import type { AttemptItemRow, ClosingReceiptRow, RefundItemRow, RefundRow } from '../payments/tables';
import { formatMoney } from '../platform/money';
import type { Store } from '../store/store';

export const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
export const money = (kopecks: number) => ({ value: formatMoney(kopecks), currency: 'RUB' as const });

/**
 * A payment with the positions its order was registered with (none: no receipt went with an acquirer order), what its
 * refunds have given back (kopecks), and what its automatic refunds claim and gave back of that (of a successful
 * payment: what its part paid past what remained of its bill).
 */
export type PaymentWithDetails = AttemptWithMethod & { items: AttemptItemRow[]; refundedKopecks: number; automatic: { claimed: number; givenBack: number } };

/** Payments with their positions and what they gave back, in two reads whatever their number. */
export async function withDetails(store: Store, payments: AttemptWithMethod[]): Promise<PaymentWithDetails[]> {
  const orderIds = payments.map((payment) => payment.order_id);
  const [items, refunded, automatic] = await Promise.all([
    itemsOfAttempts(
      store,
      payments.filter((payment) => payment.receipt_tax_system !== null).map((payment) => payment.order_id),
    ),
    refundedByOrder(store, orderIds),
    automaticByOrder(store, orderIds),
  ]);
  return payments.map((payment) => ({
    ...payment,
    items: items.get(payment.order_id) ?? [],
    refundedKopecks: refunded.get(payment.order_id)?.kopecks ?? 0,
    automatic: automatic.get(payment.order_id) ?? { claimed: 0, givenBack: 0 },
  }));
}

/** Who issues a payment's fiscal receipt, and why, in the merchant's words. */
function receiptView(payment: PaymentWithDetails) {
  const items = payment.items.map((item) => ({
    positionId: item.position_id,
    billPosition: item.bill_position,
    name: item.name,
    quantity: item.quantity_milli / QUANTITY_SCALE,
    price: money(item.price_kopecks),
    amount: money(item.amount_kopecks),
    vat: item.vat,
    paymentMethod: item.payment_method,
    paymentObject: item.payment_object,
    measure: item.measure,
  }));
  if (payment.receipt_tax_system !== null) {
    return { issuer: 'acquirer' as const, note: "Sent with the acquirer's order: its cash register issues the receipt and e-mails it.", taxSystem: payment.receipt_tax_system, items };
  }
  const note =
    payment.amount_kopecks === 0
      ? 'Paid by points alone: there is no acquirer order and no receipt went anywhere. Issue it with your own cash register.'
      : "No receipt went with the acquirer's order (no FISCAL_TAX_SYSTEM, or no order registered yet). Issue it with your own cash register if money was taken.";
  return { issuer: 'merchant' as const, note, taxSystem: null, items };
}

/**
 * What a bill's payments have paid of it: `paid` the money its successful payments took for it and kept (their parts,
 * less what their refunds gave back), `refunded` what those refunds gave back, `remaining` what is still to pay (a
 * refund does not reopen a bill: the parts paid count, whatever went back). Money taken for a bill that could not keep
 * it (its payment is `refunded`, or the excess of a part past what remained) is none of these.
 */
export function billMoneyOf(bill: BillRow, payments: readonly PaymentWithDetails[]) {
  let taken = 0;
  let refunded = 0;
  for (const payment of payments) {
    if (payment.status !== 'success') continue;
    // What a part paid past what remained (two tabs at once) goes back automatically: the bill never kept it.
    const part = partOf(payment) - payment.automatic.claimed;
    taken += part;
    // A refund of the fee as well as the part gives back no more of the bill than its part.
    refunded += Math.min(payment.refundedKopecks - payment.automatic.givenBack, part);
  }
  const remaining = bill.state === 'paid' ? 0 : Math.max(0, bill.sum_kopecks - taken);
  return { paid: money(taken - refunded), remaining: money(remaining), refunded: money(refunded) };
}

/** A payment as the merchant API shows it. */
export function paymentView(attempt: PaymentWithDetails) {
  return {
    orderId: attempt.order_id,
    objectOID: attempt.bill_oid,
    method: attempt.method,
    amount: money(attempt.amount_kopecks),
    // Its part of the bill (the amount is the part, plus the fee, less the points).
    part: money(partOf(attempt)),
    commission: money(attempt.commission_kopecks),
    pointsUsed: attempt.points_used,
    // The state's word (a hold is stored as pending).
    status: paymentStatusOf(attempt.state),
    refunded: money(attempt.refundedKopecks),
    // A hold: when the server releases it by itself, unless the merchant captures or releases it first.
    heldUntil: paymentStatusOf(attempt.state) === 'held' ? iso(attempt.held_until) : null,
    receiptEmail: attempt.email,
    receipt: receiptView(attempt),
    createdAt: iso(attempt.created_at)!,
    updatedAt: iso(attempt.updated_at)!,
  };
}

/** A bill with its payment types and payments, as GET /merchant/v1/bills/:objectOID answers it. */
export async function billView(store: Store, bill: BillRow, publicUrl: string, defaults: FiscalDefaults) {
  const [types, payments, items, closing] = await Promise.all([
    typesOfBill(store, bill.oid),
    paymentsOfBill(store, bill.oid).then((rows) => withDetails(store, rows)),
    itemsOfBill(store, bill.oid),
    closingReceiptsOfBill(store, bill.oid),
  ]);
  return {
    objectOID: bill.oid,
    status: billStatus(bill, store.now()),
    ...billMoneyOf(bill, payments),
    // The page knows a bill only by its unguessable link id; the objectOID alone opens nothing there.
    payUrl: `${publicUrl}/pay/${bill.link_id}`,
    purpose: bill.purpose,
    amount: money(bill.sum_kopecks),
    parts: bill.part_minimum_kopecks === null ? null : { minimum: money(bill.part_minimum_kopecks) },
    items: positionsOf(bill, items, defaults).map((position, i) => ({
      position: i + 1,
      name: position.name,
      quantity: position.quantityMilli / QUANTITY_SCALE,
      price: money(position.priceKopecks),
      amount: money(position.amountKopecks),
      vat: position.vat,
      paymentMethod: position.paymentMethod,
      paymentObject: position.paymentObject,
      measure: position.measure,
    })),
    customer: { name: bill.client_name, phone: bill.client_phone, email: bill.client_email, custNo: bill.cust_no },
    noReg: bill.no_reg === 1,
    points: { enabled: bill.points_enabled === 1, usefulLimit: bill.useful_points_limit },
    paymentTypes: types.map((type) => ({
      code: type.code,
      name: type.name,
      commission: money(type.commission_kopecks),
      maximum: type.maximum_kopecks === null ? null : money(type.maximum_kopecks),
      showAggregatorOffer: type.show_aggregator_offer === 1,
      showExecuterOffer: type.show_executer_offer === 1,
    })),
    expiresAt: iso(bill.expires_at),
    returnUrl: bill.return_url,
    capture: bill.capture,
    createdAt: iso(bill.created_at)!,
    paidAt: iso(bill.paid_at),
    closedAt: iso(bill.closed_at),
    handedOverAt: iso(bill.handed_over_at),
    payments: payments.map(paymentView),
    closingReceipts: closing.map(closingReceiptView),
  };
}

/** A refund as the merchant API shows it, with the positions it returns (none: the order carried no fiscal receipt). */
export const refundView = (refund: RefundRow, items: readonly RefundItemRow[]) => ({
  id: refund.id,
  orderId: refund.order_id,
  amount: money(refund.amount_kopecks),
  status: refund.status,
  reason: refund.reason,
  automatic: refund.kind === 'automatic',
  items: items.map((item) => ({ positionId: item.position_id, quantity: item.quantity_milli / QUANTITY_SCALE, amount: money(item.amount_kopecks) })),
  acquirerAnswer: refund.acquirer_answer,
  createdAt: iso(refund.created_at)!,
  finishedAt: iso(refund.finished_at),
});

export const ledgerEntryView = (entry: LedgerRow) => ({
  id: entry.id,
  delta: entry.delta,
  reason: entry.reason,
  orderId: entry.order_id,
  refundId: entry.refund_id,
  createdAt: iso(entry.created_at)!,
});

/** An opaque cursor: the position a page ends at, base64url of JSON (its meaning is ours to change). */
export const encodeCursor = (position: unknown): string => Buffer.from(JSON.stringify(position)).toString('base64url');

/** The position a cursor names, or undefined for one this server did not make. */
export function decodeCursor<T>(cursor: string, check: (value: unknown) => value is T): T | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return check(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The API's word for where a closing receipt stands: pending until the gateway's word, then registered or failed. */
const closingStatusOf = (state: ClosingReceiptRow['state']): 'pending' | 'registered' | 'failed' => (state === 'registered' || state === 'failed' ? state : 'pending');

/** A closing receipt as the handover's answer, the bill and the receipt webhooks show it. */
export const closingReceiptView = (row: ClosingReceiptRow) => ({
  orderId: row.order_id,
  receiptId: row.receipt_id,
  status: closingStatusOf(row.state),
  amount: money(row.amount_kopecks),
  ...(row.error && row.state === 'failed' ? { error: row.error } : {}),
});
