import type { Bill, LoyaltyUser, PaymentType } from './types';

/**
 * The derived values of SPEC §3 as pure functions. Amounts are roubles as the bill data carries them; sums are
 * computed in kopecks so that 0.1 + 0.2 never shows up on a bill.
 */

const kopecks = (roubles: number) => Math.round(roubles * 100);
const roubles = (k: number) => k / 100;

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
export function commission(types: readonly PaymentType[], selected: PaymentType | null | undefined): number {
  if (selected) return selected.CommissionSumm;
  if (types.length === 0) return 0;
  return roubles(Math.min(...types.map((type) => kopecks(type.CommissionSumm))));
}

/** Final price = sum + commission − used points (one point is one rouble). May be below zero: callers guard. */
export function finalPrice(sum: number, commissionSum: number, usedPoints: number): number {
  return roubles(kopecks(sum) + kopecks(commissionSum) - kopecks(usedPoints));
}

/** Maximum spendable points = the smaller of useful points and (sum + commission), in whole points. */
export function maxSpendablePoints(usefulPoints: number, sum: number, commissionSum: number): number {
  return Math.max(0, Math.floor(Math.min(usefulPoints, roubles(kopecks(sum) + kopecks(commissionSum)))));
}

/** SPEC §6: points are usable only when enabled, useful points are above 0 and the bill has a customer number. */
export function canUsePoints(bill: Bill | null): boolean {
  return !!bill && bill.pointsEnabled && bill.usefulPoints > 0 && !!bill.info.CustNo;
}

/** Clamps a requested number of points to 0…maximum (SPEC §5). */
export function clampPoints(requested: number, maximum: number): number {
  if (!Number.isFinite(requested)) return 0;
  return Math.min(Math.max(0, Math.floor(requested)), Math.max(0, maximum));
}
