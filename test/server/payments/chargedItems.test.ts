import type { FiscalDefaults } from '../../../server/billing/fiscalCodes';
import { positionAmount, type BillPosition } from '../../../server/billing/items';
import { chargedPositions, FEE_POSITION_NAME, splitByLargestRemainder } from '../../../server/payments/chargedItems';

const defaults: FiscalDefaults = { vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'service' };

/** A small seeded generator (mulberry32): the same cases on every run, so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)), chance: (p: number) => next() < p };
}

const position = (quantityMilli: number, priceKopecks: number, name = 'Позиция'): BillPosition => ({
  name,
  quantityMilli,
  priceKopecks,
  amountKopecks: positionAmount(quantityMilli, priceKopecks),
  vat: 'none',
  paymentMethod: 'full_prepayment',
  paymentObject: 'commodity',
  measure: null,
});

const total = (amounts: readonly { amountKopecks: number }[]) => amounts.reduce((sum, p) => sum + p.amountKopecks, 0);

describe('splitting a discount by largest remainder', () => {
  test('shares add up to the discount and follow the amounts: the leftover kopeck goes to the largest remainder', () => {
    // 100 over 1:1:1 is 33.33 each: one kopeck left, to the first of equals.
    expect(splitByLargestRemainder([300, 300, 300], 100)).toEqual([34, 33, 33]);
    // 10 over 1:2 is 3.33 and 6.67: the second has the larger remainder.
    expect(splitByLargestRemainder([100, 200], 10)).toEqual([3, 7]);
    expect(splitByLargestRemainder([500, 700], 1200)).toEqual([500, 700]);
    expect(splitByLargestRemainder([500, 700], 0)).toEqual([0, 0]);
  });

  test('amounts of flats in kopecks do not lose precision (the product passes 2^53)', () => {
    const amounts = [9_999_999_999_99, 1_234_567_891_23];
    const shares = splitByLargestRemainder(amounts, 1_000_000_000_01);
    expect(shares[0]! + shares[1]!).toBe(1_000_000_000_01);
    shares.forEach((share, i) => expect(share).toBeLessThanOrEqual(amounts[i]!));
  });
});

describe('the positions of a payment as charged', () => {
  test('no points: the bill\'s positions at full price, then the fee as a position of its own', () => {
    const charged = chargedPositions([position(1000, 1_000_000, 'Квартира'), position(2500, 133_735, 'Кладовая')], 18_519, 0, defaults);
    expect(charged.map((p) => [p.name, p.billPosition, p.quantityMilli, p.priceKopecks, p.amountKopecks])).toEqual([
      ['Квартира', 1, 1000, 1_000_000, 1_000_000],
      ['Кладовая', 2, 2500, 133_735, 334_338],
      [FEE_POSITION_NAME, null, 1000, 18_519, 18_519],
    ]);
    expect(charged[2]).toMatchObject(defaults);
  });

  test('points lower the bill\'s positions first, in proportion; only what is left of them lowers the fee', () => {
    const [flat, storage] = chargedPositions([position(1000, 300_000), position(1000, 100_000)], 6_000, 1_000, defaults);
    // 100 000 kopecks off 3:1.
    expect([flat!.amountKopecks, storage!.amountKopecks]).toEqual([225_000, 75_000]);
    const all = chargedPositions([position(1000, 300_000), position(1000, 100_000)], 6_000, 4_030, defaults);
    // The bill's positions are covered whole and left off the receipt; 30 roubles come off the fee.
    expect(all.map((p) => [p.billPosition, p.amountKopecks])).toEqual([[null, 3_000]]);
  });

  test('a discounted position keeps its quantity; its price per unit is its new amount over it', () => {
    const [oil] = chargedPositions([position(1500, 100_000)], 0, 100, defaults);
    expect(oil).toMatchObject({ quantityMilli: 1500, amountKopecks: 140_000, priceKopecks: 93_333 });
  });

  test('points covering everything charge nothing: no position at all', () => {
    expect(chargedPositions([position(1000, 150_000)], 0, 1_500, defaults)).toEqual([]);
  });

  test('a discount above the price is refused, never a negative position', () => {
    expect(() => chargedPositions([position(1000, 10_000)], 0, 101, defaults)).toThrow(RangeError);
  });

  test('10 000 random bills, fees and points: the positions add up to the amount charged to the kopeck, none below zero, none above its price', () => {
    const { int, chance } = random(20260115);
    for (let run = 0; run < 10_000; run++) {
      const positions = Array.from({ length: int(1, 6) }, () => position(chance(0.3) ? int(1, 99_999) : int(1, 5) * 1000, int(1, chance(0.2) ? 10_000_000_000 : 2_000_000)));
      const sum = total(positions);
      const fee = chance(0.3) ? 0 : int(0, Math.ceil(sum * 0.02));
      const points = int(0, Math.floor((sum + fee) / 100));
      const charged = chargedPositions(positions, fee, points, defaults);
      const amount = sum + fee - points * 100;
      const context = `run ${run}: ${JSON.stringify({ amounts: positions.map((p) => p.amountKopecks), fee, points })}`;
      if (total(charged) !== amount) throw new Error(`${context}: positions add up to ${total(charged)}, not ${amount}`);
      for (const line of charged) {
        if (!(line.amountKopecks > 0)) throw new Error(`${context}: a position of ${line.amountKopecks}`);
        const full = line.billPosition === null ? fee : positions[line.billPosition - 1]!.amountKopecks;
        if (line.amountKopecks > full) throw new Error(`${context}: a position charged above its price`);
        // The per-unit price the receipt sends agrees with the amount to within half a kopeck per unit.
        const quantity = line.quantityMilli / 1000;
        if (Math.abs(line.priceKopecks * quantity - line.amountKopecks) > Math.max(1, quantity) / 2 + 1e-9) throw new Error(`${context}: price × quantity is not the amount`);
      }
      // The fee is lowered only once the bill's positions are covered whole.
      const feeLine = charged.find((line) => line.billPosition === null);
      if (fee > 0 && points * 100 < sum && feeLine?.amountKopecks !== fee) throw new Error(`${context}: the fee was lowered before the bill's positions`);
    }
  });
});
