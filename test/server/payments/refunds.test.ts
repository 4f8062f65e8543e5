import type { FastifyInstance } from 'fastify';
import { linkOf, merchantCall, newIdempotencyKey, openPage, payBillByCard, payByCard, payBySbp, provePhone, rbsFault, startServer, type TestServer } from '../helpers';
import { injectFetch } from '../../support/injectFetch';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { verifyWebhook } from '../../../server/merchant/signature';
import { attemptByOrder } from '../../../server/payments/queries';
import { REFUND_UNSEEN_MS } from '../../../server/acquirer/refunder';
import { insertRefund } from '../../../server/payments/refundQueries';
import { TEXT_LINES_PROBLEM } from '../../../server/platform/patterns';
import { exchangesOfAttempt, ledgerOfCustomer, webhookEvents } from '../../support/rows';

let server: TestServer;
afterEach(() => server?.close());

/** A fake merchant webhook endpoint: what it received. */
function endpoint() {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const fetch: typeof globalThis.fetch = async (_input, init) => {
    received.push({ headers: Object.fromEntries(Object.entries(init?.headers ?? {})), body: String(init?.body) });
    return new Response('ok', { status: 200 });
  };
  return { received, fetch };
}
const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

const rub = (value: string) => ({ value, currency: 'RUB' });

/** A bill of 1 000.00 (a card without a fee), paid by card: answers its objectOID and the payment's orderId. */
async function paidBill(app: FastifyInstance = server.app, extra: Record<string, unknown> = {}) {
  const created = await merchantCall(app, 'POST', '/bills', { purpose: 'Аванс за автомобиль', amount: rub('1000.00'), paymentTypes: [{ code: 'ALL', name: 'Карта' }], ...extra });
  expect(created.statusCode).toBe(201);
  const { objectOID, payUrl } = created.json<{ objectOID: string; payUrl: string }>();
  const orderId = await payBillByCard(app, linkOf(payUrl), TEST_CARDS.pays);
  await app.background.idle();
  expect((await attemptByOrder(app.store, orderId))!.status).toBe('success');
  return { objectOID, orderId };
}

const refund = (orderId: string, body: unknown = {}, headers: Record<string, string> = {}) => merchantCall(server.app, 'POST', `/payments/${orderId}/refunds`, body, headers);
/** The acquirer's order of the payment, as the sandbox keeps it. */
const orderAtAcquirer = async (orderId: string) => server.app.rbsFake!.order({ orderId: (await attemptByOrder(server.app.store, orderId))!.acquirer_order_id! });
const refundCalls = async (orderId: string) => (await exchangesOfAttempt(server.app.store, orderId)).filter((e) => e.method === 'refund.do' || e.method === 'reverse.do');
const eventsOf = async (type: string) => (await webhookEvents(server.app.store, 100)).filter((e) => e.type === type).map((e) => JSON.parse(e.payload).data);

