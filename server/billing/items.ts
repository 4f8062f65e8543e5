/**
 * A bill's positions: what the payer buys, as the fiscal receipt lists them. The merchant may give them (each with its
 * quantity, price, VAT and how it is paid for); they must add up to the bill's sum to the kopeck. A bill without them
 * has one position: its purpose, once, for the whole sum, with the merchant's fiscal defaults.
 */
import {
  isNameIn,
  MEASURES,
  namesOf,
  PAYMENT_METHOD_CODES,
  PAYMENT_OBJECT_CODES,
  VAT_CODES,
  type FiscalDefaults,
  type Measure,
  type PaymentMethod,
  type PaymentObject,
  type Vat,
} from './fiscalCodes';
import { isTextLine, TEXT_LINE_PROBLEM } from '../platform/patterns';
import type { BillItemRow, BillRow } from './tables';
// The arithmetic of a position is the desk's new-bill form's too: one rule, in the shared rules.
import { positionAmount, QUANTITY_SCALE, quantityMilliOf } from '../../src/services/rules/positions';

export { positionAmount, QUANTITY_SCALE, quantityMilliOf };

/** The receipt's limit on a position's name. */
export const ITEM_NAME_MAX = 100;
/** At most this many positions on one bill (a receipt stays readable, and the acquirer's order small). */
export const ITEMS_MAX = 100;
const QUANTITY_MAX_MILLI = 99_999_999;

/** One position of a bill, in the server's terms (kopecks, thousandths of a unit). */
export interface BillPosition {
  name: string;
  quantityMilli: number;
  /** Per unit. */
  priceKopecks: number;
  /** The position's total: quantity × price, rounded to the kopeck. */
  amountKopecks: number;
  vat: Vat;
  paymentMethod: PaymentMethod;
  paymentObject: PaymentObject;
  measure: Measure | null;
}

/** A position as the merchant gives it: its total is computed. */
export type BillItemInput = Omit<BillPosition, 'amountKopecks'>;

const withAmount = (item: BillItemInput): BillPosition => ({ ...item, amountKopecks: positionAmount(item.quantityMilli, item.priceKopecks) });

/** Every problem of the merchant's positions, by field (`items[1].vat`), the sum against the bill's last. */
export function itemProblems(items: readonly BillItemInput[], sumKopecks: number): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  if (items.length === 0 || items.length > ITEMS_MAX) problem('items', `must list 1 to ${ITEMS_MAX} positions (or leave items out)`);
  items.forEach((item, i) => {
    const at = `items[${i}]`;
    if (item.name.trim() === '' || item.name.length > ITEM_NAME_MAX) problem(`${at}.name`, `must be 1 to ${ITEM_NAME_MAX} characters`);
    else if (!isTextLine(item.name)) problem(`${at}.name`, TEXT_LINE_PROBLEM);
    if (!Number.isSafeInteger(item.quantityMilli) || item.quantityMilli <= 0 || item.quantityMilli > QUANTITY_MAX_MILLI) {
      problem(`${at}.quantity`, 'must be more than 0 and below 100000, with at most 3 decimals');
    }
    if (!Number.isSafeInteger(item.priceKopecks) || item.priceKopecks <= 0) problem(`${at}.price.value`, 'must be more than 0.00');
    if (!isNameIn(VAT_CODES, item.vat)) problem(`${at}.vat`, `must be one of ${namesOf(VAT_CODES).join(', ')}`);
    if (!isNameIn(PAYMENT_METHOD_CODES, item.paymentMethod)) problem(`${at}.paymentMethod`, `must be one of ${namesOf(PAYMENT_METHOD_CODES).join(', ')}`);
    if (!isNameIn(PAYMENT_OBJECT_CODES, item.paymentObject)) problem(`${at}.paymentObject`, `must be one of ${namesOf(PAYMENT_OBJECT_CODES).join(', ')}`);
    if (item.measure != null && !isNameIn(MEASURES, item.measure)) problem(`${at}.measure`, `must be one of ${namesOf(MEASURES).join(', ')}`);
  });
  if (problems.length === 0) {
    const total = items.reduce((sum, item) => sum + positionAmount(item.quantityMilli, item.priceKopecks), 0);
    if (total !== sumKopecks) {
      problem('items', `the positions (quantity × price) add up to ${(total / 100).toFixed(2)}, not to amount.value ${(sumKopecks / 100).toFixed(2)}`);
    }
  }
  return problems;
}

/** The merchant's positions with their totals, numbered from 1 for storing. */
export const itemRowsOf = (billOid: string, items: readonly BillItemInput[]): BillItemRow[] =>
  items.map(withAmount).map((item, i) => ({
    bill_oid: billOid,
    position: i + 1,
    name: item.name,
    quantity_milli: item.quantityMilli,
    price_kopecks: item.priceKopecks,
    amount_kopecks: item.amountKopecks,
    vat: item.vat,
    payment_method: item.paymentMethod,
    payment_object: item.paymentObject,
    measure: item.measure,
  }));

/**
 * The bill's positions: the merchant's, or else the one a bill without positions has (its purpose, once, for the sum,
 * with the fiscal defaults: read when asked, so a bill made before positions existed has it too).
 */
export function positionsOf(bill: Pick<BillRow, 'purpose' | 'sum_kopecks'>, rows: readonly BillItemRow[], defaults: FiscalDefaults): BillPosition[] {
  if (rows.length > 0) {
    return rows.map((row) => ({
      name: row.name,
      quantityMilli: row.quantity_milli,
      priceKopecks: row.price_kopecks,
      amountKopecks: row.amount_kopecks,
      vat: row.vat,
      paymentMethod: row.payment_method,
      paymentObject: row.payment_object,
      measure: row.measure,
    }));
  }
  return [
    {
      name: bill.purpose.trim().slice(0, ITEM_NAME_MAX),
      quantityMilli: QUANTITY_SCALE,
      priceKopecks: bill.sum_kopecks,
      amountKopecks: bill.sum_kopecks,
      ...defaults,
      measure: null,
    },
  ];
}
