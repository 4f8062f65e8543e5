import { orderNumberOf } from '../../../server/payments/start';
import { attemptByOrder } from '../../../server/payments/queries';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { webhookEvents } from '../../support/rows';
import { injectFetch } from '../../support/injectFetch';
import { Client, linkOf, merchantCall, payByCard, startServer, type TestServer } from '../helpers';

/*
 * The closing receipt at handover: a car bill prepaid by card (and one paid in two parts) is handed over through the
 * merchant API; each order that took the prepayment gets one full-settlement receipt at the sandbox acquirer's fiscal
 * API, its fate read after FISCAL_STATUS_DELAY_MS, told by receipt.registered or receipt.failed; a lost answer and a
 * failed receipt make no second receipt; the 409s hold.
 */

const DELAY = 60_000;
let server: TestServer;

beforeEach(async () => {
  // A short time-out, so a lost doReceipt answer is given up on soon.
  server = await startServer({ fiscalStatusDelayMs: DELAY, acquirerTimeoutMs: 500 });
});
afterEach(() => server.close());

const rub = (value: string) => ({ value, currency: 'RUB' });

interface Bill {
  objectOID: string;
  link: string;
}

/** A car: 3 000 000.00 for the car, 150 000.00 for its options (2.5 of 60 000.00), both full prepayment. */
async function carBill(body: Record<string, unknown> = {}): Promise<Bill> {
  const created = await merchantCall(server.app, 'POST', '/bills', {
    purpose: 'Автомобиль, предоплата',
    amount: rub('3150000.00'),
    customer: { name: 'Иван', email: 'ivan@example.ru', phone: '79161234567' },
    paymentTypes: [{ code: 'ALL', name: 'Банковская карта' }],
    items: [
      { name: 'Автомобиль', quantity: 1, price: rub('3000000.00'), vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity' },
      { name: 'Дополнительное оборудование', quantity: 2.5, price: rub('60000.00'), vat: 'vat22', paymentMethod: 'full_prepayment', paymentObject: 'commodity' },
    ],
    ...body,
  });
  expect(created.statusCode).toBe(201);
  const { objectOID, payUrl } = created.json<{ objectOID: string; payUrl: string }>();
  return { objectOID, link: linkOf(payUrl) };
}

/** Pays (a part of) the bill by card on its page; answers the order id. */
async function payCard(bill: Bill, partSum: number | null = null): Promise<string> {
  const client = await new Client(server.app).open(bill.link);
  const asked = await client.post('/api/getPaymentUrl/', { pointsSum: null, partSum, objectOID: bill.link, cardTypeOID: `${bill.link}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null });
  expect(asked.statusCode).toBe(200);
  const info = asked.json().info;
  expect((await payByCard(server.app, info.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  return info.orderId;
}

const handOver = (bill: Bill, headers: Record<string, string> = {}, body?: unknown) => merchantCall(server.app, 'POST', `/bills/${bill.objectOID}/handover`, body, headers);

/** The receipts the sandbox acquirer's fiscal API was sent for the payment's order. */
async function receiptsAtGateway(orderId: string) {
  const acquirerOrderId = (await attemptByOrder(server.app.store, orderId))!.acquirer_order_id!;
  const rows = await server.app.store.db.selectFrom('sandbox_fiscal_receipts').selectAll().where('order_id', '=', acquirerOrderId).orderBy('created_at').execute();
  return rows.map((row) => ({ ...row, bundle: JSON.parse(row.order_bundle) }));
}

const receiptEvents = async (bill: Bill) =>
  (await webhookEvents(server.app.store, 500))
    .reverse()
    .map((event) => ({ type: event.type, data: JSON.parse(event.payload).data }))
    .filter((event) => event.type.startsWith('receipt.') && event.data.objectOID === bill.objectOID);

/** Past the delay the gateway asks for, the sweep reads each receipt's fate. */
async function readFates() {
  server.clock.advance(DELAY);
  await server.app.gateway.sweep();
}

const fault = (name: 'receipt-failed' | 'receipt-cart-refused' | 'receipt-answer-lost', orderId: string, on = true) => server.app.rbsFake!.setFault(name, on, orderNumberOf(orderId));

test('a car prepaid by card, partly refunded, is handed over: one closing receipt of what was kept, full payment offsetting the prepayment, registered', async () => {
  const bill = await carBill();
  const orderId = await payCard(bill);
  // 10 000.00 of the options given back before the handover: the closing receipt settles what was kept.
  const refund = await merchantCall(server.app, 'POST', `/payments/${orderId}/refunds`, { amount: rub('10000.00'), items: [{ positionId: 2, amount: rub('10000.00') }] });
  expect(refund.statusCode).toBe(201);
  await server.app.gateway.makeRefunds(orderId);

  const key = { 'idempotency-key': 'handover-1' };
  const handedOverAt = new Date(server.clock.now() - 3_600_000).toISOString();
  const answer = await handOver(bill, key, { handedOverAt });
  expect(answer.statusCode).toBe(200);
  const [sent] = await receiptsAtGateway(orderId);
  expect(answer.json()).toEqual({
    objectOID: bill.objectOID,
    status: 'handed_over',
    handedOverAt,
    closingReceipts: [{ orderId, receiptId: sent!.receipt_id, status: 'pending', amount: rub('3140000.00') }],
  });

  // The receipt as the gateway got it: the order's positions as charged less the refund, each a full payment, paid by
  // offsetting the prepayment, to the payer's e-mail.
  expect(sent!.contact).toBe('payer@example.ru');
  expect(sent!.bundle).toEqual({
    ffdVersion: '1.2',
    receiptType: 'sell',
    payments: [{ type: 2, sum: 314_000_000 }],
    total: 314_000_000,
    cartItems: {
      items: [
        expect.objectContaining({ positionId: '1', name: 'Автомобиль', quantity: { value: 1, measure: 0 }, itemAmount: 300_000_000, itemPrice: 300_000_000, paymentMethod: 'full_payment', paymentObject: 'commodity', tax: { taxType: 14 } }),
        expect.objectContaining({ positionId: '2', name: 'Дополнительное оборудование', quantity: { value: 2.5, measure: 0 }, itemAmount: 14_000_000, itemPrice: 5_600_000, paymentMethod: 'full_payment' }),
      ],
    },
  });
  expect((await merchantCall(server.app, 'GET', `/bills/${bill.objectOID}`)).json()).toMatchObject({ status: 'handed_over', handedOverAt });

  // Not read before the gateway's delay: nothing told yet.
  await server.app.gateway.sweep();
  expect(await receiptEvents(bill)).toEqual([]);
  await readFates();
  const registered = { orderId, receiptId: sent!.receipt_id, status: 'registered', amount: rub('3140000.00') };
  expect(await receiptEvents(bill)).toEqual([{ type: 'receipt.registered', data: { objectOID: bill.objectOID, receipt: registered } }]);
  expect((await merchantCall(server.app, 'GET', `/bills/${bill.objectOID}`)).json().closingReceipts).toEqual([registered]);

  // The same key answers the same handover (as it now stands); another key is refused; no second receipt either way.
  const again = await handOver(bill, key, { handedOverAt });
  expect(again.statusCode).toBe(200);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.json().closingReceipts).toEqual([registered]);
  const another = await handOver(bill);
  expect(another.statusCode).toBe(409);
  expect(another.json().error.code).toBe('already_handed_over');
  expect(await receiptsAtGateway(orderId)).toHaveLength(1);
  // Handed over is paid for a cancel: refused as a paid bill is, not a fault.
  const cancel = await merchantCall(server.app, 'POST', `/bills/${bill.objectOID}/cancel`);
  expect(cancel.statusCode).toBe(409);
  expect(cancel.json().error.code).toBe('bill_paid');

  // The bill's link shows the paid receipt, saying the goods were handed over and where the closing receipt went.
  const page = await server.app.inject({ method: 'GET', url: `/ajax/object-info/${bill.link}` });
  expect(page.statusCode).toBe(409);
  expect(page.json().receipt.handover).toEqual({ at: handedOverAt, sentTo: 'pa***@example.ru' });
});

test('a bill paid in two parts: one closing receipt per order, each of its part, together the bill', async () => {
  const bill = await carBill({ parts: { minimum: rub('100000.00') } });
  const first = await payCard(bill, 1_000_000);
  server.clock.advance(60_000);
  const second = await payCard(bill, null);

  const answer = await handOver(bill);
  expect(answer.statusCode).toBe(200);
  const receipts = answer.json().closingReceipts;
  expect(receipts.map((r: { orderId: string; amount: unknown }) => [r.orderId, r.amount])).toEqual([
    [first, rub('1000000.00')],
    [second, rub('2150000.00')],
  ]);
  for (const [orderId, total] of [
    [first, 100_000_000],
    [second, 215_000_000],
  ] as const) {
    const [sent] = await receiptsAtGateway(orderId);
    expect(sent!.bundle.total).toBe(total);
    expect(sent!.bundle.payments).toEqual([{ type: 2, sum: total }]);
    expect(sent!.bundle.cartItems.items.reduce((sum: number, item: { itemAmount: number }) => sum + item.itemAmount, 0)).toBe(total);
    expect(sent!.bundle.cartItems.items.map((item: { paymentMethod: string }) => item.paymentMethod)).toEqual(['full_payment', 'full_payment']);
  }
  await readFates();
  expect((await receiptEvents(bill)).map((event) => [event.type, event.data.receipt.orderId])).toEqual([
    ['receipt.registered', first],
    ['receipt.registered', second],
  ]);
});

test('an excess still being given back at handover is no part of the closing receipts: together they are the bill', async () => {
  // refund.do never reaches the acquirer: the connection drops, so the excess's refund stays pending.
  const built: { app?: TestServer['app'] } = {};
  const toFake = injectFetch(() => built.app!);
  await server.close();
  server = await startServer({
    fiscalStatusDelayMs: DELAY,
    acquirerTimeoutMs: 500,
    acquirerFetch: async (input, init) => {
      if (String(input).endsWith('/refund.do')) throw new TypeError('fetch failed: socket hang up');
      return toFake(input, init);
    },
  });
  built.app = server.app;
  const bill = await carBill({ parts: { minimum: rub('100000.00') } });
  const first = await payCard(bill, 1_000_000);
  // Two more payers start their parts before either pays: together they pass the bill by 1 000 000.00.
  const open = async (partSum: number) => {
    const client = await new Client(server.app).open(bill.link);
    const asked = await client.post('/api/getPaymentUrl/', { pointsSum: null, partSum, objectOID: bill.link, cardTypeOID: `${bill.link}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null });
    expect(asked.statusCode).toBe(200);
    return asked.json().info as { orderId: string; formUrl: string };
  };
  server.clock.advance(60_000);
  const second = await open(1_000_000);
  server.clock.advance(60_000);
  const third = await open(2_150_000);
  expect((await payByCard(server.app, second.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  expect((await payByCard(server.app, third.formUrl, TEST_CARDS.pays)).statusCode).toBe(303);
  await server.app.background.idle();
  const refunds = await server.app.store.db.selectFrom('refunds').select(['kind', 'status', 'amount_kopecks']).where('order_id', '=', third.orderId).execute();
  expect(refunds.map((r) => ({ ...r, amount_kopecks: Number(r.amount_kopecks) }))).toEqual([{ kind: 'automatic', status: 'pending', amount_kopecks: 100_000_000 }]);

  const answer = await handOver(bill);
  expect(answer.statusCode).toBe(200);
  expect(answer.json().closingReceipts.map((r: { orderId: string; amount: unknown }) => [r.orderId, r.amount])).toEqual([
    [first, rub('1000000.00')],
    [second.orderId, rub('1000000.00')],
    [third.orderId, rub('1150000.00')],
  ]);
  const [sent] = await receiptsAtGateway(third.orderId);
  expect(sent!.bundle.total).toBe(115_000_000);
  expect(sent!.bundle.cartItems.items.reduce((sum: number, item: { itemAmount: number }) => sum + item.itemAmount, 0)).toBe(115_000_000);
});

test("a lost answer to doReceipt is settled by the order's receipts: no second receipt", async () => {
  const bill = await carBill();
  const orderId = await payCard(bill);
  fault('receipt-answer-lost', orderId);

  const answer = await handOver(bill);
  expect(answer.statusCode).toBe(200);
  expect(answer.json().closingReceipts).toEqual([{ orderId, receiptId: null, status: 'pending', amount: rub('3150000.00') }]);
  fault('receipt-answer-lost', orderId, false);
  const [made] = await receiptsAtGateway(orderId);

  // Nothing is sent again before the delay, nor after it: the order's new receipt is this one's.
  await server.app.gateway.sweep();
  await readFates();
  const receipts = await receiptsAtGateway(orderId);
  expect(receipts.map((r) => r.receipt_id)).toEqual([made!.receipt_id]);
  expect((await receiptEvents(bill)).map((event) => [event.type, event.data.receipt])).toEqual([
    ['receipt.registered', { orderId, receiptId: made!.receipt_id, status: 'registered', amount: rub('3150000.00') }],
  ]);
});

test('a failed receipt the gateway asks to send again unchanged is retried (retryReceipt), not sent twice, and registers', async () => {
  const bill = await carBill();
  const orderId = await payCard(bill);
  fault('receipt-failed', orderId);
  const [receipt] = (await handOver(bill)).json().closingReceipts;
  // The fiscal data operator's fault is over by the time the server reads the failure.
  fault('receipt-failed', orderId, false);

  await readFates();
  expect(await receiptEvents(bill)).toEqual([
    {
      type: 'receipt.failed',
      data: {
        objectOID: bill.objectOID,
        receipt: { orderId, receiptId: receipt.receiptId, status: 'pending', amount: rub('3150000.00') },
        failure: { receiptStatus: 4, message: 'ОФД не ответил: чек не зарегистрирован', recommendation: 1, next: 'retried' },
      },
    },
  ]);
  await readFates();
  expect((await receiptEvents(bill)).map((event) => event.type)).toEqual(['receipt.failed', 'receipt.registered']);
  const receipts = await receiptsAtGateway(orderId);
  expect(receipts.map((r) => [r.receipt_id, r.receipt_status])).toEqual([[receipt.receiptId, 3]]);
});

test('a receipt that keeps failing stays failed after its resends, saying why', async () => {
  const bill = await carBill();
  const orderId = await payCard(bill);
  fault('receipt-failed', orderId);
  await handOver(bill);
  for (let read = 0; read < 5; read++) await readFates();
  const [closing] = (await merchantCall(server.app, 'GET', `/bills/${bill.objectOID}`)).json().closingReceipts;
  expect(closing).toMatchObject({ orderId, status: 'failed', error: expect.stringContaining('sent 4 times, it failed every time') });
  const told = await receiptEvents(bill);
  expect(told.map((event) => event.data.failure.next)).toEqual(['retried', 'retried', 'retried', 'none']);
  expect(await receiptsAtGateway(orderId)).toHaveLength(1);
});

test('a receipt the gateway asks to correct, whose cart is as the records are, stays failed and says why', async () => {
  const bill = await carBill();
  const orderId = await payCard(bill);
  fault('receipt-cart-refused', orderId);
  await handOver(bill);
  await readFates();
  const [closing] = (await merchantCall(server.app, 'GET', `/bills/${bill.objectOID}`)).json().closingReceipts;
  expect(closing).toMatchObject({ status: 'failed', error: expect.stringContaining('the gateway asks to correct the cart, but it is as the payments\' records are') });
  expect((await receiptEvents(bill)).map((event) => [event.type, event.data.failure])).toEqual([
    ['receipt.failed', { receiptStatus: 4, message: 'Сумма позиций не совпадает с итогом чека', recommendation: 2, next: 'none' }],
  ]);
  expect(await receiptsAtGateway(orderId)).toHaveLength(1);
});

test('a receipt the gateway asks to correct is corrected when the records now make another cart: doReceipt naming the failed receipt', async () => {
  const bill = await carBill();
  const orderId = await payCard(bill);
  fault('receipt-cart-refused', orderId);
  const [first] = (await handOver(bill)).json().closingReceipts;
  // The merchant corrects its receipt format meanwhile (units in words), and the operator's complaint is over.
  server.app.appOptions.fiscal.ffd = '1.05';
  fault('receipt-cart-refused', orderId, false);

  await readFates();
  const [failed, corrected] = await receiptsAtGateway(orderId);
  expect(failed!.receipt_id).toBe(first.receiptId);
  expect(corrected).toMatchObject({ orig_receipt_id: first.receiptId, receipt_status: 3 });
  expect(corrected!.bundle.ffdVersion).toBe('1.05');
  expect(corrected!.bundle.cartItems.items[0].quantity).toEqual({ value: 1, measure: 'шт' });
  await readFates();
  expect((await receiptEvents(bill)).map((event) => [event.type, event.data.receipt.receiptId, event.data.failure?.next])).toEqual([
    ['receipt.failed', first.receiptId, 'corrected'],
    ['receipt.registered', corrected!.receipt_id, undefined],
  ]);
});

test('409 nothing_to_close: a bill not paid in full, or whose receipt was no prepayment; 404 for no bill', async () => {
  const unpaid = await carBill();
  const refused = await handOver(unpaid);
  expect(refused.statusCode).toBe(409);
  expect(refused.json().error).toEqual({ code: 'nothing_to_close', message: 'The bill is not paid in full: only a paid bill can be handed over' });

  const partly = await carBill({ parts: { minimum: rub('100000.00') } });
  await payCard(partly, 1_000_000);
  expect((await handOver(partly)).json().error.code).toBe('nothing_to_close');

  const settled = await carBill({
    amount: rub('100000.00'),
    items: [{ name: 'Шины', quantity: 4, price: rub('25000.00'), vat: 'vat22', paymentMethod: 'full_payment', paymentObject: 'commodity' }],
  });
  await payCard(settled);
  const notPrepaid = await handOver(settled);
  expect(notPrepaid.statusCode).toBe(409);
  expect(notPrepaid.json().error.code).toBe('nothing_to_close');
  expect((await merchantCall(server.app, 'GET', `/bills/${settled.objectOID}`)).json().status).toBe('paid');

  expect((await merchantCall(server.app, 'POST', '/bills/no-such-bill/handover')).statusCode).toBe(404);
  const future = await handOver(unpaid, {}, { handedOverAt: new Date(server.clock.now() + 3_600_000).toISOString() });
  expect(future.statusCode).toBe(400);
  expect(future.json().error.fields).toEqual([{ field: 'handedOverAt', message: 'is in the future: the goods must be handed over already' }]);
});

test('a refund after the handover returns full-payment positions (what was handed over comes back)', async () => {
  const bill = await carBill();
  const orderId = await payCard(bill);
  expect((await handOver(bill)).statusCode).toBe(200);
  const refund = await merchantCall(server.app, 'POST', `/payments/${orderId}/refunds`, { amount: rub('60000.00'), items: [{ positionId: 2, amount: rub('60000.00'), quantity: 1 }] });
  expect(refund.statusCode).toBe(201);
  await server.app.gateway.makeRefunds(orderId);
  expect((await merchantCall(server.app, 'GET', `/payments/${orderId}`)).json().refunds[0].status).toBe('succeeded');
  const exchanges = await server.app.store.db.selectFrom('acquirer_exchanges').selectAll().where('method', '=', 'refund.do').execute();
  const sentItems = JSON.parse(JSON.parse(exchanges.at(-1)!.request).refundItems).items;
  expect(sentItems).toEqual([expect.objectContaining({ positionId: '2', itemAmount: 6_000_000 })]);
  expect(sentItems[0].itemAttributes.attributes).toContainEqual({ name: 'paymentMethod', value: '4' });
});
