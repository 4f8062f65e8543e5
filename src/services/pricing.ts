import { defaultPartOf, type PartsOfBill } from './rules/parts';
import * as rules from './rules/pricing';
import { kopecksOf, type Kopecks } from './rules/pricing';
import type { Bill, LoyaltyUser, PaymentType } from './types';

/**
 * The money of one bill as the page shows it, from the bill data: every amount is read in kopecks and computed by the
 * rules the server charges by (rules/pricing.ts). One point is one rouble.
 */
export { clampPoints, kopecksOf, roublesOf, type Kopecks } from './rules/pricing';

/** A bill with parts as the parts' rules read it (kopecks); null for a bill paid by one payment of the whole. */
export const partsOf = (bill: Bill): PartsOfBill | null =>
  bill.parts ? { amountKopecks: kopecksOf(bill.info.Summ), paidKopecks: kopecksOf(bill.parts.paid), minimumKopecks: kopecksOf(bill.parts.minimum) } : null;

/** The way's cap on one payment, kopecks; null: none. */
export const capOf = (type: PaymentType | null | undefined): Kopecks | null => (type?.Maximum == null ? null : kopecksOf(type.Maximum));

/**
 * What this payment pays of the bill: the whole sum, or of a bill with parts the part the payer typed, else what
 * remains or the chosen way's cap when that is lower (what the server charges when the page names no part).
 */
export function sumOf(bill: Bill, selected: PaymentType | null = null, typedPart: Kopecks | null = null): Kopecks {
  const parts = partsOf(bill);
  if (!parts) return kopecksOf(bill.info.Summ);
  return typedPart ?? defaultPartOf(parts, capOf(selected));
}

/** E-mail used: empty when emailError is set, otherwise anotherEmail, else the bill e-mail, else the loyalty e-mail. */
export function emailUsed(input: { emailError: boolean; anotherEmail: string | null; bill: Bill | null; user: LoyaltyUser | null }): string {
  if (input.emailError) return '';
  return input.anotherEmail || input.bill?.info.Email || input.user?.email || '';
}

/** Phone: the bill user's phone, else the loyalty phone. */
export function phoneOf(bill: Bill | null, user: LoyaltyUser | null): string {
  return bill?.user.Phone || user?.phone || '';
}

/** Commission: the selected type's CommissionSumm, else the lowest among all types (0 when there are none). */
export function commission(types: readonly PaymentType[], selected: PaymentType | null | undefined): Kopecks {
  return rules.commissionOf(
    types.map((type) => kopecksOf(type.CommissionSumm)),
    selected ? kopecksOf(selected.CommissionSumm) : null,
  );
}

/**
 * Final price = sum + commission − used points, of the selected type (the lowest commission while none is). Below
 * zero only if used points exceed the maximum below, which clampPoints prevents; callers treat ≤ 0 as covered.
 */
export function finalPrice(bill: Bill, selected: PaymentType | null, usedPoints: number, typedPart: Kopecks | null = null): Kopecks {
  return rules.amountDue(sumOf(bill, selected, typedPart), commission(bill.cardTypes, selected), usedPoints);
}

/** What the payer is shown to pay in money: the final price, never below zero. */
export const amountToPay = (bill: Bill, selected: PaymentType | null, usedPoints: number, typedPart: Kopecks | null = null): Kopecks =>
  rules.amountToPay(finalPrice(bill, selected, usedPoints, typedPart));

/**
 * Maximum spendable points = the smaller of useful points and (sum + commission), in whole points. The points
 * screen comes before a type is chosen, so it takes the lowest commission; a chosen type's can only be higher.
 */
export function maxSpendablePoints(bill: Bill, selected: PaymentType | null = null, typedPart: Kopecks | null = null): number {
  return rules.maxSpendablePoints(bill.usefulPoints, sumOf(bill, selected, typedPart), commission(bill.cardTypes, selected));
}

/** What is left of the bill's sum after the points, before any fee: the first step's 'Сумма к оплате'. */
export const sumAfterPoints = (bill: Bill, usedPoints: number): Kopecks => rules.amountToPay(rules.amountDue(sumOf(bill), 0, usedPoints));

/** Points pay the whole bill: some are used and nothing is left at the lowest commission. */
export const isCoveredByPoints = (bill: Bill, usedPoints: number): boolean => usedPoints > 0 && finalPrice(bill, null, usedPoints) <= 0;

/** Points are usable only when enabled, useful points are above 0 and the bill has a customer number. */
export function canUsePoints(bill: Bill | null): boolean {
  // Points go to one part of a bill only: the first the payer pays with them.
  return !!bill && bill.pointsEnabled && bill.usefulPoints > 0 && !!bill.info.CustNo && !bill.parts?.pointsSpent;
}
