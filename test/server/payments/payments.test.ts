import { openPage, payByCard as payOnForm, payBySbp, provePhone, rbsFault, secondProcess, startServer, type Client, type TestServer } from '../helpers';
import { demoAccount } from '../../../server/sandbox/demoBills';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { PaymentRefused } from '../../../server/payments/errors';
import { startPayment } from '../../../server/payments/start';
import { billByOid, insertBill, insertType } from '../../../server/billing/queries';
import { pointsBalance } from '../../../server/loyalty/ledger';
import { attemptByOrder, openAttemptOfBill } from '../../../server/payments/queries';
import { attemptsOfBill, exchangesOfAttempt, ledgerOfCustomer, refundsStateOf } from '../../support/rows';

let server: TestServer;

beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const payBody = (objectOID: string, cardTypeOID: string | null, pointsSum: number | null = null) => ({
  pointsSum, objectOID, cardTypeOID, email: 'payer@example.ru', userOID: null, manager_id: null,
});

/** The acquirer's card form (the sandbox's RBS fake): the only card confirmation there is. */
const payByCard = (formUrl: string, card: string = TEST_CARDS.pays) => payOnForm(server.app, formUrl, card);
const attempts = (billOid: string) => attemptsOfBill(server.app.store, billOid);
const balance = (custNo: string) => pointsBalance(server.app.store, custNo);