describe('refunds through the merchant API', () => {
  let merchant: ReturnType<typeof endpoint>;
  beforeEach(async () => {
    merchant = endpoint();
    server = await startServer({ webhookUrl: 'https://erp.example.ru/hooks', webhookSecret: SECRET, webhookFetch: merchant.fetch });
  });

  test('a part, then the rest: 201 pending, made at the acquirer; the payment, the bill and the listing show what went back; webhooks signed', async () => {
    const { objectOID, orderId } = await paidBill();
    const first = await refund(orderId, { amount: rub('300.00'), reason: 'Неустойка удержана' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      id: expect.stringMatching(/^rf_[0-9a-f]{32}$/),
      orderId,
      amount: rub('300.00'),
      status: 'pending',
      reason: 'Неустойка удержана',
      automatic: false,
      items: [{ positionId: 1, quantity: 1, amount: rub('300.00') }],
      acquirerAnswer: null,
      createdAt: expect.any(String),
      finishedAt: null,
    });
    await server.app.background.idle();
    expect(await orderAtAcquirer(orderId)).toMatchObject({ order_status: 2, refunded_amount: 300_00 });

    // No amount: all that is left.
    const rest = await refund(orderId);
    expect([rest.statusCode, rest.json().amount]).toEqual([201, rub('700.00')]);
    await server.app.background.idle();
    expect(await orderAtAcquirer(orderId)).toMatchObject({ order_status: 4, refunded_amount: 1000_00 });

    const payment = (await merchantCall(server.app, 'GET', `/payments/${orderId}`)).json();
    expect(payment).toMatchObject({ orderId, status: 'success', amount: rub('1000.00'), refunded: rub('1000.00') });
    expect(payment.refunds.map((r: { amount: unknown; status: string; finishedAt: string | null }) => [r.amount, r.status, typeof r.finishedAt])).toEqual([
      [rub('300.00'), 'succeeded', 'string'],
      [rub('700.00'), 'succeeded', 'string'],
    ]);
    expect((await merchantCall(server.app, 'GET', `/payments/${orderId}/refunds`)).json().data).toEqual(payment.refunds);
    expect((await merchantCall(server.app, 'GET', `/bills/${objectOID}`)).json().payments[0].refunded).toEqual(rub('1000.00'));
    expect((await merchantCall(server.app, 'GET', '/payments')).json().data.find((p: { orderId: string }) => p.orderId === orderId).refunded).toEqual(rub('1000.00'));
    // Nothing left: a third is refused.
    const more = await refund(orderId, { amount: rub('0.01') });
    expect([more.statusCode, more.json().error.code]).toEqual([409, 'refund_exceeds_remaining']);

    // refund.succeeded twice, signed as every webhook, with the refund and the payment as it then stood.
    await server.app.merchant.worker.deliverDue();
    const hooks = merchant.received.map((r) => ({ r, body: JSON.parse(r.body) })).filter(({ body }) => body.type === 'refund.succeeded');
    expect(hooks.map(({ body }) => [body.data.refund.amount.value, body.data.payment.refunded.value])).toEqual([
      ['300.00', '300.00'],
      ['700.00', '1000.00'],
    ]);
    for (const { r } of hooks) expect(verifyWebhook(SECRET, r.headers, r.body, Math.floor(server.clock.now() / 1000))).toBe(true);
  });

  test('refused: 404 for no such payment, 409 payment_not_refundable, 409 refund_exceeds_remaining, 400 for a bad amount', async () => {
    expect((await refund('no-such-order')).statusCode).toBe(404);
    const { orderId } = await paidBill();
    const tooMuch = await refund(orderId, { amount: rub('1000.01') });
    expect([tooMuch.statusCode, tooMuch.json().error.code]).toEqual([409, 'refund_exceeds_remaining']);
    expect(tooMuch.json().error.message).toBe('1000.01 is more than remains to refund of this payment: 1000.00');
    for (const [amount, field] of [
      [rub('0.00'), 'amount.value'],
      [rub('10'), 'amount.value'],
      [{ value: '10.00', currency: 'USD' }, 'amount.currency'],
    ] as const) {
      const bad = await refund(orderId, { amount });
      expect([bad.statusCode, bad.json().error.code, bad.json().error.fields.map((f: { field: string }) => f.field)]).toEqual([400, 'invalid_request', [field]]);
    }
    const badItem = await refund(orderId, { items: [{ positionId: 7 }] });
    expect(badItem.json().error.fields).toEqual([{ field: 'items[0].positionId', message: "is not a position of this payment's receipt (1)" }]);

    // A payment that did not go through: nothing to give back.
    const created = await merchantCall(server.app, 'POST', '/bills', { purpose: 'Счет', amount: rub('10.00') });
    const declined = await payBillByCard(server.app, linkOf(created.json().payUrl), TEST_CARDS.declined);
    const notPaid = await refund(declined);
    expect([notPaid.statusCode, notPaid.json().error]).toEqual([409, { code: 'payment_not_refundable', message: 'The payment is declined: only a successful payment can be refunded' }]);
    // Nothing of a refused refund is kept.
    expect((await merchantCall(server.app, 'GET', `/payments/${orderId}/refunds`)).json().data).toEqual([]);
  });

  test('a reason may hold lines but no other control character nor half a character: 400 naming it, and nothing is refunded or kept', async () => {
    const { orderId } = await paidBill();
    const before = await refundCalls(orderId);
    for (const reason of ['NUL\u0000inside', 'DEL\u007f', 'carriage\rreturn', 'half \ud800 of it']) {
      const bad = await refund(orderId, { amount: rub('10.00'), reason });
      expect([reason, bad.statusCode, bad.json().error]).toEqual([
        reason,
        400,
        { code: 'validation_error', message: 'The request has invalid fields', fields: [{ field: 'reason', message: TEXT_LINES_PROBLEM }] },
      ]);
    }
    expect((await merchantCall(server.app, 'GET', `/payments/${orderId}/refunds`)).json().data).toEqual([]);
    expect(await refundCalls(orderId)).toEqual(before);
    const lines = await refund(orderId, { amount: rub('10.00'), reason: 'Претензия №5:\n\tнеустойка' });
    expect([lines.statusCode, lines.json().reason]).toEqual([201, 'Претензия №5:\n\tнеустойка']);
  });

  test('OpenAPI documents the refund routes: the request, the refund, the errors', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/merchant/v1/openapi.json' })).json();
    const create = doc.paths['/merchant/v1/payments/{orderId}/refunds'].post;
    expect(Object.keys(create.requestBody.content['application/json'].schema.properties)).toEqual(['amount', 'reason', 'items']);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '404', '409', '422']));
    expect(create.responses['201'].content['application/json'].schema.properties.status.enum).toEqual(['pending', 'succeeded', 'failed']);
    expect(doc.paths['/merchant/v1/payments/{orderId}'].get.responses['200'].content['application/json'].schema.required).toEqual(expect.arrayContaining(['refunded', 'refunds']));
    expect(doc.paths['/merchant/v1/bills/{objectOID}'].get.responses['200'].content['application/json'].schema.properties.payments.items.required).toContain('refunded');
    expect(create.responses['409'].content['application/json'].schema.properties.error.properties.code.enum).toEqual(
      expect.arrayContaining(['payment_not_refundable', 'refund_exceeds_remaining']),
    );
  });

  test('Idempotency-Key: the same request again answers the same refund, once; another request under the key is 422', async () => {
    const { orderId } = await paidBill();
    const key = { 'idempotency-key': newIdempotencyKey() };
    const first = await refund(orderId, { amount: rub('100.00') }, key);
    const again = await refund(orderId, { amount: rub('100.00') }, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    expect((await refund(orderId, { amount: rub('200.00') }, key)).statusCode).toBe(422);
    await server.app.background.idle();
    expect((await merchantCall(server.app, 'GET', `/payments/${orderId}/refunds`)).json().data).toHaveLength(1);
    expect(await refundCalls(orderId)).toHaveLength(1);
    expect(await orderAtAcquirer(orderId)).toMatchObject({ refunded_amount: 100_00 });
  });

  test('ten partial refunds at once never add up to more than was paid', async () => {
    const { orderId } = await paidBill();
    const answers = await Promise.all(Array.from({ length: 10 }, () => refund(orderId, { amount: rub('300.00') })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) expect(refused.json().error.code).toBe('refund_exceeds_remaining');
    await server.app.background.idle();
    await server.app.gateway.sweep();
    expect(await orderAtAcquirer(orderId)).toMatchObject({ refunded_amount: 900_00 });
    expect((await merchantCall(server.app, 'GET', `/payments/${orderId}`)).json()).toMatchObject({ refunded: rub('900.00') });
    // Each row went to the acquirer once.
    expect(await refundCalls(orderId)).toHaveLength(3);
  });

  test('a refund is sent once, however many ask to make it at once (the attempt\'s lease, the row marked sent first)', async () => {
    const { orderId } = await paidBill();
    await refund(orderId, { amount: rub('50.00') });
    await Promise.all([...Array.from({ length: 5 }, () => server.app.gateway.makeRefunds(orderId)), server.app.gateway.sweep(), server.app.background.idle()]);
    await server.app.background.idle();
    expect(await refundCalls(orderId)).toHaveLength(1);
    expect(await orderAtAcquirer(orderId)).toMatchObject({ refunded_amount: 50_00 });
  });

  test('a whole refund kept without positions (from the old refund flag) returns every position of the order\'s receipt', async () => {
    const { orderId } = await paidBill();
    await insertRefund(server.app.store, { id: 'rf_old', order_id: orderId, amount_kopecks: 1000_00, reason: null, kind: 'automatic', idempotency_key: null });
    await server.app.gateway.makeRefunds(orderId);
    const [call] = await refundCalls(orderId);
    expect(JSON.parse(JSON.parse(call!.request).refundItems).items.map((item: { positionId: string; itemAmount: number }) => [item.positionId, item.itemAmount])).toEqual([['1', 1000_00]]);
    expect(await orderAtAcquirer(orderId)).toMatchObject({ order_status: 4, refunded_amount: 1000_00 });
  });

  test('the acquirer refuses: the refund fails with its answer, refund.failed is sent, and the money stays refundable', async () => {
    const { orderId } = await paidBill();
    await rbsFault(server.app, 'refund-refused', true);
    const asked = await refund(orderId, { amount: rub('400.00') });
    await server.app.background.idle();
    const [failed] = (await merchantCall(server.app, 'GET', `/payments/${orderId}/refunds`)).json().data;
    expect(failed).toMatchObject({ id: asked.json().id, status: 'failed', acquirerAnswer: 'refund.do refused: 7 refund.do: Возврат отклонен банком', finishedAt: expect.any(String) });
    expect((await eventsOf('refund.failed')).map((data) => [data.refund.id, data.payment.refunded.value])).toEqual([[failed.id, '0.00']]);
    await rbsFault(server.app, 'refund-refused', false);
    expect((await refund(orderId)).json().amount).toEqual(rub('1000.00'));
  });

  test('an order not yet settled: a whole refund is a reversal (reverse.do); a part of it is refused by the acquirer', async () => {
    const { orderId } = await paidBill();
    await rbsFault(server.app, 'not-settled', true);
    await refund(orderId, { amount: rub('10.00') });
    await server.app.background.idle();
    expect((await merchantCall(server.app, 'GET', `/payments/${orderId}/refunds`)).json().data[0]).toMatchObject({ status: 'failed' });
    await refund(orderId);
    await server.app.background.idle();
    expect((await refundCalls(orderId)).map((e) => e.method)).toEqual(['refund.do', 'reverse.do']);
    expect(await orderAtAcquirer(orderId)).toMatchObject({ order_status: 3 });
    expect((await merchantCall(server.app, 'GET', `/payments/${orderId}`)).json()).toMatchObject({ refunded: rub('1000.00') });
  });
});

