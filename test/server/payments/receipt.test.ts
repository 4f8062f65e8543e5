import { merchantCall, openPage, payByCard as payOnForm, payBySbp, rbsFault, startServer, type TestServer } from '../helpers';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { maskEmail } from '../../../server/payments/receipt';
import { billByOid } from '../../../server/billing/queries';
import { attemptByOrder } from '../../../server/payments/queries';
import { refundsStateOf } from '../../support/rows';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const payBody = (objectOID: string, cardTypeOID: string | null, email: string | null = 'ivan.petrov@example.ru') => ({
  pointsSum: null, objectOID, cardTypeOID, email, userOID: null, manager_id: null,
});
/** The acquirer's card form (the sandbox's RBS fake) at a Pay answer's formUrl. */
const payByCard = (formUrl: string, card: string = TEST_CARDS.pays) => payOnForm(server.app, formUrl, card);

describe('the receipt', () => {
  test('a paid order\'s final status carries its receipt from the server\'s records', async () => {
    const client = await openPage(server.app);
    const { orderId, formUrl } = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info;
    // Still waiting: the poll answers the status alone.
    expect((await client.post('/api/getResult/', { transactionID: orderId, billOID: 'demo-anon' })).json()).toEqual({ success: true, status: 'created', objectOID: 'demo-anon' });
    server.clock.advance(60_000);
    await payByCard(formUrl);
    const answer = (await client.post('/api/getResult/', { transactionID: orderId, billOID: 'demo-anon' })).json();
    const bill = await billByOid(server.app.store, 'demo-anon');
    const attempt = await attemptByOrder(server.app.store, orderId);
    expect(answer).toEqual({
      success: true,
      status: 'success',
      objectOID: 'demo-anon',
      receipt: {
        orderId,
        status: 'success',
        amount: attempt!.amount_kopecks / 100,
        pointsUsed: 0,
        purpose: bill!.purpose,
        at: new Date(attempt!.updated_at).toISOString(),
        method: { code: 'ALL', name: expect.any(String) },
        email: 'iv***@example.ru',
        billPaid: true,
        items: [{ name: 'Долевой взнос по ДДУ-2026/145, квартира № 145', quantity: 1, price: 12345.67, amount: 12345.67, vat: 'none' }],
        fee: 185.19,
        fiscal: true,
        // The card as the acquirer masked it; no reason nor other way: it was paid.
        card: '411111**1111',
        declineReason: null,
        fastPaymentFee: null,
        returnUrl: null,
        // A bill paid whole: nothing about parts.
        remaining: null,
        refund: null,
      },
    });
  });

  test('a payment the merchant refunds: its receipt (the poll\'s, the paid bill\'s) says what went back, when, and whether all of it', async () => {
    const client = await openPage(server.app);
    const { orderId, formUrl } = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info;
    await payByCard(formUrl);
    const receipt = async () => (await client.post('/api/getResult/', { transactionID: orderId, billOID: 'demo-anon' })).json().receipt;
    server.clock.advance(60_000);
    await merchantCall(server.app, 'POST', `/payments/${orderId}/refunds`, { amount: { value: '2000.00', currency: 'RUB' } });
    await server.app.gateway.makeRefunds(orderId);
    expect((await receipt()).refund).toEqual({ amount: 2000, at: new Date(server.clock.now()).toISOString(), whole: false });
    server.clock.advance(60_000);
    await merchantCall(server.app, 'POST', `/payments/${orderId}/refunds`, {});
    await server.app.gateway.makeRefunds(orderId);
    const whole = { amount: 12530.86, at: new Date(server.clock.now()).toISOString(), whole: true };
    expect((await receipt()).refund).toEqual(whole);
    // The bill is still paid (its link shows the receipt), and the receipt says it was given back.
    const paid = await client.get('/ajax/object-info/demo-anon');
    expect([paid.statusCode, paid.json().receipt.refund]).toEqual([409, whole]);
  });

  test('an SBP attempt of a bill paid elsewhere hears "declined" with the bill paid, not a wait for ever', async () => {
    const client = await openPage(server.app);
    const opened = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info;
    const card = opened.formUrl;
    // The acquirer fails to end the card order when the payer turns to fast payment: its form stays payable.
    await rbsFault(server.app, 'decline-500', true, opened.orderId);
    const sbp = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.SBP'))).json().info.orderId;
    await payByCard(card);
    const answer = (await client.post('/api/getResult/', { transactionID: sbp, billOID: 'demo-anon' })).json();
    expect(answer).toMatchObject({ status: 'declined', receipt: { orderId: sbp, billPaid: true } });
  });

  test('a card paid at the acquirer after the bill was paid elsewhere, its callback not in yet: the poll asks the acquirer and says refunded', async () => {
    const client = await openPage(server.app);
    const card = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info;
    // The acquirer fails to end the card order when the payer turns to fast payment: its form stays payable.
    await rbsFault(server.app, 'decline-500', true, card.orderId);
    const sbp = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.SBP'))).json().info;
    await payBySbp(server.app, sbp.data.payload);
    // The card form was open all along; its payment goes through, and its callback is slow to come.
    await rbsFault(server.app, 'callback-lost', true, card.orderId);
    await payByCard(card.formUrl);
    const answer = (await client.post('/api/getResult/', { transactionID: card.orderId, billOID: 'demo-anon' })).json();
    expect(answer).toMatchObject({ status: 'refunded', receipt: { orderId: card.orderId, status: 'refunded', billPaid: true } });
    expect(await attemptByOrder(server.app.store, card.orderId)).toMatchObject({ status: 'refunded' });
    expect(await refundsStateOf(server.app.store, card.orderId)).toMatchObject([{ kind: 'automatic', status: 'succeeded' }]);
  });

  test('a declined order: its receipt says the bill is not paid; ?retry= gives the session that paid its way to pay and e-mail', async () => {
    const client = await openPage(server.app);
    const { orderId, data } = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.SBP'))).json().info;
    await payBySbp(server.app, data.payload, 'decline');
    expect((await client.post('/api/getResult/', { transactionID: orderId, billOID: 'demo-anon' })).json().receipt).toMatchObject({ status: 'declined', billPaid: false });

    const info = (await client.get(`/ajax/object-info/demo-anon?retry=${orderId}`)).json();
    // A fast payment refused in the bank app: the amount, and no reason the payer could act on.
    expect(info.retry).toEqual({ cardTypeOID: 'demo-anon.SBP', email: 'ivan.petrov@example.ru', ownAttempt: true, amount: 12345.67, reason: null });
    // The result page's link may name the order by the acquirer's orderId (its return URL's) or the QR's id.
    const attempt = (await attemptByOrder(server.app.store, orderId))!;
    for (const id of [attempt.acquirer_order_id!, attempt.sbp_qrc_id!]) {
      expect((await client.get(`/ajax/object-info/demo-anon?retry=${id}`)).json().retry).toEqual(info.retry);
    }
    // Without the order, or with an order still pending, nothing is given back.
    expect((await client.get('/ajax/object-info/demo-anon')).json().retry).toBeNull();
    const pending = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info.orderId;
    expect((await client.get(`/ajax/object-info/demo-anon?retry=${pending}`)).json().retry).toBeNull();
    // Anyone else holding the /fail link (its orderId) gets the way to pay and the e-mail masked as the receipt masks it.
    const stranger = await openPage(server.app);
    const theirs = (await stranger.get(`/ajax/object-info/demo-anon?retry=${orderId}`)).json();
    expect(theirs.retry).toEqual({ ...info.retry, email: 'iv***@example.ru', ownAttempt: false });
    expect(JSON.stringify(theirs)).not.toContain('ivan.petrov');
    const noCookie = await server.app.inject({ method: 'GET', url: `/ajax/object-info/demo-anon?retry=${orderId}` });
    expect(noCookie.json().retry).toEqual(theirs.retry);
    // A mangled link's retry is ignored: the bill still opens.
    const mangled = await client.get('/ajax/object-info/demo-anon?retry=%3Cscript%3E');
    expect(mangled.statusCode).toBe(200);
    expect(mangled.json().retry).toBeNull();
  });

  test.each([
    [TEST_CARDS.declined, 'insufficient funds', '400000**0002'],
    [TEST_CARDS.expired, 'card expired or blocked', '400000**0069'],
    [TEST_CARDS.threeDsFailed, '3-D Secure failed', '400000**3063'],
    [TEST_CARDS.overLimit, 'limit exceeded', '400000**6975'],
  ])('a card declined by the bank (%s): the receipt and the retry say why, with the card and the fee-free fast payment', async (card, reason, masked) => {
    const client = await openPage(server.app);
    const { orderId, formUrl } = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.ALL'))).json().info;
    await payByCard(formUrl, card);
    const receipt = (await client.post('/api/getResult/', { transactionID: orderId, billOID: 'demo-anon' })).json().receipt;
    // demo-anon's fast payment has no fee: the way forward the page offers.
    expect(receipt).toMatchObject({ status: 'declined', amount: 12530.86, card: masked, declineReason: reason, fastPaymentFee: 0 });
    expect((await client.get(`/ajax/object-info/demo-anon?retry=${orderId}`)).json().retry).toMatchObject({ cardTypeOID: 'demo-anon.ALL', amount: 12530.86, reason });
    // The acquirer's word is kept on the attempt: its action code and the card as it masked it.
    expect(await attemptByOrder(server.app.store, orderId)).toMatchObject({ status: 'declined', masked_pan: masked, action_code: expect.any(Number) });
  });

  test('a declined fast payment offers no fast payment again, and the bill\'s return address goes with every receipt', async () => {
    await server.app.store.db.updateTable('bills').set({ return_url: 'https://shop.example.ru/orders/145' }).where('oid', '=', 'demo-anon').execute();
    const client = await openPage(server.app);
    const { orderId, data } = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.SBP'))).json().info;
    await payBySbp(server.app, data.payload, 'decline');
    const receipt = (await client.post('/api/getResult/', { transactionID: orderId, billOID: 'demo-anon' })).json().receipt;
    expect(receipt).toMatchObject({ status: 'declined', card: null, declineReason: null, fastPaymentFee: null, returnUrl: 'https://shop.example.ru/orders/145' });
  });

  test('the initial data carries the bill\'s open attempt, with the QR the acquirer gave as Pay answered it', async () => {
    const client = await openPage(server.app);
    expect((await client.get('/ajax/object-info/demo-anon')).json().openAttempt).toBeNull();
    const pay = (await client.post('/api/getPaymentUrl/', payBody('demo-anon', 'demo-anon.SBP'))).json().info;
    const info = (await client.get('/ajax/object-info/demo-anon')).json();
    expect(info.openAttempt).toEqual({
      orderId: pay.orderId,
      cardTypeOID: 'demo-anon.SBP',
      code: 'SBP',
      status: 'created',
      pointsUsed: 0,
      sbp: { payload: pay.data.payload, qrcId: pay.data.qrcId, image: pay.data.image.content },
    });
    // Settled, it is open no more.
    await payBySbp(server.app, pay.data.payload, 'decline');
    expect((await client.get('/ajax/object-info/demo-anon')).json().openAttempt).toBeNull();
  });

  test('maskEmail keeps enough to recognise the address', () => {
    expect(maskEmail('ivan.petrov@mail.ru')).toBe('iv***@mail.ru');
    expect(maskEmail('a@b.ru')).toBe('a***@b.ru');
    expect(maskEmail('broken')).toBe('***');
  });
});
