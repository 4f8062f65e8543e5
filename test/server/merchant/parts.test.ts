import type { OrderBundle } from '../../../server/acquirer/orderBundle';
import { orderNumberOf } from '../../../server/payments/start';
import { receiptOf } from '../../../server/payments/receipt';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { rbsOrder } from '../../../server/sandbox/rbsOrders';
import { exchangesOfAttempt, webhookEvents } from '../../support/rows';
import { attemptByOrder } from '../../../server/payments/queries';
import { injectFetch } from '../../support/injectFetch';
import { Client, linkOf, merchantCall, payByCard, payBySbp, provePhone, secondProcess, startServer, type TestServer } from '../helpers';

/*
 * A large bill paid in parts through the merchant API and the page's Pay: a 2 500 000.00 bill with parts of at least
 * 100 000.00, paid 1 000 000.00 by the fast-payment system (its cap) and then 1 500 000.00 by card.
 */

let server: TestServer;

beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const rub = (value: string) => ({ value, currency: 'RUB' });
// The payer's words group digits with a no-break space, as the page shows money; compared here as plain spaces.

interface Bill {
  objectOID: string;
  link: string;
}

async function newBill(body: Record<string, unknown> = {}): Promise<Bill> {
  const created = await merchantCall(server.app, 'POST', '/bills', {
    purpose: 'Квартира 12, предоплата',
    amount: rub('2500000.00'),
    parts: { minimum: rub('100000.00') },
    paymentTypes: [
      { code: 'ALL', name: 'Банковская карта' },
      { code: 'SBP', name: 'СБП' },
    ],
    items: [
      { name: 'Квартира 12', quantity: 1, price: rub('2000000.00'), vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity' },
      { name: 'Кладовая 3', quantity: 2.5, price: rub('200000.00'), vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity' },
    ],
    ...body,
  });
  expect(created.statusCode).toBe(201);
  const { objectOID, payUrl } = created.json<{ objectOID: string; payUrl: string }>();
  return { objectOID, link: linkOf(payUrl) };
}

/** The page's Pay for a part (roubles; null: the page's default) by a way, as its own tab. */
async function startPart(bill: Bill, code: 'ALL' | 'SBP', partSum: number | null) {
  const client = await new Client(server.app).open(bill.link);
  return client.post('/api/getPaymentUrl/', { pointsSum: null, partSum, objectOID: bill.link, cardTypeOID: `${bill.link}.${code}`, email: 'payer@example.ru', userOID: null, manager_id: null });
}

const billNow = async (bill: Bill) => (await merchantCall(server.app, 'GET', `/bills/${bill.objectOID}`)).json();

/** The bill's webhook events, in the order queued. */
const eventsOf = async (bill: Bill) =>
  (await webhookEvents(server.app.store, 500))
    .reverse()
    .map((event) => ({ type: event.type, data: JSON.parse(event.payload).data }))
    .filter((event) => event.data.objectOID === bill.objectOID);

async function bundleOf(orderId: string) {
  const order = (await rbsOrder(server.app.store, { orderNumber: orderNumberOf(orderId) }))!;
  return { order, bundle: JSON.parse(order.order_bundle!) as OrderBundle };
}

const paymentMethodOf = (item: OrderBundle['cartItems']['items'][number]) => item.itemAttributes.attributes.find((a) => a.name === 'paymentMethod')!.value;

test('a 2 500 000.00 bill paid 1 000 000.00 by the fast-payment system, then 1 500 000.00 by card: partially_paid, then paid', async () => {
  const bill = await newBill();
  const created = await billNow(bill);
  // The fast-payment system's cap is the server's default; the card has none.
  expect(created).toMatchObject({
    status: 'unpaid',
    parts: { minimum: rub('100000.00') },
    paid: rub('0.00'),
    remaining: rub('2500000.00'),
    refunded: rub('0.00'),
    paymentTypes: [
      { code: 'ALL', maximum: null },
      { code: 'SBP', maximum: rub('1000000.00') },
    ],
  });

  // The fast-payment system's part is its cap by default (less than what remains).
  const first = await startPart(bill, 'SBP', null);
  expect(first.statusCode).toBe(200);
  const sbp = first.json().info;
  expect((await payBySbp(server.app, sbp.data.payload)).statusCode).toBeLessThan(400);

  const halfway = await billNow(bill);
  expect(halfway).toMatchObject({ status: 'partially_paid', paid: rub('1000000.00'), remaining: rub('1500000.00') });
  expect(halfway.payments).toHaveLength(1);
  expect(halfway.payments[0]).toMatchObject({ orderId: sbp.orderId, method: 'SBP', status: 'success', amount: rub('1000000.00'), part: rub('1000000.00') });
  // The part's receipt, as the result page shows it, says what remains for the next part.
  const partReceipt = (await receiptOf(server.app.store, sbp.orderId, server.app.appOptions.fiscal))!;
  expect(partReceipt).toMatchObject({ status: 'success', amount: 1_000_000, remaining: 1_500_000 });
  // The payer's receipt of a part shows the part's share of each position, as its fiscal receipt went: adding up to it.
  expect(partReceipt.items.map((item) => item.name)).toEqual(['Квартира 12', 'Кладовая 3']);
  expect(Math.round(partReceipt.items.reduce((sum, item) => sum + item.amount, 0) * 100)).toBe(100_000_000);

  // Reopening the link shows the progress and each way's cap.
  const page = (await server.app.inject({ method: 'GET', url: `/ajax/object-info/${bill.link}` })).json();
  expect(page.parts).toEqual({ minimum: 100_000, paid: 1_000_000, remaining: 1_500_000, pointsSpent: false });
  expect(page.cardTypes.map((type: { Code: string; Maximum: number | null }) => [type.Code, type.Maximum])).toEqual([
    ['ALL', null],
    ['SBP', 1_000_000],
  ]);

  // The rest by card, a while later: what remains, the page's default.
  server.clock.advance(60_000);
  const second = await startPart(bill, 'ALL', null);
  expect(second.statusCode).toBe(200);
  const card = second.json().info;
  expect((await payByCard(server.app, card.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);

  const paid = await billNow(bill);
  expect(paid).toMatchObject({ status: 'paid', paid: rub('2500000.00'), remaining: rub('0.00'), refunded: rub('0.00') });
  expect(await receiptOf(server.app.store, card.orderId, server.app.appOptions.fiscal)).toMatchObject({ amount: 1_500_000, remaining: 0 });
  expect(paid.payments.map((p: { orderId: string; part: unknown }) => [p.orderId, p.part])).toEqual([
    [sbp.orderId, rub('1000000.00')],
    [card.orderId, rub('1500000.00')],
  ]);

  // bill.partially_paid after the first part, bill.paid after the last, each with the payment that made it.
  const told = (await eventsOf(bill)).filter((event) => event.type.startsWith('bill.'));
  expect(told).toEqual([
    {
      type: 'bill.partially_paid',
      data: { objectOID: bill.objectOID, status: 'partially_paid', amount: rub('2500000.00'), paid: rub('1000000.00'), remaining: rub('1500000.00'), payment: expect.objectContaining({ orderId: sbp.orderId, part: rub('1000000.00') }) },
    },
    {
      type: 'bill.paid',
      data: expect.objectContaining({ objectOID: bill.objectOID, status: 'paid', amount: rub('2500000.00'), paid: rub('2500000.00'), remaining: rub('0.00'), payment: expect.objectContaining({ orderId: card.orderId }) }),
    },
  ]);

  // Each part is its own order, whose receipt adds up to the part exactly, each position a partial prepayment.
  for (const [orderId, part] of [
    [sbp.orderId, 100_000_000],
    [card.orderId, 150_000_000],
  ] as const) {
    const { order, bundle } = await bundleOf(orderId);
    expect(order.amount).toBe(part);
    expect(bundle.cartItems.items.reduce((sum, item) => sum + item.itemAmount, 0)).toBe(part);
    expect(bundle.cartItems.items.map(paymentMethodOf)).toEqual(['2', '2']);
  }

  // A third payment is refused: nothing remains.
  const third = await startPart(bill, 'ALL', 100_000);
  expect(third.statusCode).toBe(409);
  expect(third.json().error.replace(/\u00a0/g, ' ')).toBe('Счет уже оплачен');
});

test('one payment that covers the bill is a full prepayment; a bill without parts takes no part', async () => {
  const bill = await newBill({ parts: undefined, amount: rub('500000.00'), items: undefined });
  expect((await billNow(bill)).parts).toBeNull();
  expect((await server.app.inject({ method: 'GET', url: `/ajax/object-info/${bill.link}` })).json().parts).toBeNull();
  const part = await startPart(bill, 'ALL', 100_000);
  expect(part.statusCode).toBe(400);
  expect(part.json().error.replace(/\u00a0/g, ' ')).toBe('Этот счет оплачивается одним платежом');
  const whole = (await startPart(bill, 'ALL', null)).json().info;
  const { bundle } = await bundleOf(whole.orderId);
  expect(bundle.cartItems.items.map(paymentMethodOf)).toEqual(['1']);
});

test('a way capped below a bill without parts cannot pay it, saying why; with parts it pays up to its cap', async () => {
  const whole = await newBill({ parts: undefined, items: undefined });
  const refused = await startPart(whole, 'SBP', null);
  expect(refused.statusCode).toBe(400);
  expect(refused.json().error.replace(/\u00a0/g, ' ')).toBe('Через СБП — не больше 1 000 000,00 руб. за один платеж');

  const inParts = await newBill();
  const over = await startPart(inParts, 'SBP', 1_000_000.01);
  expect(over.json().error.replace(/\u00a0/g, ' ')).toBe('Через СБП — не больше 1 000 000,00 руб. за один платеж');
  const below = await startPart(inParts, 'ALL', 99_999.99);
  expect(below.json().error.replace(/\u00a0/g, ' ')).toBe('Не меньше 100 000,00 руб.');
  const above = await startPart(inParts, 'ALL', 2_500_000.01);
  expect(above.json().error.replace(/\u00a0/g, ' ')).toBe('Не больше, чем осталось оплатить: 2 500 000,00 руб.');
  const fraction = await startPart(inParts, 'ALL', 100_000.001);
  expect(fraction.statusCode).toBe(400);
});

test('the merchant sets a way\'s cap and the least part; bad ones are refused by field', async () => {
  const capped = await newBill({ paymentTypes: [{ code: 'SBP', name: 'СБП', maximum: rub('700000.00') }] });
  expect((await billNow(capped)).paymentTypes).toEqual([expect.objectContaining({ code: 'SBP', maximum: rub('700000.00') })]);
  const bad = await merchantCall(server.app, 'POST', '/bills', {
    purpose: 'Счет',
    amount: rub('1000.00'),
    parts: { minimum: rub('1000.01') },
    paymentTypes: [{ code: 'ALL', name: 'Карта', maximum: rub('0.00') }],
  });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().error.fields.map((f: { field: string }) => f.field).sort()).toEqual(['parts.minimum.value', 'paymentTypes[0].maximum.value']);
});

test('a deposit is not paid in parts: parts with capture manual is refused, and nothing is stored', async () => {
  const refused = await merchantCall(server.app, 'POST', '/bills', {
    objectOID: 'deposit-in-parts',
    purpose: 'Бронь',
    amount: rub('150000.00'),
    parts: { minimum: rub('50000.00') },
    capture: 'manual',
  });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().error.fields).toEqual([{ field: 'parts', message: 'cannot be given with capture manual: a deposit is held in one payment' }]);
  expect((await merchantCall(server.app, 'GET', '/bills/deposit-in-parts')).statusCode).toBe(404);
});

test('less than the minimum remains: the last part is what remains', async () => {
  const bill = await newBill();
  for (const part of [1_000_000, 1_450_000]) {
    const info = (await startPart(bill, 'ALL', part)).json().info;
    expect((await payByCard(server.app, info.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  }
  expect(await billNow(bill)).toMatchObject({ status: 'partially_paid', remaining: rub('50000.00') });
  // The page's default is the 50 000.00 that remain, below the 100 000.00 minimum.
  const last = (await startPart(bill, 'ALL', null)).json().info;
  expect((await payByCard(server.app, last.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  expect(await billNow(bill)).toMatchObject({ status: 'paid', paid: rub('2500000.00') });
});

test('a server restart mid-part: the part begun before it is paid after it, and the bill is partly paid by both parts', async () => {
  const bill = await newBill();
  const first = (await startPart(bill, 'ALL', 1_000_000)).json().info;
  expect((await payByCard(server.app, first.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  // The next part, a while later: Pay done, the acquirer's form open, and the server goes down.
  server.clock.advance(60_000);
  const begun = (await startPart(bill, 'ALL', 500_000)).json().info;
  await server.app.close();

  // The next server on the same store; the acquirer's fake (and its orders) is the new one, as over the network.
  const built: { app?: Awaited<ReturnType<typeof secondProcess>> } = {};
  const next = (built.app = await secondProcess(server, { acquirerFetch: injectFetch(() => built.app!) }));
  try {
    expect((await payByCard(next, begun.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
    const now = (await merchantCall(next, 'GET', `/bills/${bill.objectOID}`)).json();
    expect(now).toMatchObject({ status: 'partially_paid', paid: rub('1500000.00'), remaining: rub('1000000.00') });
    expect(now.payments.map((p: { orderId: string; status: string; part: unknown }) => [p.orderId, p.status, p.part])).toEqual([
      [first.orderId, 'success', rub('1000000.00')],
      [begun.orderId, 'success', rub('500000.00')],
    ]);
    // The payer's result and the reopened link say what remains.
    expect(await receiptOf(next.store, begun.orderId, next.appOptions.fiscal)).toMatchObject({ status: 'success', amount: 500_000, remaining: 1_000_000 });
    const page = (await next.inject({ method: 'GET', url: `/ajax/object-info/${bill.link}` })).json();
    expect(page.parts).toMatchObject({ paid: 1_500_000, remaining: 1_000_000 });
    const told = (await webhookEvents(next.store, 500)).filter((event) => event.type === 'bill.partially_paid' && JSON.parse(event.payload).data.objectOID === bill.objectOID);
    expect(told.map((event) => JSON.parse(event.payload).data.remaining)).toEqual(expect.arrayContaining([rub('1500000.00'), rub('1000000.00')]));
  } finally {
    await next.close();
  }
});

describe('another payer\'s Pay while a part is open', () => {
  const payIn = (client: Client, bill: Bill, code: 'ALL' | 'SBP', partSum: number) =>
    client.post('/api/getPaymentUrl/', { pointsSum: null, partSum, objectOID: bill.link, cardTypeOID: `${bill.link}.${code}`, email: 'payer@example.ru', userOID: null, manager_id: null });
  const declined = async (orderId: string) => (await exchangesOfAttempt(server.app.store, orderId)).some((exchange) => exchange.method === 'decline.do');

  test('the wife\'s card part leaves the husband\'s open QR part payable, and both pay the bill', async () => {
    const bill = await newBill();
    const qr = (await startPart(bill, 'SBP', 1_000_000)).json().info;
    const card = await startPart(bill, 'ALL', 1_500_000);
    expect(card.statusCode).toBe(200);
    expect(await declined(qr.orderId)).toBe(false);
    expect(await attemptByOrder(server.app.store, qr.orderId)).toMatchObject({ status: 'created' });
    await payBySbp(server.app, qr.data.payload);
    expect((await payByCard(server.app, card.json().info.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
    expect(await billNow(bill)).toMatchObject({ status: 'paid', paid: rub('2500000.00'), remaining: rub('0.00') });
  });

  test('the bill data gives the open attempt\'s part, so going back to it pays the same part and finds the same order', async () => {
    const bill = await newBill();
    const tab = await new Client(server.app).open(bill.link);
    const qr = (await payIn(tab, bill, 'SBP', 1_000_000)).json().info;
    const open = (await tab.get(`/ajax/object-info/${bill.link}`)).json().openAttempt;
    expect(open).toMatchObject({ orderId: qr.orderId, cardTypeOID: `${bill.link}.SBP`, part: 1_000_000 });
    const again = (await payIn(tab, bill, 'SBP', open.part)).json().info;
    expect(again.orderId).toBe(qr.orderId);
  });

  test('the same payer changing the way declines the part this session began; a Pay refused declines nothing', async () => {
    const bill = await newBill();
    const tab = await new Client(server.app).open(bill.link);
    const qr = (await payIn(tab, bill, 'SBP', 1_000_000)).json().info;
    // Below the minimum: refused before anything open is touched.
    expect((await payIn(tab, bill, 'ALL', 50_000)).statusCode).toBe(400);
    expect(await declined(qr.orderId)).toBe(false);
    expect(await attemptByOrder(server.app.store, qr.orderId)).toMatchObject({ status: 'created' });
    expect((await payIn(tab, bill, 'ALL', 1_000_000)).statusCode).toBe(200);
    expect(await declined(qr.orderId)).toBe(true);
  });
});

test('two tabs paying the same remainder at once: the bill keeps exactly its amount, the later payment goes back', async () => {
  const bill = await newBill();
  const first = (await startPart(bill, 'ALL', 1_000_000)).json().info;
  expect((await payByCard(server.app, first.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  // Both tabs start the 1 500 000.00 that remain before either pays.
  const [one, two] = await Promise.all([startPart(bill, 'ALL', 1_500_000), startPart(bill, 'SBP', 1_000_000)]);
  const byCard = one.json().info;
  const bySbp = two.json().info;
  expect((await payByCard(server.app, byCard.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  await payBySbp(server.app, bySbp.data.payload);
  const now = await billNow(bill);
  expect(now).toMatchObject({ status: 'paid', paid: rub('2500000.00'), remaining: rub('0.00') });
  expect(now.payments.find((p: { orderId: string }) => p.orderId === bySbp.orderId)).toMatchObject({ status: 'refunded' });
  const told = (await eventsOf(bill)).map((event) => event.type);
  expect(told).toContain('payment.refunded');
  expect(told).toContain('refund.succeeded');
});

test('two tabs at once, the smaller part first: the larger keeps what remained and only its excess goes back', async () => {
  const bill = await newBill();
  const first = (await startPart(bill, 'ALL', 1_000_000)).json().info;
  expect((await payByCard(server.app, first.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  const [one, two] = await Promise.all([startPart(bill, 'SBP', 1_000_000), startPart(bill, 'ALL', 1_500_000)]);
  await payBySbp(server.app, one.json().info.data.payload);
  const late = two.json().info;
  expect((await payByCard(server.app, late.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  await server.app.background.idle();
  const now = await billNow(bill);
  // Never more than its amount: the later part keeps the 500 000.00 that remained; its other 1 000 000.00 goes back.
  expect(now).toMatchObject({ status: 'paid', paid: rub('2500000.00'), remaining: rub('0.00'), refunded: rub('0.00') });
  expect(now.payments.find((p: { orderId: string }) => p.orderId === late.orderId)).toMatchObject({ status: 'success', part: rub('1500000.00'), refunded: rub('1000000.00') });
  const refunds = (await merchantCall(server.app, 'GET', `/payments/${late.orderId}`)).json().refunds;
  expect(refunds).toEqual([expect.objectContaining({ automatic: true, status: 'succeeded', amount: rub('1000000.00'), reason: expect.stringContaining('more than remained') })]);
  // The refund's receipt returns the bill's positions by share, adding up to the excess to the kopeck.
  const returned = refunds[0].items as { amount: { value: string } }[];
  expect(returned.length).toBeGreaterThan(0);
  expect(returned.reduce((sum, item) => sum + Math.round(Number(item.amount.value) * 100), 0)).toBe(1_000_000_00);
  // At the acquirer: the order keeps its part less the excess.
  const { order } = await bundleOf(late.orderId);
  expect(order.refunded_amount).toBe(1_000_000_00);
  const told = await eventsOf(bill);
  const types = told.map((event) => event.type);
  expect(types).toEqual(expect.arrayContaining(['bill.partially_paid', 'bill.paid', 'refund.succeeded']));
  expect(types.filter((type) => type === 'bill.paid')).toHaveLength(1);
  // As a double payment: payment.refunded then refund.succeeded, the payment still the bill's, its refunded the excess.
  const refundedTold = told.filter((event) => event.type === 'payment.refunded');
  expect(refundedTold).toHaveLength(1);
  expect(refundedTold[0]!.data).toEqual({ objectOID: bill.objectOID, payment: expect.objectContaining({ orderId: late.orderId, status: 'success', part: rub('1500000.00'), refunded: rub('1000000.00') }) });
  expect(types.indexOf('payment.refunded')).toBeLessThan(types.indexOf('refund.succeeded'));
  expect(told.find((event) => event.type === 'refund.succeeded')!.data).toMatchObject({ refund: expect.objectContaining({ amount: rub('1000000.00'), automatic: true }) });
  // The bill paid says it kept exactly its amount, even before the excess went back.
  expect(told.find((event) => event.type === 'bill.paid')!.data).toMatchObject({ paid: rub('2500000.00'), remaining: rub('0.00') });
});

test('a refund of a part: paid shrinks, refunded says by how much, the bill stays paid', async () => {
  const bill = await newBill({ parts: { minimum: rub('100000.00') } });
  const infos = [];
  for (const part of [1_000_000, 1_500_000]) {
    const info = (await startPart(bill, 'ALL', part)).json().info;
    expect((await payByCard(server.app, info.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
    infos.push(info);
  }
  const refund = await merchantCall(server.app, 'POST', `/payments/${infos[0].orderId}/refunds`, { amount: rub('200000.00'), reason: 'Перерасчет' });
  expect(refund.statusCode).toBeLessThan(300);
  await server.app.background.idle();
  expect(await billNow(bill)).toMatchObject({ status: 'paid', paid: rub('2300000.00'), remaining: rub('0.00'), refunded: rub('200000.00') });
});

test('points are spent on one part only: the first paid with them; the next part cannot spend them', async () => {
  const customer = { custNo: `PARTS-${Date.now()}`, phone: '79995550101' };
  const bill = await newBill({ customer: { name: 'Покупатель', phone: customer.phone, custNo: customer.custNo }, points: { enabled: true, usefulLimit: 5000 } });
  expect((await merchantCall(server.app, 'POST', `/customers/${customer.custNo}/points`, { delta: 5000, reason: 'test' })).statusCode).toBe(200);
  const client = await new Client(server.app).open(bill.link);
  expect((await provePhone(client, customer.phone, 'use-points', bill.link)).statusCode).toBe(200);
  const pay = (points: number, partSum: number) =>
    client.post('/api/getPaymentUrl/', { pointsSum: points, partSum, objectOID: bill.link, cardTypeOID: `${bill.link}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null });
  const objectInfo = async () => (await server.app.inject({ method: 'GET', url: `/ajax/object-info/${bill.link}` })).json();
  expect((await objectInfo()).parts).toMatchObject({ pointsSpent: false });

  // The first part spends 2 000 points (a point is a rouble): its money is the part less them.
  const first = await pay(2000, 1_000_000);
  expect(first.statusCode).toBe(200);
  expect((await payByCard(server.app, first.json().info.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  expect((await billNow(bill)).payments[0]).toMatchObject({ status: 'success', part: rub('1000000.00'), pointsUsed: 2000, amount: rub('998000.00') });
  expect((await objectInfo()).parts).toMatchObject({ paid: 1_000_000, pointsSpent: true });

  // The next part may not spend the points left: refused, saying why, and nothing is made.
  const again = await pay(1000, 500_000);
  expect(again.statusCode).toBe(400);
  expect(JSON.stringify(again.json())).toContain('Баллы уже списаны в оплату другой части счета');
  expect((await billNow(bill)).payments).toHaveLength(1);
  // Without points it pays as any part.
  const next = await pay(0, 1_500_000);
  expect(next.statusCode).toBe(200);
  expect((await payByCard(server.app, next.json().info.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  expect(await billNow(bill)).toMatchObject({ status: 'paid', paid: rub('2500000.00') });
});
