import type { FastifyInstance } from 'fastify';
import { ORDER_STATUS, rbsClient } from '../../../server/acquirer/rbs';
import { SANDBOX_ACQUIRER } from '../../../server/config';
import { attemptByOrder } from '../../../server/payments/queries';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { HOLD_LIFETIME_MS } from '../../../server/sandbox/rbsFake';
import { injectFetch } from '../../support/injectFetch';
import { exchangesOfAttempt, ledgerOfCustomer, webhookEvents } from '../../support/rows';
import { linkOf, merchantCall, newIdempotencyKey, openPage, payBillByCard, payByCard, provePhone, rbsFault, secondProcess, startServer, type TestServer } from '../helpers';

/*
 * Deposits through the merchant API and the payer's card: a bill that captures by hand holds the money; the merchant
 * captures it (all or a part, the receipt for what is taken) or releases it; the server releases a hold nobody settled
 * at its heldUntil (a day after warning the merchant); the acquirer's answer lost is settled by reading the order.
 */

let server: TestServer;
let second: FastifyInstance;
const HOLD_MS = 561_600_000;
const DAY = 24 * 3_600_000;

beforeAll(async () => {
  // Four seconds for a call to the acquirer: a lost answer costs that long.
  server = await startServer({ acquirerTimeoutMs: 4000 });
  second = await secondProcess(server);
}, 60_000);
afterAll(async () => {
  await second?.close();
  await server?.close();
});

const rub = (value: string) => ({ value, currency: 'RUB' });

/** A deposit bill of `amount` roubles with two positions, that captures by hand. */
async function depositBill(amount = '150000.00') {
  const half = (Number(amount) / 2).toFixed(2);
  const created = await merchantCall(server.app, 'POST', '/bills', {
    purpose: 'Бронь автомобиля',
    amount: rub(amount),
    capture: 'manual',
    paymentTypes: [{ code: 'ALL', name: 'Карта' }],
    items: [
      { name: 'Бронь автомобиля', quantity: 1, price: rub(half), vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'service' },
      { name: 'Оформление договора', quantity: 1, price: rub(half), vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'service' },
    ],
  });
  expect(created.statusCode).toBe(201);
  return created.json<{ objectOID: string; payUrl: string; capture: string }>();
}

/** The payer pays the bill by card on its page: the acquirer holds the money. Answers the payment's order id. */
async function held(bill: { payUrl: string }) {
  const orderId = await payBillByCard(server.app, linkOf(bill.payUrl), TEST_CARDS.pays);
  await server.app.background.idle();
  return orderId;
}

const payment = async (orderId: string) => (await merchantCall(server.app, 'GET', `/payments/${orderId}`)).json();
const bill = async (objectOID: string) => (await merchantCall(server.app, 'GET', `/bills/${objectOID}`)).json();

/** The webhooks told of a bill, oldest first: their types and data. */
async function told(objectOID: string) {
  const events = (await webhookEvents(server.app.store, 1000)).map((event) => ({ type: event.type, data: JSON.parse(event.payload).data }));
  return events.filter((event) => event.data.objectOID === objectOID).reverse();
}

const bankOffice = () =>
  rbsClient({ baseUrl: `${server.app.appOptions.publicUrl}${SANDBOX_ACQUIRER.path}`, credentials: SANDBOX_ACQUIRER.credentials, fetch: injectFetch(() => server.app), timeoutMs: 20_000 });

const sentOf = async (orderId: string, method: string) => (await exchangesOfAttempt(server.app.store, orderId)).filter((exchange) => exchange.method === method).length;

