import { itemProblems, positionAmount, positionsOf, quantityMilliOf, type BillItemInput } from '../../../server/billing/items';

const item = (extra: Partial<BillItemInput> = {}): BillItemInput => ({
  name: 'Кладовая', quantityMilli: 1000, priceKopecks: 10_000, vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity', measure: null, ...extra,
});

test('a position\'s amount is quantity × price to the kopeck, half a kopeck up, with no float in between', () => {
  expect(positionAmount(2500, 133_735)).toBe(334_338); // 3 343.375 → 3 343.38
  expect(positionAmount(1, 1)).toBe(0);
  expect(positionAmount(500, 1)).toBe(1);
  // The product passes 2^53 before the division: exact all the same.
  expect(positionAmount(99_999_999, 90_000_000_001)).toBe(8_999_999_910_100_000);
  expect([quantityMilliOf(2.5), quantityMilliOf(0.001), quantityMilliOf(1.0005), quantityMilliOf(Number.NaN)]).toEqual([2500, 1, undefined, undefined]);
});

test('the positions\' problems, each by field; the sum checked against the bill\'s once they are valid', () => {
  expect(itemProblems([item(), item({ quantityMilli: 2000 })], 30_000)).toEqual([]);
  expect(itemProblems([item(), item()], 30_000)).toEqual([{ field: 'items', message: 'the positions (quantity × price) add up to 200.00, not to amount.value 300.00' }]);
  expect(itemProblems([item({ name: ' ' }), item({ priceKopecks: 0, vat: 'vat18' as never, measure: 'box' as never })], 30_000).map((p) => p.field)).toEqual([
    'items[0].name',
    'items[1].price.value',
    'items[1].vat',
    'items[1].measure',
  ]);
  expect(itemProblems([], 0)[0]!.field).toBe('items');
});

test('a bill without positions has one: its purpose (cut to the receipt\'s 100 characters), once, for the sum, with the defaults', () => {
  const [only] = positionsOf({ purpose: `  ${'Долевой взнос '.repeat(10)}`, sum_kopecks: 1_234_567 }, [], { vat: 'vat22', paymentMethod: 'advance', paymentObject: 'payment' });
  expect(only).toEqual({
    name: 'Долевой взнос '.repeat(10).trim().slice(0, 100),
    quantityMilli: 1000,
    priceKopecks: 1_234_567,
    amountKopecks: 1_234_567,
    vat: 'vat22',
    paymentMethod: 'advance',
    paymentObject: 'payment',
    measure: null,
  });
  expect(only!.name).toHaveLength(100);
});