describe('a refund whose answer is lost', () => {
  test('made at the acquirer, its answer lost: the order\'s refunded amount settles it; refund.do is sent once', async () => {
    server = await startServer({ acquirerTimeoutMs: 300 });
    const { orderId } = await paidBill();
    const orderNumber = (await orderAtAcquirer(orderId))!.order_number;
    await rbsFault(server.app, 'refund-answer-lost', true, orderNumber);
    await refund(orderId, { amount: rub('250.00') });
    await server.app.background.idle();
    const [made] = (await merchantCall(server.app, 'GET', `/payments/${orderId}/refunds`)).json().data;
    expect(made).toMatchObject({ status: 'succeeded', acquirerAnswer: 'the answer was lost; the order shows 25000 kopecks given back' });
    // The sweep finds nothing to send again.
    await server.app.gateway.sweep();
    expect((await refundCalls(orderId)).map((e) => [e.method, e.error !== null])).toEqual([['refund.do', true]]);
    expect(await orderAtAcquirer(orderId)).toMatchObject({ refunded_amount: 250_00 });
  });

  test('lost on the way, never made: it stays pending while the order may still show it, then fails; never sent twice', async () => {
    const lost = { on: true };
    const built: { app?: FastifyInstance } = {};
    const toFake = injectFetch(() => built.app!);
    server = await startServer({
      // refund.do never reaches the acquirer while `lost` is on: the connection drops.
      acquirerFetch: async (input, init) => {
        if (lost.on && String(input).endsWith('/refund.do')) throw new TypeError('fetch failed: socket hang up');
        return toFake(input, init);
      },
    });
    built.app = server.app;
    const { orderId } = await paidBill();
    await refund(orderId, { amount: rub('100.00') });
    await server.app.background.idle();
    const pending = () => merchantCall(server.app, 'GET', `/payments/${orderId}/refunds`).then((r) => r.json().data[0]);
    expect(await pending()).toMatchObject({ status: 'pending' });
    lost.on = false;
    await server.app.gateway.sweep();
    expect(await pending()).toMatchObject({ status: 'pending' });
    server.clock.advance(REFUND_UNSEEN_MS + 1);
    await server.app.gateway.sweep();
    expect(await pending()).toMatchObject({ status: 'failed', acquirerAnswer: 'the answer was lost and the order never showed it (0 kopecks given back)' });
    expect(await refundCalls(orderId)).toHaveLength(1);
    expect(await orderAtAcquirer(orderId)).toMatchObject({ refunded_amount: 0 });
  });
});

