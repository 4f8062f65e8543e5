/**
 * The money rules the page shows and the server charges by, in integer kopecks so that 0.1 + 0.2 never shows up on a
 * bill. Pure arithmetic over amounts: the page feeds it the bill data (roubles on the wire, converted with
 * `kopecksOf`), the server its rows (kopecks already).
 */
export type Kopecks = number;

/** One loyalty point pays one rouble. */
export const POINT: Kopecks = 100;

/** Roubles with two decimals, as the wire carries them, in kopecks. */
export const kopecksOf = (roubles: number): Kopecks => Math.round(roubles * 100);

/** Kopecks in roubles, for showing. */
export const roublesOf = (kopecks: Kopecks): number => kopecks / 100;

/**
 * The fee of a payment: the chosen way to pay's; while none is chosen (and for a payment points alone close), the
 * lowest of the bill's; 0 when the bill offers none.
 */
export function commissionOf(fees: readonly Kopecks[], chosen: Kopecks | null | undefined): Kopecks {
  if (chosen !== null && chosen !== undefined) return chosen;
  return fees.length > 0 ? Math.min(...fees) : 0;
}

/** What is left to pay in money: the sum and the fee, less the points used. Zero or less: the points close the bill. */
export const amountDue = (sum: Kopecks, commission: Kopecks, points: number): Kopecks => sum + commission - points * POINT;

/** What a payer is shown to pay: the amount due, never below zero (points closing the bill leave nothing to pay). */
export const amountToPay = (due: Kopecks): Kopecks => Math.max(0, due);

/** The most points a payment may spend: the smaller of the useful points and the price (sum and fee), in whole points. */
export const maxSpendablePoints = (usefulPoints: number, sum: Kopecks, commission: Kopecks): number =>
  Math.max(0, Math.min(Math.floor(usefulPoints), Math.floor((sum + commission) / POINT)));

/** A requested number of points cut to whole points between 0 and the maximum (what cannot be a number is 0). */
export function clampPoints(requested: number, maximum: number): number {
  if (!Number.isFinite(requested)) return 0;
  return Math.min(Math.max(0, Math.floor(requested)), Math.max(0, maximum));
}
