/**
 * The desk says the server's refusals in Russian: every message the one validation of a new bill and of a refund can
 * give (the merchant API's, in English) has its Russian, and the desk's own codes their words.
 */
import { billInputProblems, type BillInput } from '../../../server/billing/bills';
import { refusalText, russianFields, russianMessage } from '../../../src/desk/services/problems';

const START = Date.UTC(2026, 0, 15);
const isRussian = (text: string) => /[А-Яа-яЁё]/.test(text) && !/must|should|the /.test(text);

test('every problem of a bad new bill has its Russian', () => {
  const worst: BillInput = {
    objectOID: 'bad id!',
    purpose: '',
    sumKopecks: 0,
    customer: { phone: '89990000000', email: 'x', custNo: 'bad no!' },
    billEmail: 'y',
    points: { enabled: true, usefulLimit: -1 },
    paymentTypes: [
      { code: 'ALL', name: ' ', commissionKopecks: -1 },
      { code: 'ALL', name: 'Карта', commissionKopecks: 0 },
    ],
    expiresAt: START - 1,
    returnUrl: 'ftp://shop',
    items: [{ name: '', quantityMilli: 0, priceKopecks: 0, vat: 'vat99' as never, paymentMethod: 'x' as never, paymentObject: 'y' as never, measure: 'z' as never }],
  };
  const problems = [
    ...billInputProblems(worst, START),
    ...billInputProblems({ purpose: 'ok', sumKopecks: 100, returnUrl: 'not a url', items: [] }, START),
    ...billInputProblems({ purpose: 'ok', sumKopecks: 100, items: [{ name: 'a', quantityMilli: 1000, priceKopecks: 99, vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity', measure: null }] }, START),
  ];
  expect(problems.length).toBeGreaterThan(15);
  const untranslated = problems.filter((problem) => !isRussian(russianMessage(problem.message)));
  expect(untranslated).toEqual([]);
  expect(russianMessage('the positions (quantity × price) add up to 0.99, not to amount.value 1.00')).toBe('позиции (количество × цена) дают 0,99, а сумма счета 1,00');
});

test('the schema’s own messages (Ajv) and a refund’s', () => {
  for (const message of [
    "must have required property 'purpose'",
    'must NOT have more than 500 characters',
    'must NOT have fewer than 1 characters',
    'must match pattern "^(0|[1-9][0-9]{0,12})\\.[0-9]{2}$"',
    'must match format "date-time"',
    'must be equal to one of the allowed values',
    'is not a field of this request',
    'must be number',
    'must be <= 99999.999',
  ]) {
    expect([message, isRussian(russianMessage(message))]).toEqual([message, true]);
  }
  // A field left empty is told as such, a longer minimum as a length.
  expect(russianMessage('must NOT have fewer than 1 characters')).toBe('обязательное поле');
  expect(russianMessage('must NOT have fewer than 10 characters')).toBe('не короче 10 символов');
  expect(refusalText({ code: 'refund_exceeds_remaining', message: '800.00 is more than remains to refund of this payment: 715.00' })).toBe('800,00 больше, чем осталось вернуть: 715,00');
  expect(refusalText({ code: 'forbidden', message: 'whatever' })).toBe('Недостаточно прав для этого действия');
  expect(refusalText({ code: 'bill_not_payable', message: 'Счет уже оплачен' })).toBe('Счет уже оплачен');
  expect(russianFields([{ field: 'x', message: 'something new' }])).toEqual([{ field: 'x', message: 'something new' }]);
});
