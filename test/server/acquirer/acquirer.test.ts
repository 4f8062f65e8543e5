import { callbackChecksum, checksumMatches } from '../../../server/acquirer/checksum';
import { AcquirerError } from '../../../server/acquirer/port';
import { rbsClient, type RbsClient } from '../../../server/acquirer/rbs';
import { TEST_CARDS } from '../../../server/sandbox/acquirer';
import { SANDBOX_ACQUIRER } from '../../../server/config';
import { countRows, openPage, payByCard, payBySbp, rbsFault, snapshot, startServer, type Client, type TestServer } from '../helpers';
import { claimAttemptLease, releaseAttemptLease } from '../../../server/acquirer/attempts';
import { billByOid } from '../../../server/billing/queries';
import { attemptByOrder } from '../../../server/payments/queries';
import { attemptsOfBill, exchangesOfAttempt } from '../../support/rows';

const { credentials: SANDBOX_CREDENTIALS, token: SANDBOX_TOKEN } = SANDBOX_ACQUIRER;

let server: TestServer;
afterEach(() => server?.close());

const payBody = (objectOID: string, code = 'ALL') => ({ pointsSum: null, objectOID, cardTypeOID: `${objectOID}.${code}`, email: 'payer@example.ru', userOID: null, manager_id: null });
const pay = (client: Client, objectOID = 'demo-anon', code = 'ALL') => client.post('/api/getPaymentUrl/', payBody(objectOID, code));
/** A Pay that must go through: its answer's `info`, or the answer itself in the failure. */
const payThrough = async (client: Client, code = 'ALL') => {
  const answer = await pay(client, 'demo-anon', code);
  expect({ status: answer.statusCode, body: answer.json() }).toMatchObject({ status: 200 });
  return answer.json().info;
};
const poll = async (client: Client, transactionID: string, billOID = 'demo-anon') => (await client.post('/api/getResult/', { transactionID, billOID })).json().status;
const attempt = (orderId: string) => attemptByOrder(server.app.store, orderId);
const methods = async (orderId: string) => (await exchangesOfAttempt(server.app.store, orderId)).map((e) => e.method);
/** The bill's attempts once one is being registered: the Pay in flight has written its attempt before it calls register.do. */
const attemptsWhenRegistering = async (billOID: string) => {
  for (;;) {
    const attempts = await attemptsOfBill(server.app.store, billOID);
    if (attempts.some((attempt) => attempt.register_started_at !== null)) return attempts;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
/** Until the fake is holding back a status answer of the order ('status-slow'): the read is then surely in flight. */
const answerHeld = async (orderNumber: string) => {
  while (!server.app.rbsFake!.heldAnswers.get(orderNumber)) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('callback checksum', () => {
  // Computed independently: printf 'amount;100;mdOrder;abc;operation;deposited;orderNumber;42;status;1;' | openssl dgst -sha256 -hmac secret-key
  const params = { mdOrder: 'abc', orderNumber: '42', operation: 'deposited', status: '1', amount: '100' };
  const VECTOR = 'A40DEB9AC61900B2325D63FA11B1F09C6EAF23C83C7CA7A3093FA3E8DDAF83FF';

  test('HMAC-SHA256 of the sorted name;value; string, upper-case hex', () => {
    expect(callbackChecksum(params, 'secret-key')).toBe(VECTOR);
    // The checksum parameter itself is not signed.
    expect(callbackChecksum({ ...params, checksum: 'whatever' }, 'secret-key')).toBe(VECTOR);
  });

  test('compared case-insensitively; a wrong key, a changed value or a missing checksum fails', () => {
    expect(checksumMatches({ ...params, checksum: VECTOR }, 'secret-key')).toBe(true);
    expect(checksumMatches({ ...params, checksum: VECTOR.toLowerCase() }, 'secret-key')).toBe(true);
    expect(checksumMatches({ ...params, checksum: VECTOR }, 'other-key')).toBe(false);
    expect(checksumMatches({ ...params, status: '0', checksum: VECTOR }, 'secret-key')).toBe(false);
    expect(checksumMatches(params, 'secret-key')).toBe(false);
    expect(checksumMatches({ ...params, checksum: 'zz' }, 'secret-key')).toBe(false);
  });
});

describe('the RBS adapter against the sandbox fake over HTTP', () => {
  let base: string;
  let acquirer: RbsClient;
  const order = (n: string) => ({ orderNumber: n, amount: 12_345, returnUrl: 'http://localhost:3000/success?billOid=x', failUrl: 'http://localhost:3000/fail', description: 'Тест' });

  beforeEach(async () => {
    server = await startServer({ acquirerTimeoutMs: 1000 });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/sandbox/rbs/payment/rest/`;
    // Generous: a shared machine under a whole test run can take seconds to render a QR. The time-out test has its own.
    acquirer = rbsClient({ baseUrl: base, credentials: SANDBOX_CREDENTIALS, timeoutMs: 20_000 });
  });

  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as AcquirerError);

  test('register, status, QR, QR status, refund, reverse', async () => {
    const registered = await acquirer.register(order('adapter-1'));
    expect(registered.formUrl).toBe(`http://localhost:3000/sandbox/acquirer/${registered.orderId}`);
    expect(await acquirer.orderStatus({ orderId: registered.orderId })).toMatchObject({ orderId: registered.orderId, orderNumber: 'adapter-1', orderStatus: 0, amount: 12_345 });
    // By orderNumber the answer names the order's id among its attributes.
    expect((await acquirer.orderStatus({ orderNumber: 'adapter-1' })).orderId).toBe(registered.orderId);

    const qr = await acquirer.sbpQr({ orderId: registered.orderId });
    expect([qr.qrStatus, qr.payload]).toEqual(['STARTED', `http://localhost:3000/sandbox/sbp/${qr.qrId}`]);
    expect(qr).toMatchObject({ qrStatus: 'STARTED', payload: `http://localhost:3000/sandbox/sbp/${qr.qrId}` });
    expect(Buffer.from(qr.renderedQr, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(await acquirer.sbpQrStatus({ orderId: registered.orderId, qrId: qr.qrId })).toEqual({ qrStatus: 'STARTED', transactionState: 'CREATED' });

    await server.app.rbsFake!.decide(registered.orderId, true);
    expect(await acquirer.sbpQrStatus({ orderId: registered.orderId, qrId: qr.qrId })).toEqual({ qrStatus: 'CONFIRMED', transactionState: 'DEPOSITED' });
    await acquirer.refund({ orderId: registered.orderId, amount: 12_345 });
    expect((await acquirer.orderStatus({ orderId: registered.orderId })).orderStatus).toBe(4);

    const held = await acquirer.register(order('adapter-2'));
    await server.app.rbsFake!.decide(held.orderId, true);
    await acquirer.reverse({ orderId: held.orderId });
    expect((await acquirer.orderStatus({ orderId: held.orderId })).orderStatus).toBe(3);
  });

  test('decline.do ends an order not paid yet (status 6, its QR refused); a paid order answers errorCode 7 and stays paid', async () => {
    const open = await acquirer.register(order('adapter-decline'));
    const qr = await acquirer.sbpQr({ orderId: open.orderId });
    await acquirer.decline({ orderId: open.orderId });
    expect((await acquirer.orderStatus({ orderId: open.orderId })).orderStatus).toBe(6);
    expect(await acquirer.sbpQrStatus({ orderId: open.orderId, qrId: qr.qrId })).toEqual({ qrStatus: 'REJECTED', transactionState: 'DECLINED' });
    // The bank app can no longer pay it.
    expect((await server.app.rbsFake!.decide(open.orderId, true))!.order_status).toBe(6);

    const paid = await acquirer.register(order('adapter-decline-paid'));
    await server.app.rbsFake!.decide(paid.orderId, true);
    expect(await failure(acquirer.decline({ orderId: paid.orderId }))).toMatchObject({ errorCode: '7', method: 'decline.do' });
    expect((await acquirer.orderStatus({ orderId: paid.orderId })).orderStatus).toBe(2);
    expect(await failure(acquirer.decline({ orderId: 'no-such-order' }))).toMatchObject({ errorCode: '6' });
  });

  test('a token works as well as userName and password; wrong credentials are errorCode 5', async () => {
    const byToken = rbsClient({ baseUrl: base, credentials: { token: SANDBOX_TOKEN } });
    expect((await byToken.register(order('adapter-token'))).orderId).toMatch(/^[0-9a-f-]{36}$/);
    const wrong = rbsClient({ baseUrl: base, credentials: { userName: 'shop', password: 'nope' } });
    expect(await failure(wrong.register(order('adapter-wrong')))).toMatchObject({ kind: 'remote', errorCode: '5', method: 'register.do' });
  });

  test('errorCode answers: already registered (1), bad input (4), unknown order (6), refund of an unpaid order (7)', async () => {
    const first = await acquirer.register(order('adapter-dup'));
    const again = await failure(acquirer.register(order('adapter-dup')));
    expect(again).toBeInstanceOf(AcquirerError);
    expect(again!.is('1')).toBe(true);
    expect(await failure(acquirer.register({ ...order('adapter-bad'), amount: 0 }))).toMatchObject({ errorCode: '4' });
    expect(await failure(acquirer.register(order('x'.repeat(33))))).toMatchObject({ errorCode: '4' });
    expect(await failure(acquirer.orderStatus({ orderId: 'no-such-order' }))).toMatchObject({ errorCode: '6', method: 'getOrderStatusExtended.do' });
    expect(await failure(acquirer.refund({ orderId: first.orderId, amount: 100 }))).toMatchObject({ errorCode: '7', method: 'refund.do' });
    expect(await failure(acquirer.sbpQrStatus({ orderId: first.orderId, qrId: 'nope' }))).toMatchObject({ errorCode: '6' });
  });

  test('HTTP 500, a time-out, a non-JSON answer and no server at all are failures of their kind', async () => {
    await rbsFault(server.app, 'register-500');
    expect(await failure(acquirer.register(order('adapter-500')))).toMatchObject({ kind: 'http', httpStatus: 500 });
    await rbsFault(server.app, 'register-500', false);

    await rbsFault(server.app, 'status-slow', true, 'adapter-slow');
    const slow = await acquirer.register(order('adapter-slow'));
    // The fake holds its answer 500 ms past the server's time-out (1 s).
    const impatient = rbsClient({ baseUrl: base, credentials: SANDBOX_CREDENTIALS, timeoutMs: 1000 });
    expect(await failure(impatient.orderStatus({ orderId: slow.orderId }))).toMatchObject({ kind: 'timeout' });

    const html = rbsClient({ baseUrl: base.replace('/sandbox/rbs/payment/rest/', '/pay/'), credentials: SANDBOX_CREDENTIALS });
    expect(await failure(html.orderStatus({ orderId: 'x' }))).toMatchObject({ kind: 'http' });
    const notJson = rbsClient({ baseUrl: base, credentials: SANDBOX_CREDENTIALS, fetch: async () => new Response('<html>', { status: 200 }) });
    expect(await failure(notJson.orderStatus({ orderId: 'x' }))).toMatchObject({ kind: 'not-json' });
    const nobody = rbsClient({ baseUrl: 'http://127.0.0.1:9/payment/rest/', credentials: SANDBOX_CREDENTIALS });
    expect(await failure(nobody.orderStatus({ orderId: 'x' }))).toMatchObject({ kind: 'network' });
  });
});

describe('outcomes through the protocol', () => {
  beforeEach(async () => {
    // Long enough for a loaded machine's QR rendering; the fake holds a timed-out answer 500 ms past it.
    server = await startServer({ acquirerTimeoutMs: 4000 });
  });

  test('the callback: a wrong or missing checksum is 400 and changes nothing; a good one settles from the status; a replay changes nothing', async () => {
    const client = await openPage(server.app);
    const info = (await pay(client)).json().info;
    const { acquirer_order_id: mdOrder } = (await attempt(info.orderId))!;
    await rbsFault(server.app, 'callback-lost');
    await payByCard(server.app, info.formUrl);
    expect((await attempt(info.orderId))!.status).toBe('created');

    const params = { mdOrder: mdOrder!, orderNumber: info.orderId, operation: 'deposited', status: '1' };
    const key = await server.app.callbackKey();
    const before = await snapshot(server.app);
    const forged = await server.app.inject({ method: 'GET', url: `/api/acquirer/callback?${new URLSearchParams({ ...params, checksum: callbackChecksum(params, 'not-the-key') })}` });
    expect(forged.statusCode).toBe(400);
    expect((await server.app.inject({ method: 'GET', url: `/api/acquirer/callback?${new URLSearchParams(params)}` })).statusCode).toBe(400);
    await server.app.background.idle();
    expect(await snapshot(server.app)).toBe(before);

    const signed = new URLSearchParams({ ...params, checksum: callbackChecksum(params, key) }).toString();
    // A POST of the same, form-encoded (some gateways), without any session or CSRF token.
    const good = await server.app.inject({ method: 'POST', url: '/api/acquirer/callback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: signed });
    expect(good.statusCode).toBe(200);
    await server.app.background.idle();
    expect((await attempt(info.orderId))!.status).toBe('success');

    const settled = await snapshot(server.app);
    expect((await server.app.inject({ method: 'GET', url: `/api/acquirer/callback?${signed}` })).statusCode).toBe(200);
    await server.app.background.idle();
    // A settled attempt is not asked about again: the replay changes nothing at all.
    expect(await snapshot(server.app)).toBe(settled);
  });

  test('a callback claiming a payment that the acquirer does not confirm changes nothing', async () => {
    const client = await openPage(server.app);
    const info = (await pay(client)).json().info;
    const mdOrder = (await attempt(info.orderId))!.acquirer_order_id!;
    const params = { mdOrder, orderNumber: info.orderId, operation: 'deposited', status: '1' };
    await server.app.inject({ method: 'GET', url: `/api/acquirer/callback?${new URLSearchParams({ ...params, checksum: callbackChecksum(params, await server.app.callbackKey()) })}` });
    await server.app.background.idle();
    expect((await attempt(info.orderId))!.status).toBe('created');
  });

  test('callbacks twice and reordered: one success, points written off once', async () => {
    const client = await openPage(server.app);
    const info = (await pay(client)).json().info;
    await rbsFault(server.app, 'callback-twice');
    await rbsFault(server.app, 'callbacks-reordered');
    await payByCard(server.app, info.formUrl);
    expect((await attempt(info.orderId))!.status).toBe('success');
    // The first callback's status read settled it; the repeated and the stale one found nothing pending to ask about.
    expect(await methods(info.orderId)).toEqual(['register.do', 'getOrderStatusExtended.do']);
    expect((await billByOid(server.app.store, 'demo-anon'))!).toMatchObject({ status: 'paid', paid_order_id: info.orderId });
  });

  test('a lost callback: the next poll after a few seconds asks the acquirer (once however many polls) and the payer sees success', async () => {
    const client = await openPage(server.app);
    const info = (await pay(client)).json().info;
    await rbsFault(server.app, 'callback-lost');
    await payByCard(server.app, info.formUrl);
    const acquirerOrderId = (await attempt(info.orderId))!.acquirer_order_id!;
    // Just registered: the poll answers from the database and does not ask.
    expect(await poll(client, acquirerOrderId)).toBe('created');
    await server.app.background.idle();
    expect(await methods(info.orderId)).toEqual(['register.do']);

    server.clock.advance(5000);
    const polls = await Promise.all(Array.from({ length: 10 }, () => poll(client, acquirerOrderId)));
    // Each answers from the database at once: 'created', or 'success' for one read after the reconcile settled it.
    expect(polls.every((status) => status === 'created' || status === 'success')).toBe(true);
    await server.app.background.idle();
    expect(await methods(info.orderId)).toEqual(['register.do', 'getOrderStatusExtended.do']);
    expect(await poll(client, acquirerOrderId)).toBe('success');
  });

  test('polls that come while a reconcile is still waiting for the acquirer ask it nothing more', async () => {
    const client = await openPage(server.app);
    const { orderId } = (await pay(client)).json().info;
    const acquirerOrderId = (await attempt(orderId))!.acquirer_order_id!;
    // The first poll's reconcile waits for an acquirer that holds its answer (past the time-out).
    await rbsFault(server.app, 'status-slow', true, orderId);
    server.clock.advance(5000);
    expect(await poll(client, acquirerOrderId)).toBe('created');
    await answerHeld(orderId);
    await rbsFault(server.app, 'status-slow', false, orderId);
    // Nine more polls of the same payer (other tabs, a frozen page waking up) while that read is in flight.
    for (let i = 0; i < 9; i += 1) expect(await poll(client, acquirerOrderId)).toBe('created');
    // Then that read runs out of time.
    await server.timeOutHeldAnswer(orderId);
    await server.app.background.idle();
    expect(await methods(orderId)).toEqual(['register.do', 'getOrderStatusExtended.do']);
  });

  test('a callback that comes while a reconcile is still waiting for the acquirer is not dropped: the acquirer is asked again', async () => {
    const client = await openPage(server.app);
    const { orderId, formUrl } = (await pay(client)).json().info;
    // A poll's reconcile is in flight: the acquirer holds its answer (past the time-out), so it reads nothing.
    await rbsFault(server.app, 'status-slow', true, orderId);
    server.app.gateway.reconcileSoon(orderId);
    await answerHeld(orderId);
    await rbsFault(server.app, 'status-slow', false, orderId);
    // Meanwhile the payer pays; the acquirer's callback asks for a reconcile of the same attempt.
    await payByCard(server.app, formUrl);
    expect((await attempt(orderId))!.status).toBe('success');
    expect(await methods(orderId)).toEqual(['register.do', 'getOrderStatusExtended.do', 'getOrderStatusExtended.do']);
  });

  test('a request slower than its lease does not end the lease of the request that claimed it after', async () => {
    const client = await openPage(server.app);
    const { orderId } = (await pay(client)).json().info;
    const { store } = server.app;
    const slow = server.clock.now() + 1000;
    expect(await claimAttemptLease(store, orderId, slow)).toBe(true);
    server.clock.advance(2000);
    const next = server.clock.now() + 1000;
    expect(await claimAttemptLease(store, orderId, next)).toBe(true);
    // The slow one finishes and gives back its lease: the next one's stays, so nobody else may talk to the acquirer.
    await releaseAttemptLease(store, orderId, slow);
    expect(await claimAttemptLease(store, orderId, server.clock.now() + 1000)).toBe(false);
    await releaseAttemptLease(store, orderId, next);
    expect(await claimAttemptLease(store, orderId, server.clock.now() + 1000)).toBe(true);
  });

  test('a callback that comes while another request (another process, the sweep) holds the lease waits for it, then reads', async () => {
    const client = await openPage(server.app);
    const { orderId, formUrl } = (await pay(client)).json().info;
    // Another process is talking to the acquirer about this attempt: it holds the lease, and its read predates the payment.
    const until = server.clock.now() + 60_000;
    expect(await claimAttemptLease(server.app.store, orderId, until)).toBe(true);
    setTimeout(() => void releaseAttemptLease(server.app.store, orderId, until), 500);
    await payByCard(server.app, formUrl);
    expect((await attempt(orderId))!.status).toBe('success');
    expect(await methods(orderId)).toEqual(['register.do', 'getOrderStatusExtended.do']);
  });

  test('closing the app does not wait for a lease another process holds', async () => {
    const client = await openPage(server.app);
    const { orderId } = (await pay(client)).json().info;
    expect(await claimAttemptLease(server.app.store, orderId, server.clock.now() + 60_000)).toBe(true);
    // The other process's lease runs out in 2 s; a callback's reconcile here would wait for it.
    let leaseEnded = false;
    const other = setTimeout(() => {
      leaseEnded = true;
      server.clock.advance(120_000);
    }, 2000);
    server.app.gateway.reconcileSoon(orderId, { news: true });
    await server.app.close();
    clearTimeout(other);
    // Closed before that lease ended: the waiting callback gave up (the sweep of a running process reads it later).
    expect(leaseEnded).toBe(false);
  });

  test('the sweeper reconciles a paid order nobody polls, and ends an unpaid one past its session time-out as declined', async () => {
    const client = await openPage(server.app);
    const paid = (await pay(client)).json().info;
    const unpaid = (await pay(client, 'demo-offer')).json().info;
    await rbsFault(server.app, 'callback-lost');
    await payByCard(server.app, paid.formUrl);
    await server.app.gateway.sweep();
    expect((await attempt(paid.orderId))!.status).toBe('success');
    expect((await attempt(unpaid.orderId))!.status).toBe('created');

    server.clock.advance(server.app.appOptions.paymentSessionSecs * 1000 + 1);
    await server.app.gateway.sweep();
    expect((await attempt(unpaid.orderId))!.status).toBe('declined');
    // Pay again makes a fresh attempt and a fresh order.
    const again = (await pay(client, 'demo-offer')).json().info;
    expect(again.orderId).not.toBe(unpaid.orderId);
  });

  test('a deposit of another amount than the attempt asked is no success', async () => {
    const client = await openPage(server.app);
    const info = (await pay(client)).json().info;
    const mdOrder = (await attempt(info.orderId))!.acquirer_order_id!;
    await server.app.store.db.updateTable('sandbox_rbs_orders').set({ amount: 1 }).where('order_id', '=', mdOrder).execute();
    await payByCard(server.app, info.formUrl);
    expect((await attempt(info.orderId))!.status).toBe('declined');
    expect((await billByOid(server.app.store, 'demo-anon'))!.status).toBe('open');
  });

  test('acquirer answers 500 on Pay: a clear 503, the attempt kept; once it is back Pay goes on with the same attempt and one order', async () => {
    const client = await openPage(server.app);
    await rbsFault(server.app, 'register-500');
    const down = await pay(client);
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ success: false, error: expect.stringContaining('Не удалось перейти к оплате') });
    const [kept] = await attemptsOfBill(server.app.store, 'demo-anon');
    expect(kept).toMatchObject({ status: 'created', acquirer_order_id: null });

    await rbsFault(server.app, 'register-500', false);
    const back = await pay(client);
    expect(back.statusCode).toBe(200);
    expect(back.json().info.orderId).toBe(kept!.order_id);
    expect(await countRows(server.app, 'sandbox_rbs_orders')).toBe(1);
    await payByCard(server.app, back.json().info.formUrl);
    expect(await poll(client, kept!.order_id)).toBe('success');
  });

  test('register.do timed out after the order was made: the next Pay finds it by orderNumber, never a second order (fast payment)', async () => {
    const client = await openPage(server.app);
    await rbsFault(server.app, 'register-timeout');
    const timingOut = pay(client, 'demo-anon', 'SBP');
    const [kept] = await attemptsWhenRegistering('demo-anon');
    expect((await server.timeOutHeldAnswers(kept!.order_id, timingOut)).statusCode).toBe(503);
    await rbsFault(server.app, 'register-timeout', false);

    const again = await pay(client, 'demo-anon', 'SBP');
    expect([again.statusCode, await methods(kept!.order_id)]).toEqual([200, expect.anything()]);
    expect(again.json().info.orderId).toBe(kept!.order_id);
    expect(await countRows(server.app, 'sandbox_rbs_orders')).toBe(1);
    expect(await methods(kept!.order_id)).toEqual(['register.do', 'getOrderStatusExtended.do', 'sbp/c2b/qr/dynamic/get.do']);
    await payBySbp(server.app, again.json().info.data.payload);
    expect(await poll(client, again.json().info.data.qrcId)).toBe('success');
  });

  test('register.do timed out for a card: its form was never seen, so that attempt ends and a fresh one is registered', async () => {
    const client = await openPage(server.app);
    await rbsFault(server.app, 'register-timeout');
    const timingOut = pay(client);
    const [lost] = await attemptsWhenRegistering('demo-anon');
    expect((await server.timeOutHeldAnswers(lost!.order_id, timingOut)).statusCode).toBe(503);
    await rbsFault(server.app, 'register-timeout', false);

    const again = (await pay(client)).json().info;
    expect(again.orderId).not.toBe(lost!.order_id);
    expect((await attempt(lost!.order_id))!.status).toBe('declined');
    const paid = await payByCard(server.app, again.formUrl, TEST_CARDS.pays);
    expect(paid.statusCode).toBe(303);
    expect(await poll(client, again.orderId)).toBe('success');
  });
});

describe('another way chosen while an attempt is open', () => {
  beforeEach(async () => {
    // Generous: a QR rendered on a loaded shared machine can take seconds, and these journeys are not about time-outs.
    server = await startServer({ acquirerTimeoutMs: 20_000 });
  });

  test('another way chosen while a QR is open: its order is declined at the acquirer first, so the QR can no longer pay the bill', async () => {
    const tab1 = await openPage(server.app);
    const qr = await payThrough(tab1, 'SBP');
    const tab2 = await openPage(server.app);
    const card = await payThrough(tab2);
    expect(await attempt(qr.orderId)).toMatchObject({ status: 'declined' });
    expect(await methods(qr.orderId)).toContain('decline.do');
    // The bank app still holding tab 1's QR is refused; the card pays the bill once.
    await payBySbp(server.app, qr.data.payload);
    expect(await poll(tab1, qr.data.qrcId)).toBe('declined');
    await payByCard(server.app, card.formUrl);
    expect(await poll(tab2, card.orderId)).toBe('success');
    expect((await billByOid(server.app.store, 'demo-anon'))!.status).toBe('paid');
    expect(await countRows(server.app, 'refunds')).toBe(0);
  });

  test('the same way again (another tab, the same points) finds the open attempt and declines nothing', async () => {
    const tab1 = await openPage(server.app);
    const first = await payThrough(tab1, 'SBP');
    const again = await payThrough(await openPage(server.app), 'SBP');
    expect(again.orderId).toBe(first.orderId);
    expect(await methods(first.orderId)).not.toContain('decline.do');
    expect(await attempt(first.orderId)).toMatchObject({ status: 'created' });
  });

  test('another way chosen after the open one was paid meanwhile: decline.do refused, the bill settles paid, the Pay is 409', async () => {
    const tab1 = await openPage(server.app);
    const qr = await payThrough(tab1, 'SBP');
    // The bank paid, and its callback is lost: only the status read after the refused decline can tell.
    await rbsFault(server.app, 'callback-lost');
    await payBySbp(server.app, qr.data.payload);
    const second = await pay(await openPage(server.app));
    expect(second.statusCode).toBe(409);
    expect(await attempt(qr.orderId)).toMatchObject({ status: 'success' });
    expect(await attemptsOfBill(server.app.store, 'demo-anon')).toHaveLength(1);
  });
});
