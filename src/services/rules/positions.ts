/**
 * A bill position's arithmetic, the one rule the server's bills and the desk's new-bill form both compute by: quantities
 * in thousandths (three decimals, as the receipt prints them) and a position's total, quantity × price to the kopeck.
 */

/** Quantities are kept in thousandths: up to three decimals, as the receipt prints them. */
export const QUANTITY_SCALE = 1000;

/** A quantity of up to three decimals in thousandths; undefined when it has more decimals or is not a number. */
export function quantityMilliOf(quantity: number): number | undefined {
  if (!Number.isFinite(quantity)) return undefined;
  const milli = Math.round(quantity * QUANTITY_SCALE);
  return Math.abs(milli - quantity * QUANTITY_SCALE) < 1e-6 ? milli : undefined;
}

/** Quantity × price in kopecks, half a kopeck up, computed exactly (no float in between). */
export function positionAmount(quantityMilli: number, priceKopecks: number): number {
  const scaled = BigInt(quantityMilli) * BigInt(priceKopecks);
  const scale = BigInt(QUANTITY_SCALE);
  return Number((scaled * 2n + scale) / (2n * scale));
}
