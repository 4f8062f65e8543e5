import { capturedItems } from '../../../server/payments/holds';
import type { AttemptItemRow } from '../../../server/payments/tables';

const item = (position: number, amount: number, quantityMilli = 1000): AttemptItemRow => ({
  order_id: 'order',
  position_id: position,
  bill_position: position,
  name: `Позиция ${position}`,
  quantity_milli: quantityMilli,
  price_kopecks: Math.round((amount * 1000) / quantityMilli),
  amount_kopecks: amount,
  vat: 'none',
  payment_method: 'full_prepayment',
  payment_object: 'service',
  measure: null,
});

const total = (items: AttemptItemRow[]) => items.reduce((sum, one) => sum + one.amount_kopecks, 0);

test('a partial capture lowers each position by its share of what is let go, adding up to the capture exactly', () => {
  const items = [item(1, 10_000_000), item(2, 4_999_999), item(3, 1)];
  const taken = capturedItems(items, 10_000_000);
  expect(total(taken)).toBe(10_000_000);
  // In proportion: two thirds of each, the kopeck of rounding to the largest remainder (between equals, the first).
  expect(taken.map((one) => [one.position_id, one.bill_position, one.amount_kopecks])).toEqual([
    [1, 1, 6_666_666],
    [2, 2, 3_333_333],
    [3, 3, 1],
  ]);
  // A position lowered to nothing is left off and the rest numbered again (the receipt's positionId 1, 2, …).
  const lowered = capturedItems([item(1, 100), item(2, 1), item(3, 100)], 100);
  expect(lowered.map((one) => [one.position_id, one.bill_position, one.amount_kopecks])).toEqual([
    [1, 1, 50],
    [2, 3, 50],
  ]);
});

test('a capture of the whole keeps the positions as held; a unit price follows the lowered amount', () => {
  const items = [item(1, 300_000, 3000), item(2, 100_000)];
  expect(capturedItems(items, 400_000)).toEqual(items);
  const taken = capturedItems(items, 200_000);
  expect(taken.map((one) => [one.amount_kopecks, one.price_kopecks])).toEqual([
    [150_000, 50_000],
    [50_000, 50_000],
  ]);
});
