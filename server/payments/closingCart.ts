/**
 * The closing receipt's cart (full settlement, "чек полного расчета"): what an order's prepayment receipt charged, as
 * full payment now that the goods are handed over. Its positions are the order's prepaid ones as charged, less what
 * its refunds gave back of each; they are paid by offsetting the prepayment (payment type 2), for what the order kept.
 * Pure: the rows in, the cart out.
 */
import { MEASURES, PAYMENT_METHOD_CODES, VAT_CODES, type FfdVersion, type PaymentMethod } from '../billing/fiscalCodes';
import { QUANTITY_SCALE } from '../billing/items';
import type { CartItem } from '../acquirer/orderBundle';
import { splitByLargestRemainder } from './chargedItems';
import type { AttemptItemRow } from './tables';

/** The fiscal API's payment type that offsets a prepayment (1 would be money paid electronically now). */
export const PREPAYMENT_OFFSET = 2;

/** The positions a prepayment receipt may carry (tag 1214 codes 1 to 3): a full payment needs no closing. */
export const isPrepayment = (method: PaymentMethod) => PAYMENT_METHOD_CODES[method] < PAYMENT_METHOD_CODES.full_payment;

/** A position of the order's receipt, as the fiscal API takes it: its method and object as fields, not attributes. */
export type ClosingItem = Omit<CartItem, 'itemAttributes'> & { paymentMethod: 'full_payment'; paymentObject: string };

/** What doReceipt sends: the bundle, and where the receipt goes (an e-mail or a phone, one at least). */
export interface ClosingCart {
  email: string | null;
  phone: string | null;
  orderBundle: {
    ffdVersion: FfdVersion;
    receiptType: 'sell';
    payments: { type: number; sum: number }[];
    total: number;
    cartItems: { items: ClosingItem[] };
  };
}

/**
 * The closing cart of an order: its prepaid positions (those of its receipt that were a prepayment) less what refunds
 * returned of each (`returned`: kopecks by positionId, succeeded refunds only). Each keeps its quantity; one given back
 * in part is priced lower per unit, as a refund's receipt does. When what refunds returned by position does not add
 * up to `refundedKopecks` (a refund that named no positions), the rest is spread over the positions in proportion.
 * null: nothing left to settle.
 */
export function closingCartOf(
  items: readonly AttemptItemRow[],
  returned: ReadonlyMap<number, number>,
  refundedKopecks: number,
  contact: { email: string | null; phone: string | null },
  ffd: FfdVersion,
): ClosingCart | null {
  const prepaid = items.filter((item) => isPrepayment(item.payment_method));
  const charged = items.reduce((sum, item) => sum + item.amount_kopecks, 0);
  let left = prepaid.map((item) => Math.max(0, item.amount_kopecks - (returned.get(item.position_id) ?? 0)));
  // What the order kept of its prepaid positions: refunds come off what was charged, and no position goes below 0.
  const kept = Math.max(0, Math.min(left.reduce((sum, amount) => sum + amount, 0), charged - refundedKopecks));
  const over = left.reduce((sum, amount) => sum + amount, 0) - kept;
  if (over > 0) {
    const cut = splitByLargestRemainder(left, over);
    left = left.map((amount, i) => amount - cut[i]!);
  }
  const positions = prepaid
    .map((item, i) => ({ item, amount: left[i]! }))
    .filter(({ amount }) => amount > 0)
    .map(({ item, amount }): ClosingItem => ({
      positionId: String(item.position_id),
      name: item.name,
      quantity: { value: item.quantity_milli / QUANTITY_SCALE, measure: ffd === '1.2' ? MEASURES[item.measure ?? 'piece'].code : MEASURES[item.measure ?? 'piece'].word },
      itemAmount: amount,
      itemPrice: amount === item.amount_kopecks ? item.price_kopecks : Math.round((amount * QUANTITY_SCALE) / item.quantity_milli),
      itemCode: item.bill_position === null ? 'fee' : `position-${item.bill_position}`,
      tax: { taxType: VAT_CODES[item.vat] },
      paymentMethod: 'full_payment',
      paymentObject: item.payment_object,
    }));
  if (positions.length === 0 || (!contact.email && !contact.phone)) return null;
  const total = positions.reduce((sum, position) => sum + position.itemAmount, 0);
  return {
    email: contact.email,
    phone: contact.phone,
    orderBundle: { ffdVersion: ffd, receiptType: 'sell', payments: [{ type: PREPAYMENT_OFFSET, sum: total }], total, cartItems: { items: positions } },
  };
}
