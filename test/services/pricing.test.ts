import { canUsePoints, clampPoints, commission, emailUsed, finalPrice, isCoveredByPoints, maxSpendablePoints, phoneOf, sumAfterPoints } from '../../src/services/pricing';
import { aBill, aType, aUser, usualTypes } from '../fixtures/billBuilder';

describe('e-mail used', () => {
  const withAll = { anotherEmail: 'typed@example.ru', bill: aBill({ info: { Email: 'bill@example.ru' } }), user: aUser({ email: 'user@example.ru' }) };

  test('is empty when no e-mail is known anywhere', () => {
    expect(emailUsed({ emailError: false, anotherEmail: null, bill: aBill(), user: null })).toBe('');
    expect(emailUsed({ emailError: false, anotherEmail: null, bill: null, user: aUser({ email: null }) })).toBe('');
  });

  test('is empty when the server refused the e-mail, whatever else is known', () => {
    expect(emailUsed({ ...withAll, emailError: true })).toBe('');
  });

  test('prefers the typed e-mail, then the bill e-mail, then the loyalty e-mail', () => {
    expect(emailUsed({ ...withAll, emailError: false })).toBe('typed@example.ru');
    expect(emailUsed({ ...withAll, emailError: false, anotherEmail: null })).toBe('bill@example.ru');
    expect(emailUsed({ ...withAll, emailError: false, anotherEmail: '', bill: aBill() })).toBe('user@example.ru');
  });
});

test('phone: the bill user phone, else the loyalty phone, else empty', () => {
  expect(phoneOf(aBill({ user: { Phone: '79990000001' } }), aUser())).toBe('79990000001');
  expect(phoneOf(aBill(), aUser({ phone: '79990000002' }))).toBe('79990000002');
  expect(phoneOf(null, null)).toBe('');
});

describe('commission, in kopecks', () => {
  test("is the chosen type's CommissionSumm, even when it is above the minimum", () => {
    expect(commission(usualTypes(), usualTypes()[0])).toBe(18_519);
    expect(commission(usualTypes(), usualTypes()[1])).toBe(0);
  });

  test('is the lowest of all types when no type is chosen', () => {
    expect(commission(usualTypes(), null)).toBe(0);
    expect(commission([aType({ CommissionSumm: 61.73 }), aType({ CommissionSumm: 185.19 })], undefined)).toBe(6_173);
  });

  test('is 0 when the bill has no payment types', () => {
    expect(commission([], null)).toBe(0);
  });
});

const billOf = (sum: number, commissions: number[], usefulPoints = 0) =>
  aBill({ info: { Summ: sum }, usefulPoints, cardTypes: commissions.map((fee, i) => aType({ OID: `type-${i}`, CommissionSumm: fee })) });

describe('final price = sum + commission − used points, in kopecks', () => {
  test('adds in kopecks, so no binary fractions show', () => {
    expect(finalPrice(billOf(0.1, [0.2]), null, 0)).toBe(30);
    expect(finalPrice(aBill(), usualTypes()[0]!, 0)).toBe(1_253_086);
    expect(finalPrice(billOf(8000, [120]), null, 3000)).toBe(512_000);
  });

  test("takes the chosen type's commission, else the lowest", () => {
    const bill = billOf(100.5, [2.25, 0.75]);
    expect(finalPrice(bill, null, 0)).toBe(10_125);
    expect(finalPrice(bill, bill.cardTypes[0]!, 0)).toBe(10_275);
  });

  test('is exactly 0 when points cover it', () => {
    expect(finalPrice(billOf(1500, [0]), null, 1500)).toBe(0);
    expect(isCoveredByPoints(billOf(1500, [0]), 1500)).toBe(true);
    expect(isCoveredByPoints(billOf(1500, [0]), 1499)).toBe(false);
    expect(isCoveredByPoints(billOf(0, []), 0)).toBe(false);
  });
});

describe('maximum spendable points', () => {
  test('is the smaller of useful points and sum + commission, in whole points', () => {
    expect(maxSpendablePoints(billOf(8000, [120, 0], 3000))).toBe(3000);
    expect(maxSpendablePoints(billOf(1500, [0], 5000))).toBe(1500);
    expect(maxSpendablePoints(billOf(1500.99, [0.5], 5000))).toBe(1501);
    // A chosen type's commission counts instead of the lowest.
    expect(maxSpendablePoints(billOf(1500, [0, 10], 5000), aType({ CommissionSumm: 10 }))).toBe(1510);
  });

  test('is never below 0 and never a fraction of a point', () => {
    expect(maxSpendablePoints(billOf(1500, [0], 0))).toBe(0);
    expect(maxSpendablePoints(billOf(1500, [0], -10))).toBe(0);
    expect(maxSpendablePoints(billOf(1500, [0], 0.5))).toBe(0);
    expect(maxSpendablePoints(billOf(0.99, [0], 10))).toBe(0);
  });

  test('so points clamped to it never take the final price below zero, whatever type is chosen', () => {
    const bills = [billOf(0.1, [0.2, 0.05], 9), billOf(1500.99, [0.5, 22.51], 5000), billOf(100, [], 500), aBill({ usefulPoints: 99_999 })];
    for (const bill of bills) {
      const points = clampPoints(Number.MAX_SAFE_INTEGER, maxSpendablePoints(bill));
      for (const type of [null, ...bill.cardTypes]) expect(finalPrice(bill, type, points)).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('points can be used', () => {
  const usable = aBill({ pointsEnabled: true, usefulPoints: 3000, info: { CustNo: 'C-1001' } });
  test('only with points enabled, useful points above 0 and a customer number', () => {
    expect(canUsePoints(usable)).toBe(true);
    expect(canUsePoints({ ...usable, pointsEnabled: false })).toBe(false);
    expect(canUsePoints({ ...usable, usefulPoints: 0 })).toBe(false);
    expect(canUsePoints({ ...usable, info: { ...usable.info, CustNo: null } })).toBe(false);
    expect(canUsePoints({ ...usable, info: { ...usable.info, CustNo: '' } })).toBe(false);
    expect(canUsePoints(null)).toBe(false);
  });
  test('on a bill in parts, only until a part has spent them (points go to one part only)', () => {
    const parts = { minimum: 1000, paid: 1000, remaining: 2000, pointsSpent: false };
    expect(canUsePoints({ ...usable, parts })).toBe(true);
    expect(canUsePoints({ ...usable, parts: { ...parts, pointsSpent: true } })).toBe(false);
  });
});

describe('clamping requested points', () => {
  test('points above the maximum become the maximum', () => {
    expect(clampPoints(5000, 3000)).toBe(3000);
  });
  test('negative, fractional and non-numbers are brought into 0…maximum', () => {
    expect(clampPoints(-5, 3000)).toBe(0);
    expect(clampPoints(10.9, 3000)).toBe(10);
    expect(clampPoints(Number.NaN, 3000)).toBe(0);
    expect(clampPoints(Number.POSITIVE_INFINITY, 3000)).toBe(0);
    expect(clampPoints(10, -1)).toBe(0);
    expect(clampPoints(3000, 3000)).toBe(3000);
  });
});

describe("the first step's sum after points", () => {
  test('the sum less the points, in kopecks, never below zero', () => {
    const bill = aBill({ info: { Summ: 8000.1 } });
    expect(sumAfterPoints(bill, 0)).toBe(800_010);
    expect(sumAfterPoints(bill, 3000)).toBe(500_010);
    expect(sumAfterPoints(bill, 9000)).toBe(0);
  });
});
