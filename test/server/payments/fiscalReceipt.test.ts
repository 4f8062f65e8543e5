import { linkOf, merchantCall, openPage, payByCard, provePhone, startServer, type Client, type TestServer } from '../helpers';
import { rbsOrder } from '../../../server/sandbox/rbsOrders';
import { attemptByOrder, itemsOfAttempt } from '../../../server/payments/queries';
import { orderNumberOf } from '../../../server/payments/start';
import { exchangesOfAttempt, webhookEvents } from '../../support/rows';
import type { OrderBundle } from '../../../server/acquirer/orderBundle';

let server: TestServer;
afterEach(() => server?.close());

const POINTS_PHONE = '79991234567';

/** A bill of a flat's prepayment and a storage room (2.5 units), with a card fee of 185.19 and points enabled. */
const billWithPositions = (extra: Record<string, unknown> = {}) => ({
  purpose: 'Оплата по договору № 17',
  amount: { value: '13343.38', currency: 'RUB' },
  customer: { name: 'Иванов Иван', phone: POINTS_PHONE, custNo: 'ERP-42' },
  points: { enabled: true, usefulLimit: 5000 },
  paymentTypes: [{ code: 'ALL', name: 'Банковская карта', commission: { value: '185.19', currency: 'RUB' } }],
  items: [
    { name: 'Предоплата по ДДУ № 17', quantity: 1, price: { value: '10000.00', currency: 'RUB' }, vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity' },
    { name: 'Кладовая', quantity: 2.5, price: { value: '1337.35', currency: 'RUB' }, vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity', measure: 'square_meter' },
  ],
  ...extra,
});

async function newBill(body: Record<string, unknown>) {
  const created = await merchantCall(server.app, 'POST', '/bills', body);
  expect(created.statusCode).toBe(201);
  return created.json<{ objectOID: string; payUrl: string }>();
}

const payBody = (link: string, pointsSum: number | null, email: string | null = 'payer@example.ru', type = 'ALL') => ({
  pointsSum, objectOID: link, cardTypeOID: `${link}.${type}`, email, userOID: null, manager_id: null,
});

/** The payer opens the bill, proves the phone for points when spending some, and asks to pay by `type` (a card). */
async function startPaying(link: string, points: number | null, email?: string | null, type = 'ALL') {
  const client: Client = await openPage(server.app, link);
  if (points) expect((await provePhone(client, POINTS_PHONE, 'use-points', link)).statusCode).toBe(200);
  return client.post('/api/getPaymentUrl/', payBody(link, points, email, type));
}

/** The bundle the sandbox acquirer recorded for an attempt's order, with the order's amount. */
async function recordedBundle(orderId: string) {
  const order = (await rbsOrder(server.app.store, { orderNumber: orderNumberOf(orderId) }))!;
  return { order, bundle: JSON.parse(order.order_bundle!) as OrderBundle };
}

describe('the merchant API takes positions', () => {
  beforeEach(async () => {
    server = await startServer();
  });

  test('a bill with positions: they come back with their amounts; a bill without has one, its purpose, with the defaults', async () => {
    const bill = await newBill(billWithPositions());
    const read = (await merchantCall(server.app, 'GET', `/bills/${bill.objectOID}`)).json();
    expect(read.items).toEqual([
      { position: 1, name: 'Предоплата по ДДУ № 17', quantity: 1, price: { value: '10000.00', currency: 'RUB' }, amount: { value: '10000.00', currency: 'RUB' }, vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity', measure: null },
      { position: 2, name: 'Кладовая', quantity: 2.5, price: { value: '1337.35', currency: 'RUB' }, amount: { value: '3343.38', currency: 'RUB' }, vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity', measure: 'square_meter' },
    ]);
    const plain = await newBill({ purpose: 'Оплата счета № 5', amount: { value: '1500.00', currency: 'RUB' } });
    expect((await merchantCall(server.app, 'GET', `/bills/${plain.objectOID}`)).json().items).toEqual([
      { position: 1, name: 'Оплата счета № 5', quantity: 1, price: { value: '1500.00', currency: 'RUB' }, amount: { value: '1500.00', currency: 'RUB' }, vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity', measure: null },
    ]);
  });

  test('positions that do not add up to the amount, or with more than 3 decimals, or unknown codes: 400 naming the field', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const response = await merchantCall(server.app, 'POST', '/bills', body);
      expect(response.statusCode).toBe(400);
      return response.json().error;
    };
    const off = await refused(billWithPositions({ amount: { value: '13343.37', currency: 'RUB' } }));
    expect(off.fields).toEqual([{ field: 'items', message: 'the positions (quantity × price) add up to 13343.38, not to amount.value 13343.37' }]);
    const [first, second] = billWithPositions().items;
    expect((await refused(billWithPositions({ items: [first, { ...second, quantity: 2.5001 }] }))).fields).toEqual([
      { field: 'items[1].quantity', message: 'must be more than 0 and below 100000, with at most 3 decimals' },
    ]);
    expect(JSON.stringify(await refused(billWithPositions({ items: [first, { ...second, vat: 'vat18' }] })))).toContain('vat');
    expect(JSON.stringify(await refused(billWithPositions({ items: [{ ...first, name: 'x'.repeat(101) }, second] })))).toContain('name');
    expect(JSON.stringify(await refused(billWithPositions({ items: [] })))).toContain('items');
    // Nothing of a refused bill is kept.
    expect((await merchantCall(server.app, 'GET', '/payments')).json().data).toEqual([]);
  });

  test('the demo bills carry realistic positions: a prepayment under a ДДУ contract, a car\'s prepayment with VAT 22 %', async () => {
    const itemsOf = async (oid: string) => (await merchantCall(server.app, 'GET', `/bills/${oid}`)).json().items;
    expect(await itemsOf('demo-anon')).toEqual([expect.objectContaining({ name: 'Долевой взнос по ДДУ-2026/145, квартира № 145', vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity' })]);
    // A prepayment's receipt names VAT 22 % at the calculated rate.
    expect(await itemsOf('demo-car')).toEqual([
      expect.objectContaining({ name: expect.stringMatching(/^Предоплата за автомобиль /), amount: { value: '300000.00', currency: 'RUB' }, vat: 'vat122', paymentMethod: 'full_prepayment', paymentObject: 'commodity' }),
    ]);
  });

  test('OpenAPI documents the positions and the payment\'s receipt', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/merchant/v1/openapi.json' })).json();
    const items = doc.paths['/merchant/v1/bills'].post.requestBody.content['application/json'].schema.properties.items;
    expect(items.items.required).toEqual(['name', 'quantity', 'price', 'vat', 'paymentMethod', 'paymentObject']);
    expect(items.items.properties.vat.enum).toEqual(expect.arrayContaining(['none', 'vat0', 'vat5', 'vat7', 'vat10', 'vat20', 'vat22', 'vat105', 'vat107', 'vat110', 'vat120', 'vat122']));
    expect(items.items.properties.paymentMethod.enum).toEqual(['full_prepayment', 'prepayment', 'advance', 'full_payment']);
    expect(items.items.properties.paymentObject.enum).toEqual(['commodity', 'work', 'service', 'payment', 'another']);
    const bill = doc.paths['/merchant/v1/bills/{objectOID}'].get.responses['200'].content['application/json'].schema;
    expect(bill.properties.items.type).toBe('array');
    expect(bill.properties.payments.items.properties.receipt.properties.issuer.enum).toEqual(['acquirer', 'merchant']);
  });
});

describe('the receipt goes with the acquirer order', () => {
  beforeEach(async () => {
    server = await startServer();
  });

  test('two positions, a fee and points: register.do carries taxSystem and a bundle whose positions add up to the amount', async () => {
    const bill = await newBill(billWithPositions());
    const link = linkOf(bill.payUrl);
    await merchantCall(server.app, 'POST', '/customers/ERP-42/points', { delta: 5000, reason: 'test' });
    const started = await startPaying(link, 1234);
    expect(started.statusCode).toBe(200);
    const { orderId, formUrl } = started.json().info;
    const attempt = (await attemptByOrder(server.app.store, orderId))!;
    // 13 343.38 + 185.19 − 1 234 points.
    expect(attempt.amount_kopecks).toBe(1_334_338 + 18_519 - 123_400);

    const { order, bundle } = await recordedBundle(orderId);
    expect(order.tax_system).toBe(0);
    expect(bundle.customerDetails).toEqual({ email: 'payer@example.ru', phone: `+${POINTS_PHONE}` });
    expect(bundle.cartItems.items.reduce((sum, item) => sum + item.itemAmount, 0)).toBe(order.amount);
    // 123 400 kopecks off 10 000.00 : 3 343.38 are 92 480.32 and 30 919.68: the kopeck left goes to the larger remainder,
    // the second; its price per unit is 3 034.18 / 2.5. The fee is untouched.
    expect(bundle.cartItems.items.map((item) => [item.positionId, item.name, item.quantity, item.itemAmount, item.itemPrice, item.itemCode, item.tax.taxType])).toEqual([
      ['1', 'Предоплата по ДДУ № 17', { value: 1, measure: 0 }, 907_520, 907_520, 'position-1', 0],
      ['2', 'Кладовая', { value: 2.5, measure: 32 }, 303_418, 121_367, 'position-2', 14],
      ['3', 'Сервисный сбор', { value: 1, measure: 0 }, 18_519, 18_519, 'fee', 0],
    ]);
    expect(bundle.cartItems.items[0]!.itemAttributes.attributes).toEqual([
      { name: 'paymentMethod', value: '1' },
      { name: 'paymentObject', value: '1' },
    ]);
    // Kept with the attempt for what follows (a refund names its positions).
    expect((await itemsOfAttempt(server.app.store, orderId)).map((item) => item.amount_kopecks)).toEqual([907_520, 303_418, 18_519]);

    // Paid: the webhook and the API show the receipt as sent.
    expect((await payByCard(server.app, formUrl)).statusCode).toBe(303);
    await server.app.background.idle();
    const succeeded = (await webhookEvents(server.app.store, 10)).find((event) => event.type === 'payment.succeeded')!;
    const receipt = JSON.parse(succeeded.payload).data.payment.receipt;
    expect(receipt).toMatchObject({ issuer: 'acquirer', taxSystem: 'osn' });
    expect(receipt.items.map((item: { amount: { value: string }; billPosition: number | null }) => [item.billPosition, item.amount.value])).toEqual([
      [1, '9075.20'],
      [2, '3034.18'],
      [null, '185.19'],
    ]);
    const payments = (await merchantCall(server.app, 'GET', `/bills/${bill.objectOID}`)).json().payments;
    expect(payments[0].receipt).toEqual(receipt);
  });

  test('fast payment and bank-app pay orders carry the same bundle as a card\'s, each with its own fee', async () => {
    const types = [
      { code: 'ALL', name: 'Банковская карта', commission: { value: '185.19', currency: 'RUB' } },
      { code: 'SBP', name: 'СБП' },
      { code: 'SberPaySite', name: 'SberPay', commission: { value: '61.73', currency: 'RUB' } },
    ];
    const sent: Record<string, { bundle: OrderBundle; amount: number; taxSystem: number | null }> = {};
    for (const { code } of types) {
      const bill = await newBill(billWithPositions({ paymentTypes: types }));
      const started = await startPaying(linkOf(bill.payUrl), null, undefined, code);
      expect(started.statusCode).toBe(200);
      const { order, bundle } = await recordedBundle(started.json().info.orderId);
      sent[code] = { bundle, amount: order.amount, taxSystem: order.tax_system };
    }
    const positions = (code: string) => sent[code]!.bundle.cartItems.items.map((item) => [item.name, item.itemAmount, item.tax.taxType]);
    // The bill's positions alike, then the way's own fee (none for fast payment).
    const billPositions = [
      ['Предоплата по ДДУ № 17', 1_000_000, 0],
      ['Кладовая', 334_338, 14],
    ];
    expect(positions('ALL')).toEqual([...billPositions, ['Сервисный сбор', 18_519, 0]]);
    expect(positions('SBP')).toEqual(billPositions);
    expect(positions('SberPaySite')).toEqual([...billPositions, ['Сервисный сбор', 6_173, 0]]);
    for (const { code } of types) {
      expect(sent[code]!.taxSystem).toBe(0);
      expect(sent[code]!.bundle.customerDetails).toEqual({ email: 'payer@example.ru', phone: `+${POINTS_PHONE}` });
      expect(sent[code]!.bundle.cartItems.items.reduce((sum, item) => sum + item.itemAmount, 0)).toBe(sent[code]!.amount);
    }
  });

  test('the page\'s receipt lists the positions at full price, the fee and the points, and that the fiscal receipt was sent', async () => {
    const bill = await newBill(billWithPositions());
    const link = linkOf(bill.payUrl);
    await merchantCall(server.app, 'POST', '/customers/ERP-42/points', { delta: 5000, reason: 'test' });
    const client = await openPage(server.app, link);
    expect((await provePhone(client, POINTS_PHONE, 'use-points', link)).statusCode).toBe(200);
    const { orderId, formUrl } = (await client.post('/api/getPaymentUrl/', payBody(link, 100))).json().info;
    await payByCard(server.app, formUrl);
    await server.app.background.idle();
    const receipt = (await client.post('/api/getResult/', { transactionID: orderId, billOID: link })).json().receipt;
    expect(receipt).toMatchObject({
      items: [
        { name: 'Предоплата по ДДУ № 17', quantity: 1, price: 10000, amount: 10000, vat: 'none' },
        { name: 'Кладовая', quantity: 2.5, price: 1337.35, amount: 3343.38, vat: 'vat22' },
      ],
      fee: 185.19,
      pointsUsed: 100,
      fiscal: true,
    });
  });

  test('points alone: no acquirer order, and the webhook says the merchant\'s own cash register issues the receipt', async () => {
    const [flat] = billWithPositions().items;
    const bill = await newBill(billWithPositions({ amount: { value: '10000.00', currency: 'RUB' }, items: [flat], paymentTypes: [{ code: 'SBP', name: 'СБП' }], points: { enabled: true, usefulLimit: 20_000 } }));
    const link = linkOf(bill.payUrl);
    await merchantCall(server.app, 'POST', '/customers/ERP-42/points', { delta: 20_000, reason: 'test' });
    const client = await openPage(server.app, link);
    expect((await provePhone(client, POINTS_PHONE, 'use-points', link)).statusCode).toBe(200);
    const closed = await client.post('/api/getPaymentUrl/', { ...payBody(link, 10_000), cardTypeOID: null });
    expect(closed.json()).toMatchObject({ isClosedWithoutProcessing: true });
    const orderId = closed.json().info.orderId;
    expect(await rbsOrder(server.app.store, { orderNumber: orderNumberOf(orderId) })).toBeUndefined();
    expect(await itemsOfAttempt(server.app.store, orderId)).toEqual([]);
    const succeeded = (await webhookEvents(server.app.store, 10)).find((event) => event.type === 'payment.succeeded')!;
    expect(JSON.parse(succeeded.payload).data.payment.receipt).toEqual({
      issuer: 'merchant',
      note: expect.stringContaining('your own cash register'),
      taxSystem: null,
      items: [],
    });
  });

  test('a bundle the acquirer refuses: the payer is told it cannot go to payment, the attempt is kept, the log names the position', async () => {
    const bill = await newBill(billWithPositions());
    // A stored position with a code the acquirer does not know (as a bad migration could leave it): the acquirer refuses.
    await server.app.store.db.updateTable('bill_items').set({ vat: 'vat18' as never }).where('bill_oid', '=', bill.objectOID).where('position', '=', 2).execute();
    const started = await startPaying(linkOf(bill.payUrl), null);
    expect(started.statusCode).toBe(503);
    expect(started.json().error).toMatch(/^Не удалось перейти к оплате/);
    const attempts = await server.app.store.db.selectFrom('payment_attempts').selectAll().where('bill_oid', '=', bill.objectOID).execute();
    expect(attempts.map((attempt) => attempt.status)).toEqual(['created']);
    const [register] = await exchangesOfAttempt(server.app.store, attempts[0]!.order_id);
    expect(register!.error).toMatch(/orderBundle position 2: tax\.taxType undefined is unknown/);
  });

  test('a payment with nowhere to send its receipt is refused with a clear message before it reaches the acquirer', async () => {
    const bill = await newBill({ purpose: 'Оплата', amount: { value: '100.00', currency: 'RUB' } });
    const refused = await startPaying(linkOf(bill.payUrl), null, null);
    expect([refused.statusCode, refused.json().error]).toEqual([400, 'Укажите e-mail: на него придет чек об оплате']);
  });
});

describe('without a tax system (FISCAL_TAX_SYSTEM unset outside the sandbox)', () => {
  beforeEach(async () => {
    server = await startServer({ fiscal: { taxSystem: null, vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity', ffd: '1.2' } });
  });

  test('register.do carries no receipt; the webhook says the merchant issues it; the page promises none', async () => {
    const bill = await newBill(billWithPositions());
    const link = linkOf(bill.payUrl);
    const client = await openPage(server.app, link);
    const { orderId, formUrl } = (await client.post('/api/getPaymentUrl/', payBody(link, null, null))).json().info;
    const order = (await rbsOrder(server.app.store, { orderNumber: orderNumberOf(orderId) }))!;
    expect([order.tax_system, order.order_bundle]).toEqual([null, null]);
    await payByCard(server.app, formUrl);
    await server.app.background.idle();
    const succeeded = (await webhookEvents(server.app.store, 10)).find((event) => event.type === 'payment.succeeded')!;
    expect(JSON.parse(succeeded.payload).data.payment.receipt).toMatchObject({ issuer: 'merchant', taxSystem: null, items: [] });
    expect((await client.post('/api/getResult/', { transactionID: orderId, billOID: link })).json().receipt.fiscal).toBe(false);
  });
});

describe('receipt format 1.05 (FISCAL_FFD=1.05)', () => {
  beforeEach(async () => {
    server = await startServer({ fiscal: { taxSystem: 'usn_income', vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity', ffd: '1.05' } });
  });

  test('the order names each unit of measure in words and carries the configured tax system', async () => {
    const bill = await newBill(billWithPositions());
    const started = await startPaying(linkOf(bill.payUrl), null);
    const { order, bundle } = await recordedBundle(started.json().info.orderId);
    expect(order.tax_system).toBe(1);
    expect(bundle.cartItems.items.map((item) => item.quantity)).toEqual([
      { value: 1, measure: 'шт' },
      { value: 2.5, measure: 'м2' },
      { value: 1, measure: 'шт' },
    ]);
  });
});
