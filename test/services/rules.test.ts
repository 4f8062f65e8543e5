import { codePurposes } from '../../src/services/rules/codePurposes';
import { isTextLine, isTextLines } from '../../src/services/rules/freeText';
import { bankAppWidgetOf, paymentKindOf, paymentTypeCodes } from '../../src/services/rules/paymentKinds';
import { isPhone, PHONE_PATTERN } from '../../src/services/rules/phone';
import { amountDue, amountToPay, clampPoints, commissionOf, maxSpendablePoints } from '../../src/services/rules/pricing';

describe('the phone', () => {
  test('11 digits starting with 79, as the server\'s schemas write it', () => {
    expect(PHONE_PATTERN).toBe('^79[0-9]{9}$');
    expect(isPhone('79990000001')).toBe(true);
    for (const wrong of ['89990000001', '7999000000', '799900000011', '+79990000001', '7999000000a']) expect(isPhone(wrong)).toBe(false);
  });
});

describe('free text', () => {
  test('any character people write, both halves of one outside the basic plane included', () => {
    for (const text of ['', 'Оплата по договору № 17 «Север»', "O'Brien-Smith", 'Ω ≈ 😀 𝔘', '\u00a0\u200d']) {
      expect([text, isTextLine(text), isTextLines(text)]).toEqual([text, true, true]);
    }
  });

  test('no C0 control character, DEL or half a character anywhere; tab and line feed only where lines are allowed', () => {
    const never = [...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).filter((c) => c !== '\t' && c !== '\n'), '\u007f', '\ud800', '\udbff', '\udc00', '\udfff', '😀'.slice(0, 1), '😀'.slice(1)];
    for (const c of never) expect([c.charCodeAt(0), isTextLine(`a${c}b`), isTextLines(`a${c}b`)]).toEqual([c.charCodeAt(0), false, false]);
    for (const c of ['\t', '\n']) expect([c, isTextLine(`a${c}b`), isTextLines(`a${c}b`)]).toEqual([c, false, true]);
    for (const c of ['\u0085', '\u2028', '\u2029']) expect([c, isTextLine(`a${c}b`), isTextLines(`a${c}b`)]).toEqual([c, false, true]);
  });
});

describe('the ways to pay', () => {
  test('each code has its kind: a form the browser goes to, fast payment, or bank-app pay', () => {
    expect(Object.fromEntries(paymentTypeCodes.map((code) => [code, paymentKindOf(code)]))).toEqual({
      ALL: 'redirect',
      AllSberP: 'redirect',
      SBP: 'fast payment',
      SberPaySite: 'bank-app pay',
      SberPaySiteP: 'bank-app pay',
    });
  });

  test("bank-app pay's SberPaySiteP opens the bank's general widget, SberPaySite its own", () => {
    expect(bankAppWidgetOf('SberPaySiteP')).toBe('general');
    expect(bankAppWidgetOf('SberPaySite')).toBe('bankAppPay');
  });
});

test('the code purposes', () => {
  expect([...codePurposes].sort()).toEqual(['forgot-password', 'register', 'use-points']);
});

describe('pricing in kopecks', () => {
  test('the fee: the chosen way’s, else the lowest, else none', () => {
    expect(commissionOf([300, 100], 300)).toBe(300);
    expect(commissionOf([300, 100], 0)).toBe(0);
    expect(commissionOf([300, 100], null)).toBe(100);
    expect(commissionOf([], undefined)).toBe(0);
  });

  test('the amount due and the amount shown, never below zero', () => {
    expect(amountDue(150_000, 2_250, 1_000)).toBe(52_250);
    expect(amountDue(10, 20, 1)).toBe(-70);
    expect(amountToPay(-70)).toBe(0);
    expect(amountToPay(52_250)).toBe(52_250);
  });

  test('the most points: the smaller of the useful points and the price, in whole points', () => {
    expect(maxSpendablePoints(3000, 800_000, 12_000)).toBe(3000);
    expect(maxSpendablePoints(5000, 150_099, 50)).toBe(1501);
    expect(maxSpendablePoints(10.7, 100_000, 0)).toBe(10);
    expect(maxSpendablePoints(-5, 100_000, 0)).toBe(0);
  });

  test('points asked for are cut to whole points between 0 and the maximum', () => {
    expect(clampPoints(12.9, 10)).toBe(10);
    expect(clampPoints(7.9, 10)).toBe(7);
    expect(clampPoints(-3, 10)).toBe(0);
    expect(clampPoints(Number.NaN, 10)).toBe(0);
    expect(clampPoints(5, -1)).toBe(0);
  });
});