test('a 150 000 ₽ deposit is held through the page, then captured at 100 000: the rest released, the receipt for 100 000', async () => {
  const created = await depositBill();
  expect(created.capture).toBe('manual');
  const heldAt = server.clock.now();
  const orderId = await held(created);
  // Held, not paid: with when the server releases it by itself.
  expect(await payment(orderId)).toMatchObject({ status: 'held', amount: rub('150000.00'), heldUntil: new Date(heldAt + HOLD_MS).toISOString() });
  expect((await bill(created.objectOID)).status).toBe('held');
  // Its link says the money is held: not that the bill expired or was cancelled (it is neither).
  const link = await server.app.inject({ method: 'GET', url: `/ajax/object-info/${linkOf(created.payUrl)}` });
  expect(link.statusCode).toBe(409);
  expect(link.json()).toMatchObject({ error: 'Сумма заблокирована на карте' });
  expect(link.json().closedAs).toBeUndefined();
  // The listing's filter by status reads the state (a hold is stored as pending).
  const listed = async (status: string) => (await merchantCall(server.app, 'GET', `/payments?status=${status}&limit=100`)).json().data.map((one: { orderId: string }) => one.orderId);
  expect(await listed('held')).toContain(orderId);
  expect(await listed('created')).not.toContain(orderId);
  // The acquirer was asked to hold it, not to take it.
  expect(await sentOf(orderId, 'registerPreAuth.do')).toBe(1);
  expect(await sentOf(orderId, 'register.do')).toBe(0);

  const captured = await merchantCall(server.app, 'POST', `/payments/${orderId}/capture`, { amount: rub('100000.00') });
  expect(captured.statusCode).toBe(200);
  expect(captured.json()).toMatchObject({ status: 'success', amount: rub('100000.00'), heldUntil: null });
  // The receipt is for what was captured: its positions add up to it exactly.
  const items = captured.json().receipt.items as { amount: { value: string } }[];
  expect(items.reduce((sum, item) => sum + Math.round(Number(item.amount.value) * 100), 0)).toBe(10_000_000);
  expect((await bill(created.objectOID)).status).toBe('paid');

  // At the acquirer: 100 000 taken, with the receipt of the positions taken.
  const mdOrder = (await attemptByOrder(server.app.store, orderId))!.acquirer_order_id!;
  const order = (await server.app.rbsFake!.order({ orderId: mdOrder }))!;
  expect(order).toMatchObject({ order_status: ORDER_STATUS.deposited, deposited_amount: 10_000_000 });
  const taken = JSON.parse(order.deposited_bundle!).cartItems.items as { itemAmount: number }[];
  expect(taken.reduce((sum, item) => sum + item.itemAmount, 0)).toBe(10_000_000);
  expect((await bankOffice().orderStatus({ orderId: mdOrder })).depositedAmount).toBe(10_000_000);

  const events = await told(created.objectOID);
  expect(events.map((event) => event.type)).toEqual(['payment.held', 'payment.succeeded', 'bill.paid']);
  // The bill was paid what was taken, not what was held: its answer, its webhook and the payment's part say so.
  expect(events[2]!.data).toMatchObject({ paid: rub('100000.00'), remaining: rub('0.00') });
  expect(await bill(created.objectOID)).toMatchObject({ paid: rub('100000.00'), remaining: rub('0.00') });
  expect(await payment(orderId)).toMatchObject({ amount: rub('100000.00'), part: rub('100000.00') });
  // A refund of the captured payment gives back at most what was taken.
  const refund = await merchantCall(server.app, 'POST', `/payments/${orderId}/refunds`, { amount: rub('100000.01') });
  expect(refund.json().error.code).toBe('refund_exceeds_remaining');
  expect((await merchantCall(server.app, 'POST', `/payments/${orderId}/refunds`, {})).statusCode).toBe(201);
  await server.app.background.idle();
  expect((await payment(orderId)).refunded).toEqual(rub('100000.00'));
  // All of it given back: the bill keeps nothing.
  expect(await bill(created.objectOID)).toMatchObject({ paid: rub('0.00'), refunded: rub('100000.00') });
});