describe('payment attempts', () => {
  test('20 concurrent requests for one bill, type and amounts make one attempt with one orderId', async () => {
    const client = await openPage(server.app);
    // Half of them through a second connection to the same database, as a second server process would.
    const second = await secondProcess(server);
    const viaSecond = new (client.constructor as new (app: typeof second) => Client)(second);
    viaSecond.cookie = client.cookie;
    viaSecond.csrf = client.csrf;

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? viaSecond : client).post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))),
    );
    await second.close();
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const orderIds = new Set(answers.map((a) => a.json().info.orderId));
    expect(orderIds.size).toBe(1);
    expect(await attempts('demo-anon')).toHaveLength(1);
    const [only] = orderIds;
    // One order at the acquirer for them all, registered under the attempt's id.
    const attempt = (await attemptByOrder(server.app.store, only as string))!;
    expect(answers[0]!.json()).toMatchObject({ success: true, isClosedWithoutProcessing: false, info: { orderId: only, formUrl: `http://localhost:3000/sandbox/acquirer/${attempt.acquirer_order_id}` } });
    expect(new Set(answers.map((a) => a.json().info.formUrl)).size).toBe(1);
    expect(await server.app.store.db.selectFrom('sandbox_rbs_orders').select('order_number').execute()).toEqual([{ order_number: only }]);
  });

  test('a retry after a lost answer returns the same attempt; another type makes its own', async () => {
    const client = await openPage(server.app);
    const first = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info.orderId;
    const stored = await attemptByOrder(server.app.store, first);
    server.clock.advance(1000);
    const retry = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info.orderId;
    expect(retry).toBe(first);
    // The same payer again writes nothing (concurrent writes to one row would only conflict on PostgreSQL).
    expect(await attemptByOrder(server.app.store, first)).toEqual(stored);
    const sbp = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.SBP'))).json().info.orderId;
    expect(sbp).not.toBe(first);
  });

  test('a declined attempt allows a new one; a paid bill refuses new attempts', async () => {
    const client = await openPage(server.app);
    const firstInfo = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info;
    const first = firstInfo.orderId;
    const declined = await payByCard(firstInfo.formUrl, TEST_CARDS.declined);
    expect(declined.statusCode).toBe(303);
    // The acquirer sends the payer back to our fail URL with its own orderId appended; the result page polls with it.
    const acquirerOrderId = (await attemptByOrder(server.app.store, first))!.acquirer_order_id!;
    expect(declined.headers.location).toBe(`http://localhost:3000/fail?billOid=demo-anon&orderId=${acquirerOrderId}`);
    expect((await client.post('/api/getResult/', { transactionID: acquirerOrderId, billOID: 'demo-anon' })).json()).toMatchObject({ success: true, status: 'declined', objectOID: 'demo-anon' });
    expect((await client.post('/api/getResult/', { transactionID: first, billOID: 'demo-anon' })).json()).toMatchObject({ success: true, status: 'declined', objectOID: 'demo-anon' });

    const secondInfo = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info;
    const second = secondInfo.orderId;
    expect(second).not.toBe(first);
    const paid = await payByCard(secondInfo.formUrl);
    expect(paid.headers.location).toContain(`/success?billOid=demo-anon&orderId=`);
    expect((await client.post('/api/getResult/', { transactionID: second, billOID: 'demo-anon' })).json().status).toBe('success');

    const refused = await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.SBP'));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ success: false, error: 'Счет уже оплачен' });
    // The object data now answers that the bill is paid, with the receipt of the payment that paid it.
    const reopened = await client.get('/ajax/object-info/demo-anon');
    expect(reopened.statusCode).toBe(409);
    expect(reopened.json()).toMatchObject({ success: false, error: 'Счет уже оплачен', paid: true, receipt: { orderId: second, status: 'success' } });
  });

  test('paid twice (card, then the fast payment of another tab): one success, the second refunded at the acquirer', async () => {
    const client = await openPage(server.app);
    const card = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info;
    // The acquirer fails to end the card order when the payer turns to fast payment: both stay payable.
    await rbsFault(server.app, 'decline-500', true, card.orderId);
    const sbp = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.SBP'))).json().info;
    await payByCard(card.formUrl);
    await payBySbp(server.app, sbp.data.payload);
    expect((await client.post('/api/getResult/', { transactionID: card.orderId, billOID: 'demo-anon' })).json().status).toBe('success');
    // The QR's page polls with the QR id: the payer of that attempt hears the money went back.
    expect((await client.post('/api/getResult/', { transactionID: sbp.data.qrcId, billOID: 'demo-anon' })).json().status).toBe('refunded');
    const twice = (await attemptByOrder(server.app.store, sbp.orderId))!;
    expect(twice).toMatchObject({ status: 'refunded' });
    expect(await refundsStateOf(server.app.store, sbp.orderId)).toEqual([{ kind: 'automatic', status: 'succeeded', amount_kopecks: twice.amount_kopecks }]);
    const atAcquirer = await server.app.rbsFake!.order({ orderId: twice.acquirer_order_id! });
    expect(atAcquirer).toMatchObject({ order_status: 4, refunded_amount: twice.amount_kopecks });
    expect((await exchangesOfAttempt(server.app.store, sbp.orderId)).map((e) => e.method)).toContain('refund.do');
    expect((await billByOid(server.app.store, 'demo-anon'))!.paid_order_id).toBe(card.orderId);
  });

  test('SBP answers a sandbox bank-app payload and a real PNG QR of it', async () => {
    const client = await openPage(server.app);
    const info = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.SBP'))).json().info;
    expect(info.data.payload).toBe(`http://localhost:3000/sandbox/sbp/${info.data.qrcId}`);
    // Kept on the attempt (a reloaded page shows the same QR again).
    expect(await openAttemptOfBill(server.app.store, 'demo-anon')).toMatchObject({ order_id: info.orderId, sbp_qrc_id: info.data.qrcId, sbp_payload: info.data.payload, sbp_image: info.data.image.content });
    const png = Buffer.from(info.data.image.content, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  test("the status poll finds an order by each of its names, and another bill's order by none", async () => {
    const client = await openPage(server.app);
    const info = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.SBP'))).json().info;
    const attempt = (await attemptByOrder(server.app.store, info.orderId))!;
    const names = [attempt.order_id, attempt.sbp_qrc_id!, attempt.acquirer_order_id!];
    // Three different names, each of its own kind (ours, the QR's, the acquirer's), each found.
    expect(new Set(names).size).toBe(3);
    for (const transactionID of names) {
      expect((await client.post('/api/getResult/', { transactionID, billOID: 'demo-anon' })).json()).toEqual({ success: true, status: 'created', objectOID: 'demo-anon' });
    }
    const other = await openPage(server.app);
    for (const transactionID of names) {
      expect((await other.post('/api/getResult/', { transactionID, billOID: 'demo-points' })).json()).toEqual({ success: true, status: null });
    }
  });

  test('manager_id comes from its cookie when the body has none', async () => {
    const client = await openPage(server.app);
    client.cookie += '; manager_id=mgr-42';
    const orderId = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info.orderId;
    expect((await attemptByOrder(server.app.store, orderId))!.manager_id).toBe('mgr-42');
  });

  test('unknown bills, types and orders', async () => {
    const client = await openPage(server.app);
    expect((await client.post('/api/getPaymentUrl/', payBody('no-such-bill', 'no-such-bill.ALL'))).statusCode).toBe(404);
    expect((await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-points.ALL'))).statusCode).toBe(400);
    expect((await client.post('/api/getPaymentUrl/', payBody('demo-anon', null))).statusCode).toBe(400);
    expect((await client.post('/api/getResult/', { transactionID: 'nope', billOID: 'demo-anon' })).json()).toEqual({ success: true, status: null });
    expect((await client.post('/api/getResult/', { transactionID: 'nope', billOID: 'no-such-bill' })).statusCode).toBe(404);
  });
});

describe('points', () => {
  const POINTS_PHONE = '79990000001';
  let client: Client;
  beforeEach(async () => {
    client = await openPage(server.app, 'demo-points');
  });
  const confirmPoints = async (c: Client = client, objectOID = 'demo-points', phone = POINTS_PHONE) =>
    expect((await provePhone(c, phone, 'use-points', objectOID)).statusCode).toBe(200);

  test('spending needs a use-points code proven in this session', async () => {
    const unproven = await client.post('/api/getPaymentUrl/', payBody('demo-points', 'demo-points.ALL', 1000));
    expect(unproven.statusCode).toBe(403);
    await confirmPoints();
    expect((await client.post('/api/getPaymentUrl/', payBody('demo-points', 'demo-points.ALL', 1000))).statusCode).toBe(200);
    const stranger = await openPage(server.app, 'demo-points');
    expect((await stranger.post('/api/getPaymentUrl/', payBody('demo-points', 'demo-points.SBP', 1000))).statusCode).toBe(403);
  });

  test('refused without CustNo and above the maximum spendable points', async () => {
    const anon = await openPage(server.app);
    const noCustNo = await anon.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL', 10));
    expect(noCustNo.statusCode).toBe(400);
    await confirmPoints();
    // usefulPoints 3 000 < sum + commission: 3 000 is the most.
    const tooMany = await client.post('/api/getPaymentUrl/', payBody('demo-points', 'demo-points.ALL', 3001));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toBe('Можно использовать не более 3000 баллов');
    expect((await client.post('/api/getPaymentUrl/', payBody('demo-points', 'demo-points.ALL', 3000))).statusCode).toBe(200);
  });

  test('written off only on the acquirer confirmation, once, even for duplicate and concurrent confirmations', async () => {
    await confirmPoints();
    const answer = await client.post('/api/getPaymentUrl/', payBody('demo-points', 'demo-points.ALL', 1000));
    const { orderId, formUrl } = answer.json().info;
    // 8 000 + 1.5 % card fee − 1 000 points.
    expect((await attemptByOrder(server.app.store, orderId))!.amount_kopecks).toBe(800_000 + 12_000 - 100_000);
    expect(await balance('C-1001')).toBe(4500);

    // The browser coming back with state=success proves nothing.
    await client.get(`/success?orderId=${orderId}&billOid=demo-points&state=success`);
    expect(await balance('C-1001')).toBe(4500);
    expect((await client.post('/api/getResult/', { transactionID: orderId, billOID: 'demo-points' })).json().status).toBe('created');

    const second = await secondProcess(server);
    await payByCard(formUrl);
    // The acquirer's callback repeated, and reconciliations from both processes at once: one write-off.
    const results = await Promise.all([server.app.gateway.reconcile(orderId), second.gateway.reconcile(orderId), server.app.gateway.reconcile(orderId), second.gateway.reconcile(orderId)]);
    await second.close();
    expect(results.every((r) => r!.status === 'success')).toBe(true);
    expect(await payByCard(formUrl)).toMatchObject({ statusCode: 303 });

    expect(await balance('C-1001')).toBe(3500);
    expect(await ledgerOfCustomer(server.app.store, 'C-1001')).toEqual([
      { delta: 4500, reason: 'demo credit', order_id: null },
      { delta: -1000, reason: 'payment', order_id: orderId },
    ]);
    expect((await client.post('/api/getResult/', { transactionID: orderId, billOID: 'demo-points' })).json()).toMatchObject({ success: true, status: 'success', objectOID: 'demo-points' });
  });

  test('a declined payment writes nothing off', async () => {
    await confirmPoints();
    const { formUrl } = (await client.post('/api/getPaymentUrl/', payBody('demo-points', 'demo-points.ALL', 1000))).json().info;
    await payByCard(formUrl, TEST_CARDS.declined);
    expect(await balance('C-1001')).toBe(4500);
  });

  test('a balance never goes below zero: a second spend of the same points is refunded, not kept', async () => {
    // Another bill of the same customer, so two attempts may each hold 3 000 of the 4 500 points.
    const { paid_order_id: _paid, created_at: _created, ...points } = (await billByOid(server.app.store, 'demo-points'))!;
    await server.app.store.transaction(async (tx) => {
      await insertBill(tx, { ...points, oid: 'points-twin', link_id: 'points-twin', status: 'open', copied_from: null });
      await insertType(tx, { oid: 'points-twin.ALL', bill_oid: 'points-twin', position: 0, code: 'ALL', name: 'Карта', commission_kopecks: 0, show_aggregator_offer: 0, show_executer_offer: 0 });
    });
    await confirmPoints();
    const first = (await client.post('/api/getPaymentUrl/', payBody('demo-points', 'demo-points.ALL', 3000))).json().info;
    const second = (await client.post('/api/getPaymentUrl/', payBody('points-twin', 'points-twin.ALL', 3000))).json().info;
    await payByCard(first.formUrl);
    await payByCard(second.formUrl);
    // Its card money was taken, but its points are gone: the money goes back.
    expect((await attemptByOrder(server.app.store, second.orderId))!).toMatchObject({ status: 'refunded' });
    expect(await refundsStateOf(server.app.store, second.orderId)).toMatchObject([{ kind: 'automatic', status: 'succeeded' }]);
    expect(await balance('C-1001')).toBe(1500);
    expect((await billByOid(server.app.store, 'points-twin'))!.status).toBe('open');
  });

  test('a bill covered by points closes without processing', async () => {
    const cover = await openPage(server.app, 'demo-cover');
    await confirmPoints(cover, 'demo-cover', '79990000003');
    const answer = await cover.post('/api/getPaymentUrl/', payBody('demo-cover', null, 1500));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ success: true, isClosedWithoutProcessing: true });
    const orderId = answer.json().info.orderId;
    expect(await balance('C-1002')).toBe(3500);
    expect((await billByOid(server.app.store, 'demo-cover'))!.status).toBe('paid');
    const result = (await cover.post('/api/getResult/', { transactionID: orderId, billOID: 'demo-cover' })).json();
    expect(result.status).toBe('success');
    // Its receipt: no money and no way to pay, the points alone.
    expect(result.receipt).toMatchObject({ amount: 0, pointsUsed: 1500, method: null });
    // Asking again cannot spend twice.
    expect((await cover.post('/api/getPaymentUrl/', payBody('demo-cover', null, 1500))).statusCode).toBe(409);
    expect(await balance('C-1002')).toBe(3500);
  });
});

describe('offerText', () => {
  test('answers the offer of a type that shows it, per kind', async () => {
    const client = await openPage(server.app, 'demo-offer');
    for (const type of ['aggregator', 'executer']) {
      const answer = await client.post('/api/offerText/', { type, objectOID: 'demo-offer', cardTypeOID: 'demo-offer.ALL' });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ success: true, OfferDescription: expect.stringContaining('Банковская карта') });
    }
    const aggregator = (await client.post('/api/offerText/', { type: 'aggregator', objectOID: 'demo-offer', cardTypeOID: 'demo-offer.ALL' })).json();
    const executer = (await client.post('/api/offerText/', { type: 'executer', objectOID: 'demo-offer', cardTypeOID: 'demo-offer.ALL' })).json();
    expect(aggregator.OfferDescription).not.toBe(executer.OfferDescription);
    expect((await client.post('/api/offerText/', { type: 'aggregator', objectOID: 'demo-offer', cardTypeOID: 'demo-offer.SBP' })).statusCode).toBe(404);
    expect((await client.post('/api/offerText/', { type: 'executer', objectOID: 'demo-anon', cardTypeOID: 'demo-anon.ALL' })).statusCode).toBe(404);
    expect((await client.post('/api/offerText/', { type: 'executer', objectOID: 'demo-anon', cardTypeOID: 'demo-offer.ALL' })).statusCode).toBe(404);
    expect((await client.post('/api/offerText/', { type: 'other', objectOID: 'demo-offer', cardTypeOID: 'demo-offer.ALL' })).statusCode).toBe(400);
  });

  test("the fee ends its sentence once: no 'руб..'", async () => {
    const client = await openPage(server.app, 'demo-offer');
    const text = (await client.post('/api/offerText/', { type: 'aggregator', objectOID: 'demo-offer', cardTypeOID: 'demo-offer.ALL' })).json().OfferDescription as string;
    // The page asks for a tick, so the offer says so (not 'Нажимая «Оплатить»').
    expect(text).toContain('Сервисный сбор агрегатора: 748,50 руб. Вы принимаете условия оферты, отметив «Я принимаю условия оферты»');
    expect(text).not.toContain('Нажимая');
    expect(text).not.toContain('..');
  });
});

