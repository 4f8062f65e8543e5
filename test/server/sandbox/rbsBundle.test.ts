import { bundleRefusal } from '../../../server/sandbox/rbsBundle';

/** A bundle a real gateway takes: two positions adding up to 1 500.00. */
const goodItem = (positionId: number, itemAmount: number, extra: Record<string, unknown> = {}) => ({
  positionId: String(positionId),
  name: `Позиция ${positionId}`,
  quantity: { value: 1, measure: 0 },
  itemAmount,
  itemPrice: itemAmount,
  itemCode: `position-${positionId}`,
  tax: { taxType: 14 },
  itemAttributes: { attributes: [{ name: 'paymentMethod', value: '1' }, { name: 'paymentObject', value: '1' }] },
  ...extra,
});
const bundle = (items: unknown[], customerDetails: unknown = { email: 'payer@example.ru' }) =>
  JSON.stringify({ orderCreationDate: 0, customerDetails, cartItems: { items } });
const refusal = (items: unknown[], customer?: unknown, taxSystem: string | undefined = '0') => bundleRefusal(taxSystem, bundle(items, customer), 150_000);

test('a good bundle, or none at all, is taken', () => {
  expect(refusal([goodItem(1, 100_000), goodItem(2, 50_000)])).toBeNull();
  expect(bundleRefusal(undefined, undefined, 150_000)).toBeNull();
});

test('what a real gateway refuses, each with its errorCode and the position at fault', () => {
  const two = (second: Record<string, unknown>) => [goodItem(1, 100_000), goodItem(2, 50_000, second)];
  expect(refusal([goodItem(1, 100_000), goodItem(2, 49_999)])).toEqual({ errorCode: 5, errorMessage: 'orderBundle positions add up to 149999, not to amount 150000' });
  expect(refusal(two({ tax: { taxType: 3 } }))?.errorMessage).toBe('orderBundle position 2: tax.taxType 3 is unknown');
  expect(refusal(two({ itemAttributes: { attributes: [{ name: 'paymentMethod', value: '9' }, { name: 'paymentObject', value: '1' }] } }))?.errorMessage).toBe(
    'orderBundle position 2: paymentMethod is missing or unknown',
  );
  expect(refusal(two({ itemAttributes: { attributes: [{ name: 'paymentMethod', value: '1' }] } }))?.errorMessage).toBe('orderBundle position 2: paymentObject is missing or unknown');
  expect(refusal(two({ positionId: '3' }))?.errorMessage).toBe('orderBundle position 2: positionId must be 2');
  expect(refusal(two({ name: 'x'.repeat(101) }))?.errorMessage).toBe('orderBundle position 2: name must be 1 to 100 characters');
  expect(refusal(two({ itemPrice: 25_000 }))?.errorMessage).toBe('orderBundle position 2: itemAmount 50000 is not itemPrice 25000 × quantity 1');
  expect(refusal(two({ itemCode: 'position-1' }))?.errorMessage).toBe('orderBundle position 2: itemCode position-1 is not unique in the order');
  expect(refusal(two({ quantity: { value: 1.0001, measure: 0 } }))?.errorMessage).toBe('orderBundle position 2: quantity.value has more than 3 decimals');
  expect(refusal(two({ itemAmount: 0, itemPrice: 0 }))?.errorCode).toBe(5);
  expect(refusal([goodItem(1, 150_000)], {})).toEqual({ errorCode: 4, errorMessage: 'orderBundle.customerDetails needs an email or a phone' });
  expect(refusal([])).toEqual({ errorCode: 4, errorMessage: 'orderBundle.cartItems.items is missing or empty' });
  expect(refusal([goodItem(1, 150_000)], undefined, '9')).toEqual({ errorCode: 5, errorMessage: 'taxSystem 9 is unknown' });
  expect(bundleRefusal('0', undefined, 150_000)?.errorCode).toBe(4);
  expect(bundleRefusal('0', '{not json', 150_000)?.errorMessage).toBe('orderBundle is not JSON');
});

test('a discounted price per unit is within half a kopeck per unit of the amount', () => {
  // 3 034.18 for 2.5 units: 1 213.67 each (1 213.672 exactly).
  expect(bundleRefusal('0', bundle([goodItem(1, 303_418, { quantity: { value: 2.5, measure: 32 }, itemPrice: 121_367 })]), 303_418)).toBeNull();
  expect(bundleRefusal('0', bundle([goodItem(1, 303_418, { quantity: { value: 2.5, measure: 32 }, itemPrice: 121_369 })]), 303_418)?.errorCode).toBe(5);
});
