import { canUsePoints, clampPoints, commission, emailUsed, finalPrice, maxSpendablePoints, phoneOf } from '../../src/services/pricing';
import { aBill, aType, aUser, usualTypes } from '../fixtures/billBuilder';

describe('e-mail used (SPEC §3)', () => {
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

describe('commission', () => {
  test("is the chosen type's CommissionSumm, even when it is above the minimum", () => {
    expect(commission(usualTypes(), usualTypes()[0])).toBe(185.19);
    expect(commission(usualTypes(), usualTypes()[1])).toBe(0);
  });

  test('is the lowest of all types when no type is chosen', () => {
    expect(commission(usualTypes(), null)).toBe(0);
    expect(commission([aType({ CommissionSumm: 61.73 }), aType({ CommissionSumm: 185.19 })], undefined)).toBe(61.73);
  });

  test('is 0 when the bill has no payment types', () => {
    expect(commission([], null)).toBe(0);
  });
});

describe('final price = sum + commission − used points', () => {
  test('adds in kopecks, so no binary fractions show', () => {
    expect(finalPrice(0.1, 0.2, 0)).toBe(0.3);
    expect(finalPrice(12345.67, 185.19, 0)).toBe(12530.86);
    expect(finalPrice(8000, 120, 3000)).toBe(5120);
  });

  test('is exactly 0 when points cover it, and below 0 when points exceed it (callers guard)', () => {
    expect(finalPrice(1500, 0, 1500)).toBe(0);
    expect(finalPrice(1500, 0, 5000)).toBe(-3500);
    expect(finalPrice(100.5, 0, 101)).toBe(-0.5);
  });
});

describe('maximum spendable points', () => {
  test('is the smaller of useful points and sum + commission, in whole points', () => {
    expect(maxSpendablePoints(3000, 8000, 120)).toBe(3000);
    expect(maxSpendablePoints(5000, 1500, 0)).toBe(1500);
    expect(maxSpendablePoints(5000, 1500.99, 0.5)).toBe(1501);
  });

  test('is never below 0', () => {
    expect(maxSpendablePoints(0, 1500, 0)).toBe(0);
    expect(maxSpendablePoints(-10, 1500, 0)).toBe(0);
  });
});

describe('points can be used (SPEC §6)', () => {
  const usable = aBill({ pointsEnabled: true, usefulPoints: 3000, info: { CustNo: 'C-1001' } });
  test('only with points enabled, useful points above 0 and a customer number', () => {
    expect(canUsePoints(usable)).toBe(true);
    expect(canUsePoints({ ...usable, pointsEnabled: false })).toBe(false);
    expect(canUsePoints({ ...usable, usefulPoints: 0 })).toBe(false);
    expect(canUsePoints({ ...usable, info: { ...usable.info, CustNo: null } })).toBe(false);
    expect(canUsePoints({ ...usable, info: { ...usable.info, CustNo: '' } })).toBe(false);
    expect(canUsePoints(null)).toBe(false);
  });
});

describe('clamping requested points (SPEC §5)', () => {
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
