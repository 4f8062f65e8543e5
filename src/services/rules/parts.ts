/**
 * Paying a bill in parts, the rules the page shows and the server charges by (kopecks throughout). A bill the merchant
 * lets be paid in parts takes several payments, each at least its minimum (or what remains, when less) and never more
 * than what remains; a way to pay may cap one payment (the fast-payment system's limit, a bank's). A bill without parts
 * takes one payment of the whole, so a way whose cap is below it cannot pay it at all.
 */
import type { Kopecks } from './pricing';

/** What a bill in parts is at: its amount, what its payments have paid of it, the least one payment may pay. */
export interface PartsOfBill {
  amountKopecks: Kopecks;
  /** What its successful payments have paid of the amount (refunds do not give it back to pay again). */
  paidKopecks: Kopecks;
  /** The least one payment pays (null: the bill is paid by one payment of the whole). */
  minimumKopecks: Kopecks | null;
}

/** What remains to pay of a bill, never below zero. */
export const remainingOf = (bill: PartsOfBill): Kopecks => Math.max(0, bill.amountKopecks - bill.paidKopecks);

/** The least the next payment may pay: the minimum, or what remains when less (a bill without parts: the whole). */
export const leastPartOf = (bill: PartsOfBill): Kopecks => (bill.minimumKopecks === null ? remainingOf(bill) : Math.min(bill.minimumKopecks, remainingOf(bill)));

/** The part a payment pays unless the payer says otherwise: what remains, or the way's cap when that is lower. */
export const defaultPartOf = (bill: PartsOfBill, capKopecks: Kopecks | null): Kopecks => {
  const remaining = remainingOf(bill);
  return capKopecks === null ? remaining : Math.min(remaining, capKopecks);
};

/**
 * Whether a way to pay can pay this bill at all: on a bill without parts its cap must take the whole; on a bill in
 * parts it must take at least the least part.
 */
export const wayCanPay = (bill: PartsOfBill, capKopecks: Kopecks | null): boolean => capKopecks === null || capKopecks >= leastPartOf(bill);

/** Why a part cannot be paid, for the payer's words: not a sum, below the least part, above what remains, above the way's cap. */
export type PartProblem =
  | { kind: 'not-a-sum' }
  | { kind: 'below-minimum'; leastKopecks: Kopecks }
  | { kind: 'above-remaining'; remainingKopecks: Kopecks }
  | { kind: 'above-cap'; capKopecks: Kopecks };

/**
 * The sum the payer typed in 'Сумма платежа', kopecks: roubles with at most two decimals, a comma or a point before
 * them, spaces between groups allowed (as the page shows money); null when it is not such a sum.
 */
export function typedPartOf(text: string): Kopecks | null {
  const match = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(text.replace(/[\s\u00a0]/g, ''));
  if (!match) return null;
  const kopecks = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(kopecks) ? kopecks : null;
}

/** What is wrong with paying `partKopecks` of the bill by a way capped at `capKopecks`; null when nothing is. */
export function partProblem(bill: PartsOfBill, partKopecks: Kopecks, capKopecks: Kopecks | null): PartProblem | null {
  const remaining = remainingOf(bill);
  if (partKopecks > remaining) return { kind: 'above-remaining', remainingKopecks: remaining };
  if (capKopecks !== null && partKopecks > capKopecks) return { kind: 'above-cap', capKopecks };
  if (partKopecks < leastPartOf(bill)) return { kind: 'below-minimum', leastKopecks: leastPartOf(bill) };
  return null;
}