describe('the two refusals of a payment request', () => {
  // The page tells the payer the bill is already paid on a 409, so no other refusal may be a 409.
  test('a bill with no payment types closed by points is 422, not the 409 of a paid bill', async () => {
    const store = server.app.store;
    const { created_at: _created, paid_order_id: _paid, ...demo } = (await billByOid(store, 'demo-cover'))!;
    await insertBill(store, { ...demo, oid: 'no-types', link_id: 'no-types', status: 'open' });
    const bill = (await billByOid(store, 'no-types'))!;
    const refused = await startPayment(store, { bill, type: undefined, points: 1500, email: null, userOid: null, managerId: null, sessionId: null }).then(
      () => undefined,
      (error: unknown) => error as PaymentRefused,
    );
    expect(refused).toBeInstanceOf(PaymentRefused);
    expect(refused).toMatchObject({ statusCode: 422, message: 'У счета нет способов оплаты' });
  });
});

describe('who pays', () => {
  test('a reused attempt takes the receipt e-mail and the manager of the request that leads to the payment', async () => {
    const alice = await openPage(server.app);
    alice.cookie += '; manager_id=mgr-alice';
    const bob = await openPage(server.app);
    const first = await alice.post('/api/getPaymentUrl/', { ...payBody('demo-anon', 'demo-anon.ALL'), email: 'alice@example.ru' });
    const second = await bob.post('/api/getPaymentUrl/', { ...payBody('demo-anon', 'demo-anon.ALL'), email: 'bob@example.ru', manager_id: 'mgr-bob' });
    const orderId = first.json().info.orderId;
    // Still one attempt for the bill, type and amounts: never two charges.
    expect(second.json().info.orderId).toBe(orderId);
    expect(await attempts('demo-anon')).toHaveLength(1);
    expect(await attemptByOrder(server.app.store, orderId)).toMatchObject({ email: 'bob@example.ru', manager_id: 'mgr-bob' });
    // The acquirer was told the receipt address once, when the order was registered (one order, never a second).
    const form = await server.app.inject({ method: 'GET', url: new URL(first.json().info.formUrl).pathname });
    expect(form.body).toContain('Чек будет отправлен на alice@example.ru');

    // Alice asks again (she is the one paying after all): the receipt is hers again, and her manager's.
    await alice.post('/api/getPaymentUrl/', { ...payBody('demo-anon', 'demo-anon.ALL'), email: 'alice@example.ru' });
    expect(await attemptByOrder(server.app.store, orderId)).toMatchObject({ email: 'alice@example.ru', manager_id: 'mgr-alice' });
  });

  // Control characters and line breaks are no free text at all: the schema refuses them with the field's own words.
  test.each([
    ['markup', '<img src=x onerror=alert(1)>', 'Неверный email'],
    ['a NUL', 'a\u0000@b.ru', 'Введите корректный email'],
    ['a right-to-left override', 'payer\u202e@example.ru', 'Неверный email'],
    ['a line break', 'payer@example.ru\nBcc: x@y.ru', 'Введите корректный email'],
    ['no domain', 'payer@example', 'Неверный email'],
  ])('the receipt e-mail with %s is refused with 400 and nothing is stored', async (_what, email, error) => {
    const client = await openPage(server.app);
    const answer = await client.post('/api/getPaymentUrl/', { ...payBody('demo-anon', 'demo-anon.ALL'), email });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ success: false, error });
    expect(await attempts('demo-anon')).toHaveLength(0);
    // The same rule as /ajax/check-email/.
    expect((await client.post('/ajax/check-email/', { email })).json().success).toBe(false);
  });

  test('the receipt e-mail is stored trimmed', async () => {
    const client = await openPage(server.app);
    const orderId = (await client.post('/api/getPaymentUrl/', { ...payBody('demo-anon', 'demo-anon.ALL'), email: '  payer@example.ru ' })).json().info.orderId;
    expect((await attemptByOrder(server.app.store, orderId))!.email).toBe('payer@example.ru');
  });

  test("userOID is the signed-in user's: a guest cannot name an account, a signed-in user cannot name another", async () => {
    const guest = await openPage(server.app, 'demo-reg');
    const forged = await guest.post('/api/getPaymentUrl/', { ...payBody('demo-reg', 'demo-reg.ALL'), userOID: 'user-demo-reg' });
    expect(forged.statusCode).toBe(403);
    expect(await attempts('demo-reg')).toHaveLength(0);
    const asGuest = (await guest.post('/api/getPaymentUrl/', payBody('demo-reg', 'demo-reg.ALL'))).json().info.orderId;
    expect((await attemptByOrder(server.app.store, asGuest))!.user_oid).toBeNull();

    const user = await openPage(server.app, 'demo-reg');
    const login = await user.post('/ajax/realty/login/', { login: demoAccount.phone, phone: demoAccount.phone, password: demoAccount.password, captcha: '' }, { form: true });
    expect(login.statusCode).toBe(200);
    expect((await user.post('/api/getPaymentUrl/', { ...payBody('demo-reg', 'demo-reg.SBP'), userOID: 'user-someone-else' })).statusCode).toBe(403);
    const own = (await user.post('/api/getPaymentUrl/', { ...payBody('demo-reg', 'demo-reg.SBP'), userOID: 'user-demo-reg' })).json().info.orderId;
    expect((await attemptByOrder(server.app.store, own))!.user_oid).toBe('user-demo-reg');
    // Leaving userOID out still attributes the payment to whoever is signed in.
    const implicit = (await user.post('/api/getPaymentUrl/', payBody('demo-reg', 'demo-reg.SberPaySite'))).json().info.orderId;
    expect((await attemptByOrder(server.app.store, implicit))!.user_oid).toBe('user-demo-reg');
  });

  test('manager_id: a malformed one in the body is refused, a malformed cookie is ignored', async () => {
    const client = await openPage(server.app);
    for (const managerId of ['m'.repeat(65), '<script>', 'mgr 1', 'mgr\u0000', '']) {
      const answer = await client.post('/api/getPaymentUrl/', { ...payBody('demo-anon', 'demo-anon.ALL'), manager_id: managerId });
      expect([managerId, answer.statusCode]).toEqual([managerId, 400]);
    }
    expect(await attempts('demo-anon')).toHaveLength(0);
    client.cookie += `; manager_id=${encodeURIComponent('"><img src=x>')}`;
    const orderId = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info.orderId;
    expect((await attemptByOrder(server.app.store, orderId))!.manager_id).toBeNull();
    const fits = (await client.post('/api/getPaymentUrl/', { ...payBody('demo-anon', 'demo-anon.ALL'), manager_id: 'Mgr_7.east-1' })).json().info.orderId;
    expect((await attemptByOrder(server.app.store, fits))!.manager_id).toBe('Mgr_7.east-1');
  });
});