test('a hold released by the merchant: payment.released (merchant), the bill unpaid and payable again', async () => {
  const created = await depositBill('50000.00');
  const orderId = await held(created);
  const released = await merchantCall(server.app, 'POST', `/payments/${orderId}/release`);
  expect(released.statusCode).toBe(200);
  expect(released.json()).toMatchObject({ status: 'released', heldUntil: null });
  expect((await bill(created.objectOID)).status).toBe('unpaid');
  const events = await told(created.objectOID);
  expect(events.map((event) => event.type)).toEqual(['payment.held', 'payment.released']);
  expect(events[1]!.data).toMatchObject({ reason: 'merchant', payment: { status: 'released' } });
  // Released at the acquirer, nothing taken, no receipt.
  const mdOrder = (await attemptByOrder(server.app.store, orderId))!.acquirer_order_id!;
  expect((await server.app.rbsFake!.order({ orderId: mdOrder }))!).toMatchObject({ order_status: ORDER_STATUS.reversed, deposited_amount: 0 });
  // 'Попробовать снова' from the result page: the bill's link says the hold was let go, not that the bank declined.
  const client = await openPage(server.app, linkOf(created.payUrl));
  const retry = (await client.get(`/ajax/object-info/${linkOf(created.payUrl)}?retry=${orderId}`)).json().retry;
  expect(retry).toMatchObject({ released: true, amount: 50000, reason: null });
  // The bill's plain link says it too: its last attempt is the hold let go.
  const plain = (await client.get(`/ajax/object-info/${linkOf(created.payUrl)}`)).json();
  expect(plain.retry).toBeNull();
  expect(plain.releasedHold).toEqual({ cardTypeOID: `${linkOf(created.payUrl)}.ALL`, amount: 50000 });
  // Released twice, or captured after it: not held.
  expect((await merchantCall(server.app, 'POST', `/payments/${orderId}/release`)).json().error.code).toBe('payment_not_held');
  expect((await merchantCall(server.app, 'POST', `/payments/${orderId}/capture`)).json().error.code).toBe('payment_not_held');
  // Tried again: the release is no longer the bill's last word.
  const link = linkOf(created.payUrl);
  await client.post('/api/getPaymentUrl/', { pointsSum: null, objectOID: link, cardTypeOID: `${link}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null });
  expect((await client.get(`/ajax/object-info/${link}`)).json().releasedHold).toBeNull();
  // Paid again, by a new hold.
  const again = await held(created);
  expect(again).not.toBe(orderId);
  expect((await payment(again)).status).toBe('held');
});

test('a hold for a bill that expired or was cancelled while the payer was on the form is released at once: payment.released (expired)', async () => {
  for (const closes of ['expires', 'is cancelled'] as const) {
    const created = await merchantCall(server.app, 'POST', '/bills', {
      purpose: 'Бронь автомобиля',
      amount: rub('150000.00'),
      capture: 'manual',
      expiresAt: new Date(server.clock.now() + 60_000).toISOString(),
      paymentTypes: [{ code: 'ALL', name: 'Карта' }],
    });
    expect(created.statusCode).toBe(201);
    const { objectOID, payUrl } = created.json<{ objectOID: string; payUrl: string }>();
    const link = linkOf(payUrl);
    // The payer opens the card form; the bill then ends before the payer submits it.
    const client = await openPage(server.app, link);
    const started = (await client.post('/api/getPaymentUrl/', { pointsSum: null, objectOID: link, cardTypeOID: `${link}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null })).json();
    const orderId = started.info.orderId as string;
    if (closes === 'expires') server.clock.advance(61_000);
    else expect((await merchantCall(server.app, 'POST', `/bills/${objectOID}/cancel`)).statusCode).toBe(200);
    expect((await payByCard(server.app, started.info.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
    await server.app.background.idle();

    // Let go at the acquirer, nothing taken; the bill stays as it ended, keeping no money.
    expect(await payment(orderId)).toMatchObject({ status: 'released', heldUntil: null });
    const mdOrder = (await attemptByOrder(server.app.store, orderId))!.acquirer_order_id!;
    expect((await server.app.rbsFake!.order({ orderId: mdOrder }))!).toMatchObject({ order_status: ORDER_STATUS.reversed, deposited_amount: 0 });
    expect(await bill(objectOID)).toMatchObject({ status: closes === 'expires' ? 'expired' : 'cancelled', paid: rub('0.00') });
    const events = (await told(objectOID)).filter((event) => event.type.startsWith('payment.'));
    expect(events.map((event) => event.type)).toEqual(['payment.released']);
    expect(events[0]!.data).toMatchObject({ reason: 'expired', payment: { status: 'released' } });
    // Nothing left for the merchant to release or capture; the payer hears it was let go.
    expect((await merchantCall(server.app, 'POST', `/payments/${orderId}/release`)).json().error.code).toBe('payment_not_held');
    expect((await client.post('/api/getResult/', { transactionID: orderId, billOID: link })).json()).toMatchObject({ status: 'released' });
  }
});

test("the payer's poll: held with the amount and when the hold ends, no receipt; after a capture paid with its receipt; after a release released", async () => {
  /** The payer pays on the bill's page, then polls as the result page does, in the same session. */
  async function heldByPayer(amount: string) {
    const created = await depositBill(amount);
    const link = linkOf(created.payUrl);
    const client = await openPage(server.app, link);
    const started = (await client.post('/api/getPaymentUrl/', { pointsSum: null, objectOID: link, cardTypeOID: `${link}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null })).json();
    const heldAt = server.clock.now();
    await payByCard(server.app, started.info.formUrl, TEST_CARDS.pays);
    await server.app.background.idle();
    const orderId = started.info.orderId as string;
    return { orderId, heldAt, poll: async () => (await client.post('/api/getResult/', { transactionID: orderId, billOID: link })).json() };
  }

  const captured = await heldByPayer('150000.00');
  const held = await captured.poll();
  expect(held).toEqual({ success: true, status: 'held', objectOID: expect.any(String), hold: { amount: 150000, until: new Date(captured.heldAt + HOLD_MS).toISOString() } });
  expect((await merchantCall(server.app, 'POST', `/payments/${captured.orderId}/capture`, { amount: rub('100000.00') })).statusCode).toBe(200);
  const paid = await captured.poll();
  expect(paid).toMatchObject({ status: 'success', receipt: { status: 'success', amount: 100000 } });
  // Its positions are those taken (each 75 000 lowered to its share of 100 000), not the bill's whole 150 000.
  expect(paid.receipt.items.map((item: { name: string; amount: number }) => [item.name, item.amount])).toEqual([
    ['Бронь автомобиля', 50000],
    ['Оформление договора', 50000],
  ]);
  expect(paid.hold).toBeUndefined();

  const released = await heldByPayer('50000.00');
  expect((await released.poll()).status).toBe('held');
  expect((await merchantCall(server.app, 'POST', `/payments/${released.orderId}/release`)).statusCode).toBe(200);
  expect(await released.poll()).toEqual({ success: true, status: 'released', objectOID: expect.any(String) });
});

test('points on a deposit are written off once, at the capture: not while held, never after a release', async () => {
  /** A 100 000 ₽ deposit of customer `custNo` (1 000 points given), held with 1 000 points and the rest by card. */
  async function heldWithPoints(custNo: string, phone: string) {
    const created = await merchantCall(server.app, 'POST', '/bills', {
      purpose: 'Бронь квартиры',
      amount: rub('100000.00'),
      capture: 'manual',
      customer: { name: 'Иванов Иван', phone, custNo },
      points: { enabled: true, usefulLimit: 5000 },
      paymentTypes: [{ code: 'ALL', name: 'Банковская карта' }],
    });
    expect(created.statusCode).toBe(201);
    const link = linkOf(created.json().payUrl);
    await merchantCall(server.app, 'POST', `/customers/${custNo}/points`, { delta: 1000, reason: 'test' });
    const client = await openPage(server.app, link);
    expect((await provePhone(client, phone, 'use-points', link)).statusCode).toBe(200);
    const started = (await client.post('/api/getPaymentUrl/', { pointsSum: 1000, objectOID: link, cardTypeOID: `${link}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null })).json();
    await payByCard(server.app, started.info.formUrl, TEST_CARDS.pays);
    await server.app.background.idle();
    return started.info.orderId as string;
  }
  const ledger = async (custNo: string) => (await ledgerOfCustomer(server.app.store, custNo)).map((entry) => [entry.delta, entry.reason]);

  const captured = await heldWithPoints('HOLD-1', '79990004001');
  expect(await payment(captured)).toMatchObject({ status: 'held', pointsUsed: 1000, amount: rub('99000.00') });
  // Held: the points are not spent yet.
  expect(await ledger('HOLD-1')).toEqual([[1000, 'test']]);
  expect((await merchantCall(server.app, 'POST', `/payments/${captured}/capture`, {})).statusCode).toBe(200);
  expect(await ledger('HOLD-1')).toEqual([[1000, 'test'], [-1000, 'payment']]);
  // A second capture is refused and spends nothing more.
  expect((await merchantCall(server.app, 'POST', `/payments/${captured}/capture`, {})).json().error.code).toBe('payment_not_held');
  expect(await ledger('HOLD-1')).toEqual([[1000, 'test'], [-1000, 'payment']]);
  expect((await merchantCall(server.app, 'GET', '/customers/HOLD-1/points')).json().balance).toBe(0);

  const released = await heldWithPoints('HOLD-2', '79990004002');
  expect((await merchantCall(server.app, 'POST', `/payments/${released}/release`)).statusCode).toBe(200);
  expect(await ledger('HOLD-2')).toEqual([[1000, 'test']]);
  expect((await merchantCall(server.app, 'GET', '/customers/HOLD-2/points')).json().balance).toBe(1000);
});

test('a hold nobody settles: payment.hold_expiring a day before heldUntil, then released by the server (expired)', async () => {
  const created = await depositBill('70000.00');
  const orderId = await held(created);
  const heldUntil = Date.parse((await payment(orderId)).heldUntil);
  // Not yet a day before: nothing to tell.
  server.clock.advance(heldUntil - DAY - server.clock.now() - 1);
  await second.gateway.sweep();
  expect((await told(created.objectOID)).map((event) => event.type)).toEqual(['payment.held']);
  // A day before: told once, whichever processes sweep.
  server.clock.advance(1);
  await Promise.all([second.gateway.sweep(), server.app.gateway.sweep()]);
  await server.app.gateway.sweep();
  expect((await told(created.objectOID)).map((event) => event.type)).toEqual(['payment.held', 'payment.hold_expiring']);
  expect((await payment(orderId)).status).toBe('held');
  // At heldUntil the server releases it.
  server.clock.advance(DAY);
  await second.gateway.sweep();
  const events = await told(created.objectOID);
  expect(events.map((event) => event.type)).toEqual(['payment.held', 'payment.hold_expiring', 'payment.released']);
  expect(events[2]!.data).toMatchObject({ reason: 'expired' });
  expect((await payment(orderId)).status).toBe('released');
  expect((await bill(created.objectOID)).status).toBe('unpaid');
});

test('the 409s: capture or release of a payment not held, a capture above the hold, a refund of a hold, a cancel of a held bill', async () => {
  const created = await depositBill('10000.00');
  const orderId = await held(created);
  const code = async (url: string, body?: unknown) => (await merchantCall(server.app, 'POST', url, body)).json().error?.code;
  expect(await code(`/payments/${orderId}/capture`, { amount: rub('10000.01') })).toBe('capture_exceeds_held');
  expect(await code(`/payments/${orderId}/refunds`, {})).toBe('payment_held');
  expect(await code(`/bills/${created.objectOID}/cancel`)).toBe('bill_held');
  expect(await code(`/payments/${orderId}/capture`, { amount: rub('0.00') })).toBe('invalid_request');
  // Still held after every refusal.
  expect((await payment(orderId)).status).toBe('held');
  expect((await merchantCall(server.app, 'POST', `/payments/${orderId}/capture`)).json().status).toBe('success');
  expect(await code(`/payments/${orderId}/capture`)).toBe('payment_not_held');
  expect(await code(`/payments/${orderId}/release`)).toBe('payment_not_held');
  // A payment of a bill that takes the money at once is never held.
  const automatic = (await merchantCall(server.app, 'POST', '/bills', { purpose: 'Оплата', amount: rub('100.00'), paymentTypes: [{ code: 'ALL', name: 'Карта' }] })).json();
  expect(automatic.capture).toBe('automatic');
  const paid = await payBillByCard(server.app, linkOf(automatic.payUrl), TEST_CARDS.pays);
  await server.app.background.idle();
  expect(await code(`/payments/${paid}/release`)).toBe('payment_not_held');
  expect(await code('/payments/no-such-order/capture')).toBe('not_found');
});

test('a bill that captures by hand offers cards only: the fast-payment system cannot hold', async () => {
  const refused = await merchantCall(server.app, 'POST', '/bills', {
    purpose: 'Бронь',
    amount: rub('1000.00'),
    capture: 'manual',
    paymentTypes: [
      { code: 'ALL', name: 'Карта' },
      { code: 'SBP', name: 'СБП' },
    ],
  });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().error.fields).toEqual([{ field: 'paymentTypes[1].code', message: 'cannot hold money: a bill with capture manual takes cards only' }]);
  // The default ways to pay, of which only the card can hold.
  const created = await merchantCall(server.app, 'POST', '/bills', { purpose: 'Бронь', amount: rub('1000.00'), capture: 'manual' });
  expect(created.json().paymentTypes.map((type: { code: string }) => type.code)).toEqual(['ALL']);
});

