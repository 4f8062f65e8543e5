import { fiscalReceiptOf } from '../../../server/acquirer/orderBundle';
import { rbsClient } from '../../../server/acquirer/rbs';
import type { AttemptItemRow } from '../../../server/payments/tables';

const item = (position_id: number, extra: Partial<AttemptItemRow> = {}): AttemptItemRow => ({
  order_id: 'order-1',
  position_id,
  bill_position: position_id,
  name: `Позиция ${position_id}`,
  quantity_milli: 1000,
  price_kopecks: 50_000,
  amount_kopecks: 50_000,
  vat: 'vat22',
  payment_method: 'full_prepayment',
  payment_object: 'service',
  measure: null,
  ...extra,
});

test('the receipt in the protocol\'s numbers: tax system, VAT, payment method and object, the unit by the format', () => {
  const items = [item(1, { measure: 'liter', quantity_milli: 1500, price_kopecks: 100_000, amount_kopecks: 150_000 }), item(2, { bill_position: null, name: 'Сервисный сбор', vat: 'none', payment_object: 'commodity' })];
  const receipt = fiscalReceiptOf('usn_income_outcome', items, { email: 'payer@example.ru', phone: '79991234567' }, 1_700_000_000_000, '1.2');
  expect(receipt.taxSystem).toBe(2);
  // Each position as the protocol carries it: its id, name, quantity and unit (the format's number), amount, price,
  // item code, VAT type, payment method and payment object (their numbers).
  const expected = [
    ['1', 'Позиция 1', 1.5, 41, 150_000, 100_000, 'position-1', 14, '1', '4'],
    ['2', 'Сервисный сбор', 1, 0, 50_000, 50_000, 'fee', 0, '1', '1'],
  ] as const;
  expect(receipt.orderBundle).toEqual({
    orderCreationDate: 1_700_000_000_000,
    customerDetails: { email: 'payer@example.ru', phone: '+79991234567' },
    cartItems: {
      items: expected.map(([positionId, name, value, measure, itemAmount, itemPrice, itemCode, taxType, paymentMethod, paymentObject]) => ({
        positionId,
        name,
        quantity: { value, measure },
        itemAmount,
        itemPrice,
        itemCode,
        tax: { taxType },
        itemAttributes: { attributes: [{ name: 'paymentMethod', value: paymentMethod }, { name: 'paymentObject', value: paymentObject }] },
      })),
    },
  });
  // Format 1.05 names the unit in words; no phone, no phone field.
  const older = fiscalReceiptOf('osn', items, { email: 'payer@example.ru', phone: null }, 0, '1.05');
  expect(older.orderBundle.cartItems.items.map((i) => i.quantity.measure)).toEqual(['л', 'шт']);
  expect(older.orderBundle.customerDetails).toEqual({ email: 'payer@example.ru' });
});

test('the adapter\'s register.do carries taxSystem and orderBundle as form parameters (the bundle a JSON string)', async () => {
  const sent: URLSearchParams[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    sent.push(new URLSearchParams(String(init?.body)));
    return new Response(JSON.stringify({ orderId: 'acq-1', formUrl: 'https://bank/form' }), { status: 200 });
  };
  const acquirer = rbsClient({ baseUrl: 'https://bank.example/payment/rest/', credentials: { token: 't' }, fetch: fetch as typeof globalThis.fetch });
  const receipt = fiscalReceiptOf('osn', [item(1)], { email: 'payer@example.ru', phone: null }, 0, '1.2');
  await acquirer.register({ orderNumber: 'n-1', amount: 50_000, returnUrl: 'https://shop/ok', receipt });
  expect(sent[0]!.get('taxSystem')).toBe('0');
  expect(JSON.parse(sent[0]!.get('orderBundle')!)).toEqual(receipt.orderBundle);
  // Without a receipt neither parameter is sent.
  await acquirer.register({ orderNumber: 'n-2', amount: 50_000, returnUrl: 'https://shop/ok' });
  expect([sent[1]!.has('taxSystem'), sent[1]!.has('orderBundle')]).toEqual([false, false]);
});

test('the adapter\'s refund.do carries the positions returned as refundItems; the order\'s status gives what it has given back', async () => {
  const sent: URLSearchParams[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    sent.push(new URLSearchParams(String(init?.body)));
    const answer = String(url).endsWith('getOrderStatusExtended.do')
      ? { errorCode: '0', orderNumber: 'n-1', orderStatus: 2, amount: 50_000, paymentAmountInfo: { paymentState: 'DEPOSITED', refundedAmount: 12_000 } }
      : { errorCode: '0' };
    return new Response(JSON.stringify(answer), { status: 200 });
  };
  const acquirer = rbsClient({ baseUrl: 'https://bank.example/payment/rest/', credentials: { token: 't' }, fetch: fetch as typeof globalThis.fetch });
  const [returned] = fiscalReceiptOf('osn', [item(1, { amount_kopecks: 12_000, price_kopecks: 12_000 })], { email: null, phone: null }, 0, '1.2').orderBundle.cartItems.items;
  await acquirer.refund({ orderId: 'acq-1', amount: 12_000, refundItems: [returned!] });
  expect(sent[0]!.get('amount')).toBe('12000');
  expect(JSON.parse(sent[0]!.get('refundItems')!)).toEqual({ items: [returned] });
  await acquirer.refund({ orderId: 'acq-1', amount: 100 });
  expect(sent[1]!.has('refundItems')).toBe(false);
  expect(await acquirer.orderStatus({ orderId: 'acq-1' })).toMatchObject({ refundedAmount: 12_000, paymentState: 'DEPOSITED' });
});
