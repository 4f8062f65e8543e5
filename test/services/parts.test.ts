import { capText, paidText, partProblemText, remainingText } from '../../src/services/partsWords';
import { defaultPartOf, typedPartOf, leastPartOf, partProblem, remainingOf, wayCanPay } from '../../src/services/rules/parts';

/** The rules of paying a bill in parts, in kopecks: a 2 500 000.00 bill in parts of at least 100 000.00. */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');
const bill = (paidKopecks: number, minimumKopecks: number | null = 10_000_000) => ({ amountKopecks: 250_000_000, paidKopecks, minimumKopecks });
const SBP_CAP = 100_000_000;

test('the default part is what remains, or the way\'s cap when lower', () => {
  expect(defaultPartOf(bill(0), SBP_CAP)).toBe(SBP_CAP);
  expect(defaultPartOf(bill(0), null)).toBe(250_000_000);
  expect(defaultPartOf(bill(200_000_000), SBP_CAP)).toBe(50_000_000);
});

test('the least part is the minimum, or what remains when less; a bill without parts takes the whole', () => {
  expect(leastPartOf(bill(0))).toBe(10_000_000);
  expect(leastPartOf(bill(245_000_000))).toBe(5_000_000);
  expect(leastPartOf(bill(0, null))).toBe(250_000_000);
  expect(remainingOf(bill(300_000_000))).toBe(0);
});

test('a part below the minimum, above what remains or above the cap is refused in the payer\'s words', () => {
  expect(partProblem(bill(0), 10_000_000, SBP_CAP)).toBeNull();
  expect(plain(partProblemText(partProblem(bill(0), 9_999_999, null)!, 'ALL'))).toBe('Не меньше 100 000,00 руб.');
  expect(plain(partProblemText(partProblem(bill(0), 100_000_001, SBP_CAP)!, 'SBP'))).toBe('Через СБП — не больше 1 000 000,00 руб. за один платеж');
  expect(plain(partProblemText(partProblem(bill(100_000_000), 150_000_001, null)!, 'ALL'))).toBe('Не больше, чем осталось оплатить: 1 500 000,00 руб.');
});

test('a way capped below the whole cannot pay a bill without parts; with parts it can pay a part', () => {
  expect(wayCanPay(bill(0, null), SBP_CAP)).toBe(false);
  expect(wayCanPay(bill(0), SBP_CAP)).toBe(true);
  expect(wayCanPay(bill(0), 5_000_000)).toBe(false);
  expect(plain(capText('SBP', SBP_CAP))).toBe('Через СБП — не больше 1 000 000,00 руб. за один платеж');
});

test('the progress in the payer\'s words', () => {
  expect(plain(paidText(bill(100_000_000)))).toBe('Оплачено 1 000 000,00 из 2 500 000,00 руб.');
  expect(plain(remainingText(bill(100_000_000)))).toBe('Осталось оплатить 1 500 000,00 руб.');
});

test("'Сумма платежа' as typed: roubles with a comma or a point and up to two decimals, grouped by spaces; anything else is no sum", () => {
  expect(typedPartOf('700 000,50')).toBe(70_000_050);
  expect(typedPartOf('1\u00a0000\u00a0000')).toBe(100_000_000);
  expect(typedPartOf('12.5')).toBe(1250);
  expect(typedPartOf('12,5x')).toBeNull();
  expect(typedPartOf('12,505')).toBeNull();
  expect(typedPartOf('')).toBeNull();
  expect(typedPartOf('-5')).toBeNull();
});
