/**
 * What each position of a payment is charged: the bill's positions, then the service fee as a position of its own,
 * less the points spent. A discount is no position of the fiscal receipt: it lowers the positions' amounts, the bill's
 * positions first (in proportion to their amounts, the kopecks left over by rounding down going one each to the largest
 * remainders), then the fee. So the positions add up to what the payer is charged exactly, none below zero.
 */
import type { FiscalDefaults } from '../billing/fiscalCodes';
import { ITEM_NAME_MAX, positionAmount, type BillPosition } from '../billing/items';
import { POINT } from '../../src/services/rules/pricing';

/** The fee's name on the receipt. */
export const FEE_POSITION_NAME = 'Сервисный сбор';

/** A position as charged: its place among the bill's positions (null: the fee), its amount after the discount. */
export interface ChargedPosition extends BillPosition {
  billPosition: number | null;
}

/**
 * Splits `discount` kopecks over `amounts` in proportion, by largest remainder: the shares add up to the discount
 * exactly, and none exceeds its amount (the discount must not exceed their total).
 */
export function splitByLargestRemainder(amounts: readonly number[], discount: number): number[] {
  const total = amounts.reduce((sum, amount) => sum + amount, 0);
  if (discount === 0 || total === 0) return amounts.map(() => 0);
  // BigInt: an amount times the discount may pass 2^53 (a flat's price in kopecks, squared).
  const shares = amounts.map((amount, index) => {
    const exact = BigInt(amount) * BigInt(discount);
    return { index, share: Number(exact / BigInt(total)), remainder: exact % BigInt(total) };
  });
  let left = discount - shares.reduce((sum, s) => sum + s.share, 0);
  // Largest remainder first; between equals, the earlier position.
  const order = [...shares].sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const s of order) {
    if (left === 0) break;
    s.share += 1;
    left -= 1;
  }
  return shares.map((s) => s.share);
}

/**
 * The bill's positions allocated to a part of it (by share, so that they add up to the part to the kopeck, by the
 * largest remainder), each a partial prepayment; the positions themselves when the part is the whole bill.
 */
export function positionsOfPart(positions: readonly BillPosition[], partKopecks: number): BillPosition[] {
  const total = positions.reduce((sum, position) => sum + position.amountKopecks, 0);
  if (partKopecks >= total) return [...positions];
  const cut = splitByLargestRemainder(
    positions.map((position) => position.amountKopecks),
    total - partKopecks,
  );
  return positions.map((position, i) => ({ ...position, amountKopecks: position.amountKopecks - cut[i]!, paymentMethod: 'prepayment' as const }));
}

/**
 * The positions of a payment as charged: the bill's positions, then the fee (above zero only), each lowered by its part
 * of the points; the amounts add up to sum + fee − points. Answers [] when points cover everything (nothing is charged).
 */
export function chargedPositions(positions: readonly BillPosition[], feeKopecks: number, points: number, defaults: FiscalDefaults): ChargedPosition[] {
  const billTotal = positions.reduce((sum, position) => sum + position.amountKopecks, 0);
  const discount = points * POINT;
  if (discount < 0 || discount > billTotal + feeKopecks) throw new RangeError(`a discount of ${discount} kopecks exceeds the price ${billTotal + feeKopecks}`);
  const billDiscount = Math.min(discount, billTotal);
  const billShares = splitByLargestRemainder(
    positions.map((position) => position.amountKopecks),
    billDiscount,
  );
  const charged: ChargedPosition[] = positions.map((position, i) => ({ ...position, billPosition: i + 1, amountKopecks: position.amountKopecks - billShares[i]! }));
  if (feeKopecks > 0) {
    const fee = feeKopecks - (discount - billDiscount);
    charged.push({
      name: FEE_POSITION_NAME.slice(0, ITEM_NAME_MAX),
      quantityMilli: 1000,
      priceKopecks: feeKopecks,
      amountKopecks: fee,
      ...defaults,
      measure: null,
      billPosition: null,
    });
  }
  // A position the points covered whole is charged nothing and is left off the receipt.
  return charged.filter((position) => position.amountKopecks > 0).map(withUnitPrice);
}

/**
 * A discounted position's price per unit is its new amount over its quantity (to the kopeck); an undiscounted one keeps
 * its price. The amount stays exact: it is what the receipt's positions add up by.
 */
function withUnitPrice(position: ChargedPosition): ChargedPosition {
  if (position.amountKopecks === positionAmount(position.quantityMilli, position.priceKopecks)) return position;
  const priceKopecks = Math.round((position.amountKopecks * 1000) / position.quantityMilli);
  return { ...position, priceKopecks };
}