describe('points and positions', () => {
  const PHONE = '79991234567';
  beforeEach(async () => {
    server = await startServer();
  });

  /** A bill of two positions and a card fee, paid with 1 000 points and the rest by card. */
  async function paidWithPoints() {
    const created = await merchantCall(server.app, 'POST', '/bills', {
      purpose: 'Предоплата по договору № 17',
      amount: rub('13343.38'),
      customer: { name: 'Иванов Иван', phone: PHONE, custNo: 'ERP-7' },
      points: { enabled: true, usefulLimit: 5000 },
      paymentTypes: [{ code: 'ALL', name: 'Банковская карта', commission: rub('185.19') }],
      items: [
        { name: 'Предоплата по ДДУ № 17', quantity: 1, price: rub('10000.00'), vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity' },
        { name: 'Кладовая', quantity: 2.5, price: rub('1337.35'), vat: 'vat122', paymentMethod: 'full_prepayment', paymentObject: 'commodity', measure: 'square_meter' },
      ],
    });
    const link = linkOf(created.json().payUrl);
    await merchantCall(server.app, 'POST', '/customers/ERP-7/points', { delta: 1000, reason: 'test' });
    const client = await openPage(server.app, link);
    expect((await provePhone(client, PHONE, 'use-points', link)).statusCode).toBe(200);
    const started = await client.post('/api/getPaymentUrl/', { pointsSum: 1000, objectOID: link, cardTypeOID: `${link}.ALL`, email: 'payer@example.ru', userOID: null, manager_id: null });
    const { orderId, formUrl } = started.json().info;
    await payByCard(server.app, formUrl);
    await server.app.background.idle();
    return orderId as string;
  }

  test('points go back in proportion, rounded down, as ledger entries naming the refund; a whole refund gives back all', async () => {
    const orderId = await paidWithPoints();
    const paid = (await attemptByOrder(server.app.store, orderId))!.amount_kopecks;
    expect(paid).toBe(1_334_338 + 18_519 - 100_000);
    // A third of the money: 1 000 × 417 619 / 1 252 857 = 333.33… → 333 points.
    const third = await refund(orderId, { amount: rub('4176.19') });
    await server.app.background.idle();
    const rest = await refund(orderId);
    await server.app.background.idle();
    expect((await ledgerOfCustomer(server.app.store, 'ERP-7')).map((entry) => [entry.delta, entry.reason])).toEqual([
      [1000, 'test'],
      [-1000, 'payment'],
      [333, 'refund'],
      [667, 'refund'],
    ]);
    const ledger = (await merchantCall(server.app, 'GET', '/customers/ERP-7/points')).json();
    expect(ledger.balance).toBe(1000);
    expect(ledger.ledger.slice(0, 2).map((entry: { refundId: string }) => entry.refundId)).toEqual([rest.json().id, third.json().id]);
  });

  test('the positions returned go with refund.do: spread in proportion, or named by the merchant; the acquirer checks them', async () => {
    const orderId = await paidWithPoints();
    // The fee alone, named.
    const fee = await refund(orderId, { items: [{ positionId: 3 }] });
    expect(fee.json()).toMatchObject({ amount: rub('185.19'), items: [{ positionId: 3, quantity: 1, amount: rub('185.19') }] });
    // A part of the rest, spread over the two positions by what is left of each (9 250.57 and 3 092.81, the points
    // taken off): 749.434… and 250.565…, the kopeck left over to the larger remainder.
    const part = await refund(orderId, { amount: rub('1000.00') });
    expect(part.json().items).toEqual([
      { positionId: 1, quantity: 1, amount: rub('749.43') },
      { positionId: 2, quantity: 2.5, amount: rub('250.57') },
    ]);
    await server.app.background.idle();
    const calls = await refundCalls(orderId);
    expect(calls.map((call) => JSON.parse(JSON.parse(call.request).refundItems).items.map((item: { positionId: string; itemAmount: number; itemCode: string }) => [item.positionId, item.itemAmount, item.itemCode]))).toEqual([
      [['3', 18_519, 'fee']],
      [
        ['1', 74_943, 'position-1'],
        ['2', 25_057, 'position-2'],
      ],
    ]);
    expect(await orderAtAcquirer(orderId)).toMatchObject({ refunded_amount: 118_519, refunded_items: JSON.stringify({ 1: 74_943, 2: 25_057, 3: 18_519 }) });
    // More of a position than is left of it: 400 naming it.
    const tooMuch = await refund(orderId, { items: [{ positionId: 3, amount: rub('0.01') }] });
    expect(tooMuch.json().error.fields).toEqual([{ field: 'items[0].amount.value', message: 'this position was given back whole already' }]);
    const mismatch = await refund(orderId, { amount: rub('5.00'), items: [{ positionId: 1, amount: rub('4.00') }] });
    expect(mismatch.json().error.fields).toEqual([{ field: 'items', message: 'the positions add up to 4.00, not to amount.value 5.00' }]);
  });
});

describe('the automatic refund of a payment its bill could not keep', () => {
  beforeEach(async () => {
    server = await startServer();
  });

  test('is a refund row like the merchant\'s: made at once, shown on the payment, refund.succeeded sent; not refundable again', async () => {
    const client = await openPage(server.app);
    const body = (code: string) => ({ pointsSum: null, objectOID: 'demo-anon', cardTypeOID: `demo-anon.${code}`, email: 'payer@example.ru', userOID: null, manager_id: null });
    const card = (await client.post('/api/getPaymentUrl/', body('ALL'))).json().info;
    // The acquirer fails to end the card order when the payer turns to fast payment: both stay payable.
    await rbsFault(server.app, 'decline-500', true, card.orderId);
    const sbp = (await client.post('/api/getPaymentUrl/', body('SBP'))).json().info;
    await payByCard(server.app, card.formUrl);
    await payBySbp(server.app, sbp.data.payload);
    await server.app.background.idle();
    const payment = (await merchantCall(server.app, 'GET', `/payments/${sbp.orderId}`)).json();
    expect(payment).toMatchObject({ status: 'refunded', refunded: payment.amount });
    expect(payment.refunds).toEqual([expect.objectContaining({ automatic: true, status: 'succeeded', amount: payment.amount, reason: 'The bill was already paid by another payment' })]);
    expect((await eventsOf('refund.succeeded')).map((data) => data.refund.id)).toEqual([payment.refunds[0].id]);
    expect((await refund(sbp.orderId)).json().error.code).toBe('payment_not_refundable');
  });
});
