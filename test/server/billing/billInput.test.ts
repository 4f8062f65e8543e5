import { billInputProblems, type BillInput } from '../../../server/billing/bills';
import { TEXT_LINE_PROBLEM } from '../../../server/platform/patterns';

const input = (extra: Partial<BillInput> = {}): BillInput => ({ purpose: 'Аванс', sumKopecks: 10_000, ...extra });
const item = { quantityMilli: 1000, priceKopecks: 10_000, vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity', measure: null } as const;

test('a bill made any way (not only through the API\'s schemas) takes its free text on one line, without control characters', () => {
  expect(billInputProblems(input({ customer: { name: 'Иванов 🚗' }, returnUrl: 'https://shop.example.ru/back' }), 0)).toEqual([]);
  expect(
    billInputProblems(
      input({
        purpose: 'NUL\u0000',
        customer: { name: 'two\nlines' },
        paymentTypes: [{ code: 'ALL', name: 'half \ud800', commissionKopecks: 0 }],
        returnUrl: 'https://shop.example.ru/\tback',
        items: [{ ...item, name: 'DEL\u007f' }],
      }),
      0,
    ),
  ).toEqual([
    { field: 'purpose', message: TEXT_LINE_PROBLEM },
    { field: 'customer.name', message: TEXT_LINE_PROBLEM },
    { field: 'paymentTypes[0].name', message: TEXT_LINE_PROBLEM },
    { field: 'items[0].name', message: TEXT_LINE_PROBLEM },
    { field: 'returnUrl', message: TEXT_LINE_PROBLEM },
  ]);
});
