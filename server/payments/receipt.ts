import type { Receipt } from '../../src/services/rules/billData';
import { declineReasonOf } from '../../src/services/rules/declineReasons';
import { paymentKindOf } from '../../src/services/rules/paymentKinds';
import { maskPhone } from '../../src/services/rules/phone';
import type { FiscalDefaults } from '../billing/fiscalCodes';
import { positionsOf, QUANTITY_SCALE } from '../billing/items';
import { itemsOfBill, typesOfBill } from '../billing/queries';
import { toRoubles } from '../platform/money';
import type { Store } from '../store/store';
import type { ClosingCart } from './closingCart';
import { closingReceiptByOrder } from './closingReceiptQueries';
import { positionsOfPart } from './chargedItems';
import { partOf, partsPaidOfBill, receiptOfOrder } from './queries';
import { refundedByOrder } from './refundQueries';

// The page's own type (src/services/rules/billData.ts), so the wire shape is written once.
export type { Receipt };

/**
 * `ivan.petrov@mail.ru` → `iv***@mail.ru`: enough for the payer to recognise their address, too little for a
 * stranger with the link to learn it.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, Math.min(2, at))}***${email.slice(at)}`;
}

/**
 * The receipt of an order, in one read; undefined for an unknown order. What the payer's receipt says about one
 * attempt, from the server's own records, never from the address bar: the amount and points, the purpose, the order,
 * when it ended, the way paid and where the receipt e-mail went. Money is roubles with two decimals on the wire. The
 * page adds the merchant from its configuration.
 */
export async function receiptOf(store: Store, orderId: string, defaults: FiscalDefaults): Promise<Receipt | undefined> {
  const row = await receiptOfOrder(store, orderId);
  if (!row) return undefined;
  const declined = row.status === 'declined';
  const [items, types] = await Promise.all([itemsOfBill(store, row.bill_oid), declined ? typesOfBill(store, row.bill_oid) : []]);
  // A successful payment the merchant gave back (in part or whole); an automatic refund's attempt already says 'refunded'.
  const refunded = row.status === 'success' ? (await refundedByOrder(store, [orderId])).get(orderId) : undefined;
  // The bill's positions at full price: a bill without its own has one, its purpose (its VAT the merchant's default). A
  // payment of less than the bill (a part, a hold captured for less) shows its share of each, as its fiscal receipt
  // was sent (the same split, adding up to what it paid of the bill).
  const whole = positionsOf({ purpose: row.purpose, sum_kopecks: row.bill_sum_kopecks }, items, defaults);
  const part = partOf(row);
  const positions = part < row.bill_sum_kopecks ? positionsOfPart(whole, part) : whole;
  // After a decline the page offers fast payment, when the bill has it and this payment was not one.
  const fastPayment = paymentKindOf(row.type_code) === 'fast payment' ? undefined : types.find((type) => paymentKindOf(type.code) === 'fast payment');
  // A bill paid in parts: what remains after this part (and any other), for the next part on the same link.
  const remaining = row.part_minimum_kopecks === null ? null : Math.max(0, row.bill_sum_kopecks - (await partsPaidOfBill(store, { oid: row.bill_oid })));
  // Handed over: where this payment's closing receipt went.
  const closing = row.handed_over_at === null ? undefined : await closingReceiptByOrder(store, orderId);
  return {
    orderId: row.order_id,
    status: row.status,
    amount: toRoubles(row.amount_kopecks),
    pointsUsed: row.points_used,
    purpose: row.purpose,
    at: new Date(row.updated_at).toISOString(),
    // Points that covered the bill are the way paid: no money moved, whatever type the attempt was filed under.
    method: row.amount_kopecks > 0 ? { code: row.type_code, name: row.type_name } : null,
    email: row.email ? maskEmail(row.email) : null,
    billPaid: row.bill_status === 'paid',
    items: positions.map((position) => ({
      name: position.name,
      quantity: position.quantityMilli / QUANTITY_SCALE,
      price: toRoubles(position.priceKopecks),
      amount: toRoubles(position.amountKopecks),
      vat: position.vat,
    })),
    fee: toRoubles(row.commission_kopecks),
    fiscal: row.receipt_tax_system !== null,
    card: row.masked_pan,
    declineReason: declined ? declineReasonOf(row.action_code) : null,
    fastPaymentFee: fastPayment ? toRoubles(fastPayment.commission_kopecks) : null,
    returnUrl: row.return_url,
    remaining: remaining === null ? null : toRoubles(remaining),
    refund: refunded
      ? { amount: toRoubles(refunded.kopecks), at: new Date(refunded.at ?? row.updated_at).toISOString(), whole: refunded.kopecks >= row.amount_kopecks }
      : null,
    // Only once handed over, so a receipt before it is as it always was.
    ...(row.handed_over_at === null ? {} : { handover: { at: new Date(row.handed_over_at).toISOString(), sentTo: closing ? sentToOf(JSON.parse(closing.cart) as ClosingCart) : null } }),
  };
}

/** Where a closing receipt went, masked as the receipt shows an address to anyone holding the bill's link. */
const sentToOf = (cart: ClosingCart): string | null => (cart.email ? maskEmail(cart.email) : cart.phone ? maskPhone(cart.phone.replace(/^\+/, '')) : null);

/** The receipt's JSON schema (compiled serializers drop what they do not list). */
export const receiptSchema = {
  type: 'object',
  properties: {
    orderId: { type: 'string' },
    status: { type: 'string' },
    amount: { type: 'number' },
    pointsUsed: { type: 'integer' },
    purpose: { type: 'string' },
    at: { type: 'string' },
    method: { type: ['object', 'null'], properties: { code: { type: 'string' }, name: { type: 'string' } } },
    email: { type: ['string', 'null'] },
    billPaid: { type: 'boolean' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, quantity: { type: 'number' }, price: { type: 'number' }, amount: { type: 'number' }, vat: { type: 'string' } },
      },
    },
    fee: { type: 'number' },
    fiscal: { type: 'boolean' },
    card: { type: ['string', 'null'] },
    declineReason: { type: ['string', 'null'] },
    fastPaymentFee: { type: ['number', 'null'] },
    returnUrl: { type: ['string', 'null'] },
    remaining: { type: ['number', 'null'] },
    refund: { type: ['object', 'null'], properties: { amount: { type: 'number' }, at: { type: 'string' }, whole: { type: 'boolean' } } },
    handover: { type: ['object', 'null'], properties: { at: { type: 'string' }, sentTo: { type: ['string', 'null'] } } },
  },
} as const;
