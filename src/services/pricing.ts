import type { Bill, LoyaltyUser, PaymentType } from './types';

/**
 * The derived values of SPEC §3, the one place the page computes money. The bill data carries roubles with two
 * decimals (the wire's shape); everything here is integer kopecks, so 0.1 + 0.2 never shows up on a bill. One point
 * is one rouble, so points count as 100 kopecks each. test/server/pricing.test.ts proves the server computes the same
 * maximum points and final price.
 */
export type Kopecks = number;

/** Roubles as the wire carries them, in kopecks. */
export const kopecksOf = (roubles: number): Kopecks => Math.round(roubles * 100);

/** Kopecks for display (formatMoney takes roubles). */
export const roublesOf = (kopecks: Kopecks): number => kopecks / 100;

const POINT: Kopecks = 100;

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
  if (selected) return kopecksOf(selected.CommissionSumm);
  if (types.length === 0) return 0;
  return Math.min(...types.map((type) => kopecksOf(type.CommissionSumm)));
}

/**
 * Final price = sum + commission − used points, of the selected type (the lowest commission while none is). Below
 * zero only if used points exceed the maximum below, which clampPoints prevents; callers treat ≤ 0 as covered.
 */
export function finalPrice(bill: Bill, selected: PaymentType | null, usedPoints: number): Kopecks {
  return kopecksOf(bill.info.Summ) + commission(bill.cardTypes, selected) - usedPoints * POINT;
}

/**
 * Maximum spendable points = the smaller of useful points and (sum + commission), in whole points. The points
 * screen comes before a type is chosen, so it takes the lowest commission; a chosen type's can only be higher.
 */
export function maxSpendablePoints(bill: Bill, selected: PaymentType | null = null): number {
  const price = kopecksOf(bill.info.Summ) + commission(bill.cardTypes, selected);
  return Math.max(0, Math.min(Math.floor(bill.usefulPoints), Math.floor(price / POINT)));
}

/** What is left of the bill's sum after the points, before any fee: the first step's 'Сумма к оплате' (issue 17). */
export const sumAfterPoints = (bill: Bill, usedPoints: number): Kopecks => Math.max(0, kopecksOf(bill.info.Summ) - usedPoints * POINT);

/** Points pay the whole bill: some are used and nothing is left at the lowest commission (SPEC §2). */
export const isCoveredByPoints = (bill: Bill, usedPoints: number): boolean => usedPoints > 0 && finalPrice(bill, null, usedPoints) <= 0;

/** SPEC §6: points are usable only when enabled, useful points are above 0 and the bill has a customer number. */
export function canUsePoints(bill: Bill | null): boolean {
  return !!bill && bill.pointsEnabled && bill.usefulPoints > 0 && !!bill.info.CustNo;
}

/** Clamps a requested number of points to 0…maximum, in whole points (SPEC §5). */
export function clampPoints(requested: number, maximum: number): number {
  if (!Number.isFinite(requested)) return 0;
  return Math.min(Math.max(0, Math.floor(requested)), Math.max(0, maximum));
}
