/**
 * The fiscal receipt as register.do carries it: `taxSystem` and `orderBundle`, built from the attempt's positions as
 * charged (payments/chargedItems.ts). The acquirer's cash-register service prints it from this and e-mails it to the
 * payer; the positions' amounts add up to the order's amount.
 */
import {
  MEASURES,
  PAYMENT_METHOD_CODES,
  PAYMENT_OBJECT_CODES,
  TAX_SYSTEM_CODES,
  VAT_CODES,
  type FfdVersion,
  type TaxSystem,
} from '../billing/fiscalCodes';
import { QUANTITY_SCALE } from '../billing/items';
import type { AttemptItemRow } from '../payments/tables';

export interface CartItem {
  positionId: string;
  name: string;
  quantity: { value: number; measure: string | number };
  itemAmount: number;
  itemPrice: number;
  itemCode: string;
  tax: { taxType: number };
  itemAttributes: { attributes: { name: 'paymentMethod' | 'paymentObject'; value: string }[] };
}

export interface OrderBundle {
  orderCreationDate: number;
  customerDetails: { email?: string; phone?: string };
  cartItems: { items: CartItem[] };
}

/** What register.do adds for the receipt. */
export interface FiscalReceipt {
  taxSystem: number;
  orderBundle: OrderBundle;
}

/** Where the receipt goes: the e-mail the payer chose (else the bill's), and the customer's phone when the bill has one. */
export interface ReceiptCustomer {
  email: string | null;
  phone: string | null;
}

/** A position's unit: format 1.2 a number (0: piece), 1.05 a word. */
function measureOf(item: AttemptItemRow, ffd: FfdVersion): string | number {
  const measure = MEASURES[item.measure ?? 'piece'];
  return ffd === '1.2' ? measure.code : measure.word;
}

export const cartItemOf = (item: AttemptItemRow, ffd: FfdVersion): CartItem => ({
  positionId: String(item.position_id),
  name: item.name,
  quantity: { value: item.quantity_milli / QUANTITY_SCALE, measure: measureOf(item, ffd) },
  itemAmount: item.amount_kopecks,
  itemPrice: item.price_kopecks,
  // Unique in the order: the bill's position, or the fee.
  itemCode: item.bill_position === null ? 'fee' : `position-${item.bill_position}`,
  tax: { taxType: VAT_CODES[item.vat] },
  itemAttributes: {
    attributes: [
      { name: 'paymentMethod', value: String(PAYMENT_METHOD_CODES[item.payment_method]) },
      { name: 'paymentObject', value: String(PAYMENT_OBJECT_CODES[item.payment_object]) },
    ],
  },
});

/** The receipt of an order: its tax system and the bundle (positions as charged, where the receipt goes). */
export function fiscalReceiptOf(taxSystem: TaxSystem, items: readonly AttemptItemRow[], customer: ReceiptCustomer, createdAt: number, ffd: FfdVersion): FiscalReceipt {
  return {
    taxSystem: TAX_SYSTEM_CODES[taxSystem],
    orderBundle: {
      orderCreationDate: createdAt,
      customerDetails: {
        ...(customer.email ? { email: customer.email } : {}),
        ...(customer.phone ? { phone: `+${customer.phone}` } : {}),
      },
      cartItems: { items: items.map((item) => cartItemOf(item, ffd)) },
    },
  };
}
