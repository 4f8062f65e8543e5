import { toRoubles } from '../../../server/platform/money';
import { kopecksOf } from '../../../src/services/rules/pricing';

/**
 * The page and the server price a payment by the same rules (src/services/rules/pricing.ts); what stands between them
 * is the wire, where money travels as roubles with two decimals. Every amount the server sends must read back on the
 * page as the same kopecks, or the page would show one price and the server charge another.
 */
describe('money on the wire', () => {
  const tricky = [0, 1, 7, 10, 29, 57, 99, 101, 1_005, 1_234_567, 150_099, 333_333, 80_000_000, 999_999_999, 2 ** 41 + 3];

  test.each(tricky)('%i kopecks read back as themselves', (kopecks) => {
    expect(kopecksOf(toRoubles(kopecks))).toBe(kopecks);
  });

  test('every amount up to a million roubles in steps that touch each kopeck ending reads back as itself', () => {
    for (let kopecks = 0; kopecks <= 100_000_000; kopecks += 9_973) expect(kopecksOf(toRoubles(kopecks))).toBe(kopecks);
    for (let kopecks = 0; kopecks < 10_000; kopecks += 1) expect(kopecksOf(toRoubles(kopecks))).toBe(kopecks);
  });
});