test('a capture whose answer is lost is settled by reading the order, never by sending deposit.do again', async () => {
  const created = await depositBill('20000.00');
  const orderId = await held(created);
  await rbsFault(server.app, 'deposit-answer-lost', true, orderId);
  const captured = await server.timeOutHeldAnswers(orderId, merchantCall(server.app, 'POST', `/payments/${orderId}/capture`));
  expect(captured.json()).toMatchObject({ status: 'success', amount: rub('20000.00') });
  expect(await sentOf(orderId, 'deposit.do')).toBe(1);
  // Its answer never came: the order's status read back told it.
  expect((await exchangesOfAttempt(server.app.store, orderId)).find((exchange) => exchange.method === 'deposit.do')!.error).toMatch(/deposit.do/);
  expect((await told(created.objectOID)).map((event) => event.type)).toEqual(['payment.held', 'payment.succeeded', 'bill.paid']);
}, 30_000);

test('a capture left capturing (its answer lost, the order unreadable) is settled by the same request again reading the order: deposit.do once', async () => {
  const created = await depositBill('35000.00');
  const orderId = await held(created);
  await rbsFault(server.app, 'deposit-answer-lost', true, orderId);
  await rbsFault(server.app, 'status-slow', true, orderId);
  const key = { 'idempotency-key': newIdempotencyKey() };
  expect((await server.timeOutHeldAnswers(orderId, merchantCall(server.app, 'POST', `/payments/${orderId}/capture`, undefined, key))).json().error.code).toBe('acquirer_unavailable');
  expect((await attemptByOrder(server.app.store, orderId))!.state).toBe('capturing');
  // Another capture meanwhile is refused: one is under way.
  expect((await merchantCall(second, 'POST', `/payments/${orderId}/capture`)).json().error.code).toBe('payment_not_held');
  await rbsFault(server.app, 'status-slow', false, orderId);
  const again = await merchantCall(second, 'POST', `/payments/${orderId}/capture`, undefined, key);
  expect(again.json()).toMatchObject({ status: 'success', amount: rub('35000.00') });
  expect(await sentOf(orderId, 'deposit.do')).toBe(1);
}, 30_000);

test('a capture refused and its order still held: still held, capturable again', async () => {
  const created = await depositBill('30000.00');
  const orderId = await held(created);
  await rbsFault(server.app, 'deposit-refused', true, orderId);
  expect((await merchantCall(server.app, 'POST', `/payments/${orderId}/capture`)).json().error.code).toBe('acquirer_unavailable');
  expect((await payment(orderId)).status).toBe('held');
  await rbsFault(server.app, 'deposit-refused', false, orderId);
  expect((await merchantCall(server.app, 'POST', `/payments/${orderId}/capture`)).json().status).toBe('success');
});

test('two captures racing in two processes with two keys take the money once', async () => {
  const created = await depositBill('40000.00');
  const orderId = await held(created);
  const [one, two] = await Promise.all([
    merchantCall(server.app, 'POST', `/payments/${orderId}/capture`, { amount: rub('30000.00') }, { 'idempotency-key': newIdempotencyKey() }),
    merchantCall(second, 'POST', `/payments/${orderId}/capture`, { amount: rub('40000.00') }, { 'idempotency-key': newIdempotencyKey() }),
  ]);
  const answers = [one, two].map((answer) => answer.json());
  const won = answers.filter((answer) => answer.status === 'success');
  expect(won).toHaveLength(1);
  expect(answers.filter((answer) => answer.error?.code === 'payment_not_held')).toHaveLength(1);
  expect(await sentOf(orderId, 'deposit.do')).toBe(1);
  expect((await payment(orderId)).amount).toEqual(won[0].amount);
  expect((await told(created.objectOID)).filter((event) => event.type === 'payment.succeeded')).toHaveLength(1);
});

test('the same capture again (its Idempotency-Key) answers the payment and sends nothing more', async () => {
  const created = await depositBill('25000.00');
  const orderId = await held(created);
  const key = { 'idempotency-key': newIdempotencyKey() };
  const first = await merchantCall(server.app, 'POST', `/payments/${orderId}/capture`, { amount: rub('5000.00') }, key);
  const again = await merchantCall(second, 'POST', `/payments/${orderId}/capture`, { amount: rub('5000.00') }, key);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.json()).toEqual(first.json());
  expect(await sentOf(orderId, 'deposit.do')).toBe(1);
});

test('the sandbox acquirer ends a hold by itself after seven days (declinedByTimeout) on its clock', async () => {
  const created = await depositBill('15000.00');
  const orderId = await held(created);
  const mdOrder = (await attemptByOrder(server.app.store, orderId))!.acquirer_order_id!;
  await rbsFault(server.app, 'callback-lost', true, orderId);
  server.clock.advance(HOLD_LIFETIME_MS + 1);
  const status = await bankOffice().orderStatus({ orderId: mdOrder });
  expect(status).toMatchObject({ orderStatus: ORDER_STATUS.declined, actionCode: -2007 });
  // The server reads it as the hold's end: released, its time ran out.
  await server.app.gateway.reconcile(orderId);
  expect((await payment(orderId)).status).toBe('released');
  expect((await told(created.objectOID)).at(-1)).toMatchObject({ type: 'payment.released', data: { reason: 'expired' } });
});

test("the sandbox acquirer's reverse.do lets go of a part of a hold, the rest held; deposit.do then takes at most the rest", async () => {
  const created = await depositBill('12000.00');
  const orderId = await held(created);
  const mdOrder = (await attemptByOrder(server.app.store, orderId))!.acquirer_order_id!;
  await bankOffice().reverse({ orderId: mdOrder, amount: 200_000 });
  expect(await bankOffice().orderStatus({ orderId: mdOrder })).toMatchObject({ orderStatus: ORDER_STATUS.held, amount: 1_000_000 });
  await expect(bankOffice().deposit({ orderId: mdOrder, amount: 1_000_001 })).rejects.toThrow(/больше заблокированной/);
  await bankOffice().deposit({ orderId: mdOrder, amount: 0 });
  expect(await bankOffice().orderStatus({ orderId: mdOrder })).toMatchObject({ orderStatus: ORDER_STATUS.deposited, depositedAmount: 1_000_000 });
});
